"""Scalar ops: constants, arithmetic, comparisons, casts, pointer offsets."""
from __future__ import annotations

import numpy as np

from ...ir.kernel_warnings import NonFiniteScalarWarning
from ..fp_errors import ignored
from ..integer import int_div
from . import impl
from .arith import UNARY_FUNCS


_NP_BIN = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "lshift": np.left_shift,
           "rshift": np.right_shift, "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
           "logical_and": np.logical_and, "logical_or": np.logical_or, "max": np.maximum, "min": np.minimum}


_NP_CMP = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
           "lt": np.less, "le": np.less_equal}


@impl("scalar.const")
def _exec_const(ex, op):
    key = (op.attrs["value"], op.results[0].type.dtype.name)
    v = _CONSTS.get(key)
    if v is None:
        npd = op.results[0].type.dtype.to_numpy()
        value = op.attrs["value"]
        if npd.kind in "iu" and isinstance(value, int) and not np.can_cast(np.min_scalar_type(value), npd):
            # a Python int outside the type's range wraps around, as the C literal conversion does
            v = np.asarray(value % (1 << (8 * npd.itemsize)), dtype=np.uint64).astype(npd)
        else:
            v = np.asarray(value, dtype=npd)
        v.flags.writeable = False  # shared by every launch
        _CONSTS[key] = v
    return v


_CONSTS = {}


@impl("scalar.binary")
def _exec_scalar_binary(ex, op, a, b):
    kind = op.attrs["kind"]
    rdt = op.results[0].type.dtype
    with ignored():
        if kind in ("div", "floordiv", "mod"):
            if rdt.is_int():
                return int_div(a, b, kind)
            if kind == "mod":
                r = np.fmod(a, b).astype(rdt.to_numpy(), copy=False)
            else:
                r = np.true_divide(a, b).astype(rdt.to_numpy(), copy=False)
        else:
            r = _NP_BIN[kind](a, b).astype(rdt.to_numpy(), copy=False)
    if r.dtype.kind == "f" and ex.checks:
        _check_finite(ex, op, r, _SYMBOL.get(kind, kind), a, b)
    return r


_ALL = np.logical_and.reduce
_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%"}


def _check_finite(ex, op, r, what, *args):
    """Warn where scalar code turns finite operands into inf / nan (float division by zero, log of a
    negative number, overflow): the value poisons everything computed from it."""
    if _ALL(np.isfinite(r), axis=None):
        return
    args = [np.asarray(a) for a in args]
    bad = ~np.isfinite(np.broadcast_to(r, np.broadcast_shapes(r.shape, *(a.shape for a in args))))
    for a in args:
        bad &= np.isfinite(np.broadcast_to(a, bad.shape))
    if not bad.any():
        return  # a non-finite operand came in: reported where it arose
    k = np.unravel_index(int(np.argmax(bad)), bad.shape)
    vals = [np.broadcast_to(a, bad.shape)[k].item() for a in args]
    res = np.broadcast_to(r, bad.shape)[k].item()
    expr = f"{vals[0]!r} {what} {vals[1]!r}" if len(vals) == 2 and len(what) <= 2 else f"{what}({vals[0]!r})"
    ex.warn(op, f"scalar {expr} gives {res!r}: scalar code produced a non-finite value (division by zero, "
            "log or sqrt of a negative number, or overflow); guard the operand", NonFiniteScalarWarning)


@impl("scalar.cmp")
def _exec_scalar_cmp(ex, op, a, b):
    return _NP_CMP[op.attrs["mode"]](a, b)


@impl("scalar.cast")
def _exec_scalar_cast(ex, op, a):
    rdt = op.results[0].type.dtype
    with ignored():
        if rdt.is_int() and a.dtype.kind == "f":
            a = np.trunc(a)
        return np.asarray(a).astype(rdt.to_numpy())


@impl("scalar.unary")
def _exec_scalar_unary(ex, op, a):
    kind = op.attrs["kind"]
    if kind == "neg":
        with ignored():
            return np.negative(a)
    with ignored():
        r = UNARY_FUNCS[kind](np.asarray(a, dtype=np.float32)).astype(np.float32, copy=False)
    if ex.checks:
        _check_finite(ex, op, r, kind, a)
    return r


@impl("ptr.offset")
def _exec_ptr_offset(ex, op, p, off):
    return p.offset_by(off)


@impl("scalar.select")
def _exec_scalar_select(ex, op, c, a, b):
    return np.where(np.asarray(c).astype(bool), a, b)

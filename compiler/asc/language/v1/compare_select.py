"""v1 compare and select: ``compare`` / ``compare_scalar`` write one bit per element (bit i of byte i // 8,
little-endian, 1 where the comparison holds) or, without a destination, the 128-bit compare register;
``select`` picks ``src0`` where a bit of ``sel_mask`` is 1 and ``src1`` (a tensor or a scalar) where it is 0;
``get_cmp_mask`` / ``set_cmp_mask`` move the compare register to and from UB."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import (REPEAT_BYTES, Form, aligned, dtypes_in, issue, lanes_of, local, one_type, operand_regions,
                         param_strides, parse_form, repeat_indices, resolve, vector_cost)
from .enums import CMPMODE, SelMode
from .params import BinaryRepeatParams, UnaryRepeatParams
from .tensors import LocalTensor, scalar_fits, scalar_operand

_SRC = ("float16", "float32")
_BITS = ("uint8",)


def _positions(a, isz):
    """Each processed element's position in the repeat grid (repeat * lanes + lane): its bit of a bit mask."""
    if a.idx is None or a.form == "counter":
        return np.arange(a.count)
    return repeat_indices(a.active, a.rep_count, 1, 8, isz)


def _count_256(name, f, t):
    """The count forms of compare / select process whole 256-byte repeats (the docstring's constraint)."""
    if f.count is not None and (int(f.count) * t.itemsize) % REPEAT_BYTES:
        raise error(ValueError, f"{name}: count {int(f.count)} of {t.dtype} is {int(f.count) * t.itemsize} bytes, "
                    "not a multiple of 256 (the count form compares whole repeats)",
                    f"pass a count that is a multiple of {REPEAT_BYTES // t.itemsize}, or use the mask form")


def _cmp_mode(name, cmp_mode):
    try:
        return CMPMODE(int(cmp_mode)).name
    except (ValueError, TypeError):
        raise error(ValueError, f"{name}: cmp_mode {cmp_mode!r} is not a CMPMODE",
                    "pass asc.CMPMODE.LT, GT, EQ, LE, GE or NE") from None


def _bit_region(dst, nbits):
    return (dst.region(0, -(-nbits // (8 * dst.itemsize))),) if nbits else ()


def _compare(name, dst, srcs, mode, f, params_cls, scalar=None):
    dtypes_in(name, _SRC, src0=srcs[0])
    one_type(name, *srcs)
    local(name, *srcs)
    aligned(name, *srcs)
    _count_256(name, f, srcs[0])
    isz = srcs[0].itemsize
    if dst is not None:
        local(name, dst)
        aligned(name, dst)
        dtypes_in(name, _BITS, dst=dst)
    strides = param_strides(f.repeat_params, 1 + len(srcs))[1:] if f.count is None else None
    a = resolve(name, f, list(srcs), strides, isz)
    idx = a.idx or [None] * len(srcs)
    reads = tuple(r for t, ix in zip(srcs, idx) for r in operand_regions(t, ix, a.count))
    pos = _positions(a, isz)
    nbits = a.rep_count * lanes_of(isz)
    writes = _bit_region(dst, nbits) if dst is not None else ()
    return issue(PipeOp(name, "V", reads, writes, {"dst": dst, "srcs": list(srcs), "idx": a.idx, "count": a.count,
                                                   "mode": mode, "scalar": scalar, "bits": pos, "nbits": nbits,
                                                   "repeats": a.repeats, "form": a.form}, user_loc()))


def compare(*args, **kwargs):
    """``compare(dst, src0, src1, cmp_mode, count)``, its mask forms (BinaryRepeatParams), or
    ``compare(src0, src1, cmp_mode, mask, repeat_params)`` into the compare register (one repeat)."""
    args = list(args)
    names = ("dst", "src0", "src1") if len(args) >= 3 and isinstance(args[2], LocalTensor) or "dst" in kwargs \
        else ("src0", "src1")
    t = [kwargs.pop(n) if n in kwargs else args.pop(0) for n in names]
    mode = _cmp_mode("compare", kwargs.pop("cmp_mode") if "cmp_mode" in kwargs else args.pop(0))
    if len(t) == 3:
        f = parse_form("compare", args, kwargs, BinaryRepeatParams,
                       "compare(dst, src0, src1, cmp_mode, count) or compare(dst, src0, src1, cmp_mode, mask, "
                       "repeat_times, repeat_params)", params_required=True, set_mask=False)
        _compare("compare", t[0], t[1:], mode, f, BinaryRepeatParams)
        return
    mask = kwargs.pop("mask") if "mask" in kwargs else args.pop(0)
    params = kwargs.pop("repeat_params") if "repeat_params" in kwargs else args.pop(0) if args else None
    is_set_mask = kwargs.pop("is_set_mask", args.pop(0) if args else True)
    if args or kwargs:
        raise error(TypeError, f"compare: unexpected arguments {args or ''} {sorted(kwargs) or ''}".strip(),
                    "compare(src0, src1, cmp_mode, mask, repeat_params) writes the compare register")
    f = Form(None, mask, 1, params or BinaryRepeatParams(), is_set_mask)
    _compare("compare", None, t, mode, f, BinaryRepeatParams)


def compare_scalar(dst, src0, src1_scalar, cmp_mode, *args, **kwargs):
    """``compare_scalar(dst, src0, scalar, cmp_mode, count)`` or its mask forms (UnaryRepeatParams)."""
    # the call's form first; a float scalar for an integer tensor arrives truncated, as pyasc materialises it
    f = parse_form("compare_scalar", args, kwargs, UnaryRepeatParams,
                   "compare_scalar(dst, src0, scalar, cmp_mode, count) or compare_scalar(dst, src0, scalar, "
                   "cmp_mode, mask, repeat_times, repeat_params)", params_required=True, set_mask=False)
    src1_scalar = scalar_operand(src1_scalar, src0.dtype)
    scalar_fits("compare_scalar", src1_scalar, src0.dtype)
    _compare("compare_scalar", dst, (src0,), _cmp_mode("compare_scalar", cmp_mode), f, UnaryRepeatParams,
             scalar=src1_scalar)


def _sel_mode(mode):
    try:
        return SelMode(int(mode))
    except (ValueError, TypeError):
        raise error(ValueError, f"select: sel_mode {mode!r} is not a SelMode",
                    "pass asc.SelMode.VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE or VSEL_TENSOR_TENSOR_MODE") from None


def select(dst, *args, **kwargs):
    """``select(dst, sel_mask, src0, src1, sel_mode, count)`` (``src1`` a tensor or, in mode 1, a scalar), its
    mask forms (BinaryRepeatParams), or ``select(dst, src0, src1, repeat_times=, repeat_params=, sel_mode=)``
    selecting by the compare register. Mode 0 uses the mask's first repeat of bits in every repeat; modes 1
    and 2 consume its bits one per element."""
    args = list(args)
    # the register form exactly as upstream tells it apart: two positional tensors and these three keywords
    # (other keywords beside them are not read, as upstream does not read them)
    if len(args) == 2 and all(k in kwargs for k in ("repeat_times", "repeat_params", "sel_mode")):
        src0, src1 = args
        f = Form(None, None, kwargs.pop("repeat_times"), kwargs.pop("repeat_params"), False)
        mode = _sel_mode(kwargs.pop("sel_mode"))
        sel_mask = None
    else:
        sel_mask = kwargs.pop("sel_mask") if "sel_mask" in kwargs else args.pop(0)
        src0 = kwargs.pop("src0") if "src0" in kwargs else args.pop(0)
        src1 = kwargs.pop("src1") if "src1" in kwargs else args.pop(0)
        mode = _sel_mode(kwargs.pop("sel_mode") if "sel_mode" in kwargs else args.pop(0))
        f = parse_form("select", args, kwargs, BinaryRepeatParams,
                       "select(dst, sel_mask, src0, src1, sel_mode, count) or select(dst, sel_mask, src0, src1, "
                       "sel_mode, mask, repeat_times, repeat_params)", params_required=True, set_mask=False)
    scalar = None
    tensors = [dst, src0]
    if isinstance(src1, LocalTensor):
        one_type("select", dst, src0, src1)     # one T for the three (Ascend C's template), before the mode
        if mode == SelMode.VSEL_TENSOR_SCALAR_MODE:
            raise error(TypeError, "select: VSEL_TENSOR_SCALAR_MODE takes a scalar src1, got a LocalTensor",
                        "pass a number as src1, or use VSEL_TENSOR_TENSOR_MODE for two tensors")
        tensors.append(src1)
    else:
        if mode != SelMode.VSEL_TENSOR_SCALAR_MODE:
            raise error(TypeError, f"select: {mode.name} takes a LocalTensor src1, got {type(src1).__name__}",
                        "pass sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE to select against a scalar")
        if not isinstance(src1, (float, np.floating)):
            raise error(TypeError, f"select: takes a float src1 in VSEL_TENSOR_SCALAR_MODE (upstream's overload), "
                        f"got {type(src1).__name__} {src1!r}", f"write it as a float: {float(src1)!r}"
                        if isinstance(src1, (int, np.integer)) else "pass a float scalar as src1")
        src1 = scalar_operand(src1, src0.dtype)     # a float for an integer tensor arrives truncated
        scalar_fits("select", src1, src0.dtype)
        scalar = src1
    dtypes_in("select", _SRC, dst=dst)
    one_type("select", *tensors)
    local("select", *tensors)
    aligned("select", *tensors)
    isz = dst.itemsize
    strides = param_strides(f.repeat_params, 3) if f.count is None else None
    if strides is not None and scalar is not None:
        strides = strides[:2]
    a = resolve("select", f, tensors, strides, isz)
    idx = a.idx or [None] * len(tensors)
    reads = [r for t, ix in zip(tensors[1:], idx[1:]) for r in operand_regions(t, ix, a.count)]
    lanes = lanes_of(isz)
    pos = _positions(a, isz)
    bits = pos % lanes if mode == SelMode.VSEL_CMPMASK_SPR else pos
    if sel_mask is not None:
        local("select", sel_mask)
        aligned("select", sel_mask)
        nbits = lanes if mode == SelMode.VSEL_CMPMASK_SPR else a.rep_count * lanes
        reads.extend(_bit_region(sel_mask, nbits))
    writes = operand_regions(dst, idx[0], a.count)
    issue(PipeOp("select", "V", tuple(reads), tuple(writes),
                 {"dst": dst, "srcs": tensors[1:], "sel_mask": sel_mask, "idx": a.idx, "count": a.count,
                  "scalar": scalar, "bits": bits, "repeats": a.repeats, "form": a.form}, user_loc()))


def get_cmp_mask(dst):
    """``get_cmp_mask(dst)``: the 128-bit compare register into the first 16 bytes of ``dst``."""
    local("get_cmp_mask", dst)
    aligned("get_cmp_mask", dst)
    issue(PipeOp("get_cmp_mask", "V", (), (dst.region(0, 16 // dst.itemsize),), {"dst": dst, "repeats": 1},
                 user_loc()))


def set_cmp_mask(src):
    """``set_cmp_mask(src)``: the compare register from the first 16 bytes of ``src``."""
    local("set_cmp_mask", src)
    aligned("set_cmp_mask", src)
    issue(PipeOp("set_cmp_mask", "V", (src.region(0, 16 // src.itemsize),), (), {"src": src, "repeats": 1},
                 user_loc()))


define("v1.compare", cost=vector_cost("compare"))
define("v1.compare_scalar", cost=vector_cost("compare"))
define("v1.select", cost=vector_cost("select"))
define("v1.get_cmp_mask", cost=vector_cost())
define("v1.set_cmp_mask", cost=vector_cost())

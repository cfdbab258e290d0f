"""Bitwise ops and the power of tiles (``asc.language.tile.bitwise_ops`` states the semantics)."""
from __future__ import annotations

import numpy as np

from ..convert import as_compute
from ..fp_errors import ignored
from ..lanes import scalar_for_tile
from . import impl

_BITS = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def int_pow(a, b, dtype):
    """``a ** b`` on integers of ``dtype``: wraps around on overflow; a negative exponent truncates
    ``1 / a ** -b`` toward zero (1 for a == 1, +-1 for a == -1, else 0)."""
    a64, b64 = np.asarray(a).astype(np.int64), np.asarray(b).astype(np.int64)
    a64, b64 = np.broadcast_arrays(a64, b64)
    with np.errstate(over="ignore"):
        r = np.power(a64, np.maximum(b64, 0))
    neg = b64 < 0
    if neg.any():
        odd = (b64 & 1) == 1
        r = np.where(neg, np.where(a64 == 1, 1, np.where(a64 == -1, np.where(odd, -1, 1), 0)), r)
    return r.astype(dtype)  # int64 -> narrower: modulo 2**bits, as the hardware's wrap-around


def pow_values(a, b, dtype):
    if dtype.kind in "iu":
        return int_pow(a, b, dtype)
    with ignored():  # overflow to inf is the result, not a warning
        r = np.power(as_compute(a, np.float32), as_compute(b, np.float32))
        return np.asarray(r).astype(dtype, copy=False)


@impl("tile.bitwise", undefined="union")
def _exec_bitwise(ex, op, a, b):
    return _BITS[op.attrs["kind"]](a, b)


@impl("tile.bitwise_scalar", undefined="union")
def _exec_bitwise_scalar(ex, op, a, s):
    s = scalar_for_tile(np.asarray(s), a.ndim - 1).astype(a.dtype)
    return _BITS[op.attrs["kind"]](a, s)  # and / or / xor are symmetric


@impl("tile.bitwise_not", undefined="union")
def _exec_bitwise_not(ex, op, a):
    return np.invert(a)


@impl("tile.pow", undefined="union")
def _exec_pow(ex, op, a, b):
    return pow_values(a, b, op.results[0].type.dtype.to_numpy())


@impl("tile.pow_scalar", undefined="union")
def _exec_pow_scalar(ex, op, a, s):
    rdt = op.results[0].type.dtype.to_numpy()
    s = scalar_for_tile(np.asarray(s), a.ndim - 1).astype(rdt)
    if op.attrs["reverse"]:
        a, s = s, a
    return pow_values(a, s, rdt)

"""Element math of the v1 elementwise instructions beyond the basic arithmetic (``compute.py``): the fused
relu / multiply-add forms, bitwise and shift instructions. Narrow floats compute in float32 and round once
to the instruction's dtype, as the basic ones do."""
from __future__ import annotations

import numpy as np

from ..ops import arith
from .impls import impl, operands as _operands


def _wide(v, dtype):
    return v.astype(arith.compute_dtype(np.dtype(dtype)), copy=False)


def fused_values(name, x, y, old, dtype):
    """``add_relu sub_relu`` (the sum / difference, then max with 0), ``fused_mul_add`` (x * old + y),
    ``mul_add_dst`` (x * y + old), ``fused_mul_add_relu``: computed wide, rounded once."""
    x, y = _wide(x, dtype), _wide(y, dtype)
    with np.errstate(all="ignore"):
        if name in ("add_relu", "sub_relu"):
            r = np.maximum(x + y if name == "add_relu" else x - y, 0)
        elif name == "mul_add_dst":
            r = x * y + _wide(old, dtype)
        else:
            r = x * _wide(old, dtype) + y
            if name == "fused_mul_add_relu":
                r = np.maximum(r, 0)
        return np.asarray(r).astype(dtype, copy=False)


@impl("add_relu", "sub_relu", "fused_mul_add", "mul_add_dst", "fused_mul_add_relu", pure=True)
def _fused(eng, op):
    d, di, (x, y) = _operands(eng, op)
    d[di] = fused_values(op.name, x, y, d[di], d.dtype)


@impl("bitwise_and", "bitwise_or", pure=True)
def _bitwise(eng, op):
    d, di, (x, y) = _operands(eng, op)
    d[di] = (np.bitwise_and if op.name == "bitwise_and" else np.bitwise_or)(x, y)


@impl("bitwise_not", pure=True)
def _bitwise_not(eng, op):
    d, di, (x,) = _operands(eng, op)
    d[di] = np.invert(x)


@impl("shift_left", "shift_right", pure=True)
def _shift(eng, op):
    """Shifts of the element's bits: left drops the high bits, right is arithmetic for signed types."""
    d, di, (x,) = _operands(eng, op)
    s = x.dtype.type(op.attrs["scalar"])
    d[di] = np.left_shift(x, s) if op.name == "shift_left" else np.right_shift(x, s)

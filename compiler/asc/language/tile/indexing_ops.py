"""``where`` (select by a boolean tile) and ``mask`` (a masked region of vector ops)."""
from __future__ import annotations

import numbers


from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import PlainValue, to_scalar
from .costs import vector_cost
from .memory_ops import vector_operand
from .tile import Tile, emit_tile
from .utils import create_tile, infer_common_dtype


def where(mask, src0, src1):
    if not isinstance(mask, Tile):
        raise error(TypeError, f"'mask' argument must be Tile, got {type(mask)}",
                    "build the mask with a tile comparison, e.g. @where(x >= 0, x, y); use `if` for scalars")
    if str(mask.dtype) != "int1":
        raise error(RuntimeError, f"'mask' must be a boolean tile (a comparison result), got {mask.dtype}",
                    "build the mask with a comparison, e.g. @where(x >= 0, x, y)")
    mask = vector_operand(mask, "@where")
    src0, src1 = vector_operand(src0), vector_operand(src1)
    dtype = infer_common_dtype(src0, src1)
    a = create_tile(src0, dtype, mask.shape)
    b = create_tile(src1, dtype, mask.shape)
    return emit_tile("tile.select", [mask.handle, a.handle, b.handle], mask.shape, dtype)


class mask:
    """``with asc2.mask(count=n):`` / ``with asc2.mask(bits=(hi, lo), other=v):`` -- vector ops in the
    region only compute the enabled lanes; disabled lanes take ``other`` (or keep zero)."""

    def __init__(self, *, count=None, bits=None, other=None):
        if count is None and bits is None:
            raise error(ValueError, "One of 'count', 'bits' must be provided",
                        "@mask(count=n): the first n lanes; @mask(bits=(high, low)): lanes by bit")
        if bits is not None:
            bits = list(bits)
            if len(bits) != 2:
                raise error(RuntimeError, f"Expected two integers in 'bits', got {len(bits)}",
                            "pass bits=(high_word, low_word)")
        self.count, self.bits, self.other = count, bits, other

    def operands(self):
        ops, attrs = [], {"mode": "count" if self.count is not None else "bits", "has_other": self.other is not None}
        if self.count is not None:
            ops.append(to_scalar(self.count, dt.int64).handle)
        else:
            ops += [to_scalar(b, dt.int64).handle for b in self.bits]
        if self.other is not None:
            if not isinstance(self.other, (numbers.Real, PlainValue)):
                raise error(TypeError, f"'other' must be a number or a runtime scalar, got {type(self.other)}",
                            "other is the value of masked-off lanes, e.g. other=0.0")
            ops.append(to_scalar(self.other, dt.float32).handle)
        return ops, attrs

    def __enter__(self):
        raise error(RuntimeError, "@mask can only be used in a `with` statement inside an @@jit kernel",
                    "write `with @mask(count=n):` inside the kernel")

    def __exit__(self, *exc):
        return False


define("tile.select", cost=vector_cost("select"), in_place=True)
define("mask.region", cost=lambda op, hw: ("S", hw.scalar_op))

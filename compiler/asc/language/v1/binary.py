"""v1 binary instructions: ``dst[i] = f(src0[i], src1[i])`` over the shared addressing (``addressing.py``):
``add sub mul div max min``, ``add_relu sub_relu``, ``bitwise_and bitwise_or``, and the three-operand
``fused_mul_add`` (``dst = src0 * dst + src1``), ``mul_add_dst`` (``dst = src0 * src1 + dst``),
``fused_mul_add_relu``. Element math in ``sim/pipes/compute.py`` / ``compute_elementwise.py``."""
from __future__ import annotations

from ...ir.registry import define
from .addressing import dtypes_in, parse_form, vector_cost, vector_op
from .params import BinaryRepeatParams

_ARITH = ("float16", "float32", "int16", "int32")
_RELU = ("float16", "float32", "int16")
_FLOAT = ("float16", "float32")
_BITS = ("int16", "uint16")
# upstream's check_type: the element types each instruction takes (one type for all three operands)
TYPES = {"add": _ARITH, "sub": _ARITH, "mul": _ARITH, "max": _ARITH, "min": _ARITH, "div": _FLOAT,
         "add_relu": _RELU, "sub_relu": _RELU, "bitwise_and": _BITS, "bitwise_or": _BITS,
         "fused_mul_add": _FLOAT, "mul_add_dst": _FLOAT, "fused_mul_add_relu": _FLOAT}
READS_DST = ("fused_mul_add", "mul_add_dst", "fused_mul_add_relu")


def _check(name, dst, src0, src1):
    valid = TYPES[name]
    dtypes_in(name, valid, dst=dst, src0=src0, src1=src1)
    if str(src0.dtype) != str(src1.dtype):
        from ..core.errors import error
        raise error(TypeError, "Src0 and src1 must be same type.", f"{name} takes src0 and src1 of one dtype")
    if not str(dst.dtype) == str(src0.dtype):
        from ..core.errors import error
        raise error(TypeError, "Src0, src1 and dst must be same type.", f"{name} takes operands of one dtype")


def _binary(name):
    def op(dst, src0, src1, *args, **kwargs):
        _check(name, dst, src0, src1)
        vector_op(name, dst, (src0, src1), parse_form(name, args, kwargs, BinaryRepeatParams,
                                                               params_required=True),
                  reads_dst=name in READS_DST)
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src0, src1, count)`` or its mask forms (BinaryRepeatParams)."
    return op


add, sub, mul, div, max, min = (_binary(n) for n in ("add", "sub", "mul", "div", "max", "min"))  # noqa: A001
add_relu, sub_relu, bitwise_and, bitwise_or = (_binary(n) for n in ("add_relu", "sub_relu", "bitwise_and",
                                                                    "bitwise_or"))
fused_mul_add, mul_add_dst, fused_mul_add_relu = (_binary(n) for n in READS_DST)

for _name in ("add", "sub", "mul", "max", "min", "add_relu", "sub_relu", "bitwise_and", "bitwise_or"):
    define("v1." + _name, cost=vector_cost())
define("v1.div", cost=vector_cost("div"))     # weighs as the tile op of the same math
for _name in READS_DST:                       # a multiply and an add in one pass
    define("v1." + _name, cost=vector_cost())

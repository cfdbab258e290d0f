"""v1 unary instructions: ``dst[i] = f(src[i])`` over the shared addressing: ``exp sqrt abs relu ln reciprocal
rsqrt`` and ``bitwise_not``."""
from __future__ import annotations

from ...ir.registry import define
from .addressing import dtypes_in, one_type, parse_form, vector_cost, vector_op
from .params import UnaryRepeatParams

_FLOAT = ("float16", "float32")
TYPES = {"exp": _FLOAT, "sqrt": _FLOAT, "ln": _FLOAT, "reciprocal": _FLOAT, "rsqrt": _FLOAT,
         "abs": ("float16", "float32", "int16", "int32"), "relu": ("float16", "float32", "int32"),
         "bitwise_not": ("int16", "uint16")}


def _unary(name):
    def op(dst, src, *args, **kwargs):
        one_type(name, dst, src)
        # Ascend C instantiates each instruction for these types only (pyasc's front end leaves it to the
        # device compiler): exp of an int16 tensor has no meaning to compute
        dtypes_in(name, TYPES[name], dst=dst, src=src)
        vector_op(name, dst, (src,), parse_form(name, args, kwargs, UnaryRepeatParams,
                                                f"{name}(dst, src, count) or {name}(dst, src, mask, repeat_times, "
                                                "repeat_params)", params_required=True))
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src, count)`` or its mask forms (UnaryRepeatParams)."
    return op


exp, sqrt, abs, relu, ln, reciprocal, rsqrt, bitwise_not = (  # noqa: A001
    _unary(n) for n in ("exp", "sqrt", "abs", "relu", "ln", "reciprocal", "rsqrt", "bitwise_not"))

for _name in ("abs", "relu", "reciprocal", "bitwise_not"):
    define("v1." + _name, cost=vector_cost())
# the transcendental calls weigh as the tile ops of the same math
for _name, _kind in (("exp", "exp"), ("sqrt", "sqrt"), ("ln", "log"), ("rsqrt", "rsqrt")):
    define("v1." + _name, cost=vector_cost(_kind))

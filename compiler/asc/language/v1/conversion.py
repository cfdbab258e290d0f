"""v1 conversions: ``cast(dst, src, round_mode, ...)`` between the element types Ascend C's Cast converts,
with its rounding modes (CAST_NONE: exact where the conversion is exact, else as CAST_RINT; RINT: half to
even; FLOOR; CEIL; ROUND: half away from zero; TRUNC; ODD: round to odd), integers saturating; and the fused
``add_relu_cast`` / ``sub_relu_cast`` / ``mul_cast`` (computed in the source type, then converted with
CAST_RINT). Each operand is addressed with its own element size; a repeat holds 256 bytes of the wider one.
Element math in ``sim/pipes/compute_convert.py``."""
from __future__ import annotations

from ...ir.registry import define
from ..core.errors import error
from .addressing import dtypes_in, parse_form, vector_cost, vector_op
from .enums import RoundMode
from .params import BinaryRepeatParams, UnaryRepeatParams

# (src, dst) pairs Cast converts (Ascend C's Cast table for the vector units of both platforms)
PAIRS = {
    "float16": ("float32", "int32", "int16", "int8", "uint8"),
    "float32": ("float16", "bfloat16", "int32", "int16", "int64", "float32"),
    "bfloat16": ("float32", "int32"),
    "int32": ("float32", "int16", "int64"),
    "int16": ("float16", "float32"),
    "int8": ("float16",),
    "uint8": ("float16",),
    "int64": ("float32", "int32"),
}
_EXACT = {("float16", "float32"), ("bfloat16", "float32"), ("int16", "float32"), ("int16", "float16"),
          ("int8", "float16"), ("uint8", "float16"), ("int32", "int64")}


def cast(dst, src, round_mode, *args, **kwargs):
    """``cast(dst, src, round_mode, count)`` or its mask forms (UnaryRepeatParams)."""
    s, d = str(src.dtype), str(dst.dtype)
    if d not in PAIRS.get(s, ()):
        raise error(TypeError, f"cast from {s} to {d} is not supported",
                    f"cast {s} to one of {', '.join(PAIRS.get(s, ())) or 'nothing'}, or go through an "
                    "intermediate type")
    try:
        mode = RoundMode(int(round_mode))
    except (TypeError, ValueError):
        raise error(ValueError, f"cast: round_mode {round_mode!r} is not a RoundMode",
                    "pass asc.RoundMode.CAST_RINT (or CAST_NONE, FLOOR, CEIL, ROUND, TRUNC, ODD)") from None
    if mode == RoundMode.CAST_ODD and (s, d) != ("float32", "float16"):
        raise error(ValueError, f"cast: CAST_ODD rounds float32 to float16 only, not {s} to {d}",
                    "use CAST_RINT (or another mode) for this conversion")
    if (s, d) == ("float32", "float32") and mode == RoundMode.CAST_NONE:
        raise error(ValueError, "cast float32 to float32 rounds to an integer value: CAST_NONE is not a mode of it",
                    "pass CAST_RINT, FLOOR, CEIL, ROUND or TRUNC")
    f = parse_form("cast", args, kwargs, UnaryRepeatParams,
                   "cast(dst, src, round_mode, count) or cast(dst, src, round_mode, mask, repeat_times, repeat_params)")
    vector_op("cast", dst, (src,), f, extra={"round": mode.name})


_FUSED = {"add_relu_cast": {"float32": ("float16",), "float16": ("int8",), "int16": ("int8",)},
          "sub_relu_cast": {"float32": ("float16",), "float16": ("int8",), "int16": ("int8",)},
          "mul_cast": {"float16": ("int8", "uint8")}}


def _fused(name):
    def op(dst, src0, src1, *args, **kwargs):
        valid = _FUSED[name]
        dtypes_in(name, tuple(valid), src0=src0, src1=src1)
        if str(src0.dtype) != str(src1.dtype):
            raise error(TypeError, "Src0 and src1 must be same type.", f"{name} takes src0 and src1 of one dtype")
        dtypes_in(name, valid[str(src0.dtype)], dst=dst)
        f = parse_form(name, args, kwargs, BinaryRepeatParams)
        vector_op(name, dst, (src0, src1), f, extra={"round": "CAST_RINT"})
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src0, src1, count)`` or its mask forms: computed in the sources' type, then cast."
    return op


add_relu_cast, sub_relu_cast, mul_cast = (_fused(n) for n in _FUSED)

define("v1.cast", cost=vector_cost())
for _name in _FUSED:
    define("v1." + _name, cost=vector_cost())

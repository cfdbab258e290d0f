"""v1 scalar-unit helpers on one value: bit counts of 64-bit integers (plain Python: the scalar unit's
integer ops) and ``scalar_cast`` (a float rounded to int32 or half by a RoundMode, an S-pipe op whose rounding
is the vector ``cast``'s)."""
from __future__ import annotations

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define, scalar_cost
from ..core.errors import error
from .addressing import issue
from .enums import RoundMode

_U64 = (1 << 64) - 1


def _int(name, v):
    if isinstance(v, bool) or not isinstance(v, int):
        try:
            v = int(v)
        except (TypeError, ValueError):
            raise error(TypeError, f"{name}: value_in must be an integer, got {v!r}",
                        "pass an int (or a value read with get_value)") from None
    return v


def _count_value(count_value):
    """``count_value``: which bit value to look for, a compile-time 0 or 1."""
    if not isinstance(count_value, int) or isinstance(count_value, bool):
        raise error(TypeError, "count_value must be a Python int (compile-time constant).", "pass 0 or 1")
    if count_value not in (0, 1):
        raise error(ValueError, f"count_value must be 0 or 1 (count_value={count_value})", "pass 0 or 1")
    return count_value


def scalar_get_sff_value(value_in, count_value):
    """The position (from bit 0) of the first bit equal to ``count_value`` (0 or 1) in a uint64, or -1."""
    count_value = _count_value(count_value)
    v = _int("scalar_get_sff_value", value_in) & _U64
    if count_value == 0:
        v = ~v & _U64
    return (v & -v).bit_length() - 1 if v else -1


def scalar_get_count_of_value(value_in, count_value):
    """How many bits of a uint64 equal ``count_value`` (0 or 1)."""
    count_value = _count_value(count_value)
    ones = bin(_int("scalar_get_count_of_value", value_in) & _U64).count("1")
    return ones if count_value == 1 else 64 - ones


def scalar_count_leading_zero(value_in):
    """Leading zero bits of a uint64 (64 for 0)."""
    return 64 - (_int("scalar_count_leading_zero", value_in) & _U64).bit_length()


def count_bits_cnt_same_as_sign_bit(value_in):
    """Consecutive bits below the sign bit of an int64 equal to it; -1 for 0 and -1 (every bit the same)."""
    v = _int("count_bits_cnt_same_as_sign_bit", value_in) & _U64
    if v in (0, _U64):
        return -1
    if v >> 63:
        v = ~v & _U64
    return 63 - v.bit_length()


def scalar_cast(value_in, dtype, round_mode):
    """``scalar_cast(value, asc.int32 | asc.float16, round_mode)``: a float rounded as ``cast`` rounds."""
    if str(dtype) not in ("int32", "float16"):
        raise error(TypeError, f"Unsupported target dtype: {dtype}", "scalar_cast converts to asc.int32 or asc.float16")
    try:
        mode = RoundMode(int(round_mode))
    except (TypeError, ValueError):
        raise error(ValueError, f"scalar_cast: round_mode {round_mode!r} is not a RoundMode",
                    "pass asc.RoundMode.CAST_RINT (or FLOOR, CEIL, ROUND, TRUNC)") from None
    return issue(PipeOp("scalar_cast", "S", attrs={"value": float(value_in), "dtype": str(dtype),
                                                   "round": mode.name}, loc=user_loc()))


define("v1.scalar_cast", cost=scalar_cost)

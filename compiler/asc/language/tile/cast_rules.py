"""Which conversions pyasc-dev's compiler lowers (August dialect), and with which rounding.

Its front end takes any ``.to(dtype)``; its pass pipeline then refuses the pairs the vector unit has no
conversion for ("'asctile.cast' op from 'f32' to 'i8' is not supported") and a rounding mode the pair does
not take ("round_mode floor is not supported for cast from 'f16' to 'f32'"), on Ascend950PR_9599 and
Ascend910B1 alike. The tables are what that pipeline accepts, pair by pair and mode by mode
(``conformance-compile`` checks them against it).

Its canonicaliser first folds a narrowing conversion into a widening one that reads it (``x.to(int8)
.to(int16)`` of a float32 tile becomes ``x.to(int16)``; ``.to(int16).to(int8)``, ``.to(float16).to(int8)``
and ``.to(float16).to(float32)`` of an int8 tile stay two): a conversion all of whose uses fold away is
never lowered, and a folded one is checked as the pair it became (``cast_fault``). The values are this
engine's step by step."""
from __future__ import annotations

_SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "int8": "i8", "int16": "i16", "int32": "i32",
          "int64": "i64"}

# exact conversions: the default or NoRound only
EXACT = {("bfloat16", "float32"), ("float16", "float32"), ("float32", "float16"), ("int16", "float32"),
         ("int16", "int32"), ("int32", "int16"), ("int32", "int64"), ("int64", "int32"), ("int8", "float16"),
         ("int8", "int16"), ("int8", "int32")}
# rounding conversions: the default, Rint, Floor, Ceil, Round or Trunc
ROUNDING = {("bfloat16", "float16"), ("bfloat16", "int32"), ("float16", "bfloat16"), ("float16", "int16"),
            ("float16", "int32"), ("float16", "int8"), ("float32", "bfloat16"), ("float32", "float16"),
            ("float32", "int16"), ("float32", "int32"), ("float32", "int64"), ("int16", "float16"),
            ("int32", "float16"), ("int32", "float32"), ("int64", "float32")}
SUPPORTED = EXACT | ROUNDING
_ODD = {("float32", "float16")}
_DIRECTED = ("Rint", "Floor", "Ceil", "Round", "Trunc")


def _narrows_then_widens(src_bits, mid_bits, dst_bits):
    return mid_bits < src_bits and dst_bits > mid_bits


def _two_steps(src, dst):
    """A dtype to convert through, both steps supported and not folded into one (None when there is none)."""
    from ..core import dtype as dt
    for mid in ("float16", "float32", "int16", "int32", "bfloat16", "int8", "int64"):
        if (src, mid) in SUPPORTED and (mid, dst) in SUPPORTED and not _narrows_then_widens(
                *(_bits(dt.DataType(n)) for n in (src, mid, dst))):
            return mid
    return None


def _bits(dtype):
    return getattr(dtype, "bitwidth", 0) or 0


def cast_fault(fn, uses):
    """The first UB conversion of the traced function ``fn`` pyasc-dev's compiler refuses, after folding
    (module docstring), as (op, message, hint), else None; ``uses``: value id -> the ops reading it."""
    def folds(outer, inner):
        return inner.name == "tile.cast" and _narrows_then_widens(
            _bits(inner.operands[0].type.dtype), _bits(inner.result.type.dtype), _bits(outer.result.type.dtype))

    def source(op):
        inner = op.operands[0].owner
        return source(inner) if inner is not None and folds(op, inner) else op.operands[0].type.dtype

    for op in fn.walk():
        if op.name != "tile.cast" or op.result.type.location.name != "UB":
            continue
        users = uses.get(op.result.id, [])
        if users and all(u.name == "tile.cast" and folds(u, op) for u in users):
            continue   # folded into each of its uses
        src, dst = source(op), op.result.type.dtype
        if str(src) == str(dst):
            continue
        refused = refusal(src, dst, op.attrs.get("round_mode"))
        if refused is not None:
            return (op,) + refused
    return None


def refusal(src, dst, mode):
    """pyasc-dev's compiler error (message, hint) for a conversion (``mode``: a RoundMode name or None), or
    None when it lowers it."""
    pair = (str(src), str(dst))
    if pair[0] not in _SHORT or pair[1] not in _SHORT:
        return None
    s, d = _SHORT[pair[0]], _SHORT[pair[1]]
    if pair not in SUPPORTED:
        mid = _two_steps(*pair)
        via = f": e.g. .to(@{mid}).to(@{pair[1]}), if {mid} holds the values" if mid else ""
        return (f"'asctile.cast' op from '{s}' to '{d}' is not supported",
                f"the vector unit has no direct {pair[0]} -> {pair[1]} conversion; convert in two steps{via}")
    allowed = (["NoRound"] if pair in EXACT else []) + (list(_DIRECTED) if pair in ROUNDING else []) + \
        (["Odd"] if pair in _ODD else [])
    if mode is not None and mode not in allowed:
        return (f"round_mode {mode.lower()} is not supported for cast from '{s}' to '{d}'",
                f"this conversion takes {', '.join('@RoundMode.' + m for m in allowed)} (or none: the default "
                "rounding)")
    return None

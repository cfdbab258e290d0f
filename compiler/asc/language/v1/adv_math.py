"""``asc.adv`` math (Ascend C's advanced math APIs): ``acos ... trunc``, ``exp`` (with a Taylor level),
``power``, ``xor`` and the precise ``axpy``; each one vector instruction sequence on V over ``count``
elements (default: the source's size) of UB tensors.

Accuracy contract: each function is computed in float64 and rounded once to the output type (the device's
polynomial sequences are within the tolerance Ascend C states, which this reference meets exactly); outside a
function's domain the result is NaN (acos / asin of |x| > 1, log / acosh / atanh outside theirs), poles give
inf. ``round`` rounds half to even (Ascend C casts with CAST_RINT); ``frac(x) = x - trunc(x)``; ``sign`` gives
-1, 0 or 1 (NaN stays NaN); ``lgamma`` is log|gamma(x)|; ``exp(..., taylor_expand_level=L)`` with L > 0 is
Ascend C's expansion e^floor(x) * sum_{i<=L} f^i / i! of f = x - floor(x), so a low level shows its error;
``power`` of int32 is exact integer powers (wrapping at 32 bits; a negative exponent gives 1 / base truncated:
0 unless |base| = 1); ``xor`` is bitwise on int16 / uint16; ``axpy`` is Muls then Add, each rounded to its
type (the precise form Ascend C describes). Operands may not overlap (Ascend C's constraint), nor the
``temp_buffer`` either of them."""
from __future__ import annotations

import math

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .tensors import LocalTensor, _block, scalar_fits

_FLOAT = ("float16", "float32")
# name -> (element weight kind for the cost, accepted dtypes)
UNARY = {"acos": ("tan", _FLOAT), "acosh": ("log", _FLOAT), "asin": ("tan", _FLOAT), "asinh": ("log", _FLOAT),
         "atan": ("tan", _FLOAT), "atanh": ("log", _FLOAT), "ceil": (None, _FLOAT), "cos": ("cos", _FLOAT),
         "cosh": ("cosh", _FLOAT), "digamma": ("erf", _FLOAT), "erf": ("erf", _FLOAT), "erfc": ("erf", _FLOAT),
         "floor": (None, _FLOAT), "frac": (None, _FLOAT), "lgamma": ("erf", _FLOAT), "log": ("log", _FLOAT),
         "round": (None, _FLOAT), "sign": (None, _FLOAT), "sin": ("sin", _FLOAT), "sinh": ("sinh", _FLOAT),
         "tan": ("tan", _FLOAT), "tanh": ("tanh", _FLOAT), "trunc": (None, _FLOAT)}
UB = ("VECIN", "VECOUT", "VECCALC")


def _local(name, role, t):
    if not isinstance(t, LocalTensor) or t.position not in UB:
        raise error(TypeError, f"asc.adv.{name}: {role} must be a LocalTensor at VECIN / VECOUT / VECCALC, got "
                    f"{getattr(t, 'position', type(t).__name__)}", "pass UB tensors (TQue / TBuf buffers)")


def _overlap(a, b):
    return a.space == b.space and a.addr < b.addr + b.get_length() and b.addr < a.addr + a.get_length()


def issue(name, dst, srcs, count, temp_buffer, dtypes, attrs=None, weight=None):
    """Check the operands of an adv elementwise call and issue it (``adv_math`` on V)."""
    _local(name, "dst", dst)
    for s in srcs:
        _local(name, "src", s)
        if str(s.dtype) != str(dst.dtype):
            raise error(TypeError, f"asc.adv.{name}: src is {s.dtype} and dst {dst.dtype}",
                        "the source's data type must be the destination's")
    if str(dst.dtype) not in dtypes:
        raise error(TypeError, f"asc.adv.{name} takes {' / '.join(dtypes)}, got {dst.dtype}",
                    f"cast to {dtypes[0]} first")
    n = min([dst.size] + [s.size for s in srcs]) if count is None else int(count)
    if n < 0 or n > dst.size or any(n > s.size for s in srcs):
        raise error(ValueError, f"asc.adv.{name}: count {n} exceeds an operand ({dst.size} elements in dst, "
                    f"{', '.join(str(s.size) for s in srcs)} in src)", "pass count <= every operand's size")
    for s in srcs:
        if _overlap(s, dst):
            raise error(ValueError, f"asc.adv.{name}: src ({s.owner}) and dst ({dst.owner}) overlap",
                        "Ascend C does not support overlapping source and destination here: use another buffer")
    writes = (dst.region(0, n),)
    if temp_buffer is not None:
        _local(name, "temp_buffer", temp_buffer)
        if any(_overlap(temp_buffer, t) for t in srcs + (dst,)):
            raise error(ValueError, f"asc.adv.{name}: temp_buffer overlaps an operand",
                        "give the temporary buffer its own memory")
        writes += (temp_buffer.region(0, temp_buffer.size),)
    a = {"fn": name, "dst": dst, "srcs": list(srcs), "count": n, "weight": weight}
    a.update(attrs or {})
    _block().issue(PipeOp("adv_math", "V", tuple(s.region(0, n) for s in srcs), writes, a, user_loc()))


def _unary(name):
    weight, dtypes = UNARY[name]

    def fn(dst, src, count=None, temp_buffer=None, is_reuse_source=False):
        issue(name, dst, (src,), count, temp_buffer, dtypes, weight=weight)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``asc.adv.{name}(dst, src, count=None, temp_buffer=None, is_reuse_source=False)``: element-wise " \
                 f"{name} (module docstring: accuracy)."
    return fn


for _n in UNARY:
    globals()[_n] = _unary(_n)


def exp(dst, src, count, taylor_expand_level=0, temp_buffer=None, is_reuse_source=False):
    """``asc.adv.exp(dst, src, count, taylor_expand_level)``: e^x; a level L > 0 uses the Taylor expansion of
    the fractional part (module docstring)."""
    level = int(taylor_expand_level)
    if not 0 <= level <= 255:
        raise error(ValueError, f"asc.adv.exp: taylor_expand_level {level} is outside [0, 255] (a uint8)")
    issue("exp", dst, (src,), count, temp_buffer, _FLOAT, {"level": level}, weight="exp")


def power(dst, src0, src1, count=None, temp_buffer=None, is_reuse_source=False):
    """``asc.adv.power(dst, src0, src1)``: src0 ** src1 element-wise (half / float / int32)."""
    issue("power", dst, (src0, src1), count, temp_buffer, _FLOAT + ("int32",), weight="log")


def xor(dst, src0, src1, count=None, temp_buffer=None, is_reuse_source=False):
    """``asc.adv.xor(dst, src0, src1)``: bitwise exclusive or (int16 / uint16)."""
    issue("xor", dst, (src0, src1), count, temp_buffer, ("int16", "uint16"))


def axpy(dst, src, scalar, count=None, temp_buffer=None, is_reuse_source=False):
    """``asc.adv.axpy(dst, src, scalar)``: dst = dst + src * scalar, as Muls then Add (each rounded)."""
    scalar_fits("asc.adv.axpy", scalar, src.dtype)
    _local("axpy", "dst", dst)
    _local("axpy", "src", src)
    pair = (str(dst.dtype), str(src.dtype))
    if pair not in (("float16", "float16"), ("float32", "float32"), ("float32", "float16")):
        raise error(TypeError, f"asc.adv.axpy takes half / float (dst float with src half also), got dst {pair[0]} "
                    f"and src {pair[1]}", "declare the tensors as half or float")
    n = min(dst.size, src.size) if count is None else int(count)
    if n > min(dst.size, src.size):
        raise error(ValueError, f"asc.adv.axpy: count {n} exceeds an operand ({dst.size} / {src.size} elements)")
    writes = (dst.region(0, n),)
    if temp_buffer is not None:
        writes += (temp_buffer.region(0, temp_buffer.size),)
    _block().issue(PipeOp("adv_math", "V", (src.region(0, n), dst.region(0, n)), writes,
                          {"fn": "axpy", "dst": dst, "srcs": [src], "count": n, "scalar": scalar, "weight": None},
                          user_loc()))


def _cost(op, hw):
    a = op.attrs
    repeats = math.ceil(a["count"] * a["dst"].itemsize / hw.vector_bytes)
    return ("V", hw.vector_busy(max(1, repeats), a["weight"]))


define("v1.adv_math", cost=_cost)

NAMES = tuple(UNARY) + ("exp", "power", "xor", "axpy")

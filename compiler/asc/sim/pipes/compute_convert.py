"""Element math of v1 conversions: rounding a value to a narrower float or to an integer by a RoundMode,
integers saturating (NaN to 0)."""
from __future__ import annotations

import numpy as np

from .impls import elements, impl, operands


def _bits_of(dtype):
    return {2: np.uint16, 4: np.uint32}[np.dtype(dtype).itemsize]


def _neighbours(x64, r):
    """The representable values of ``r``'s type just below and above ``x64`` (``r``: nearest-even of x)."""
    uint = _bits_of(r.dtype)
    bits = r.view(uint).astype(np.int64)
    back = r.astype(np.float64)
    up = np.where(back >= 0, bits + 1, bits - 1)
    down = np.where(back > 0, bits - 1, bits + 1)
    zero_down = (back == 0)       # below +-0: the smallest negative subnormal
    down = np.where(zero_down, (1 << (8 * r.dtype.itemsize - 1)) + 1, down)
    step_up = np.where(back < x64, up, bits).astype(uint).view(r.dtype)
    step_dn = np.where(back > x64, down, bits).astype(uint).view(r.dtype)
    lo = np.where(back > x64, step_dn, r)
    hi = np.where(back < x64, step_up, r)
    return lo, hi


def round_float(x, dtype, mode):
    """``x`` (an integer or a wider float) to the float ``dtype`` (half, bfloat16, float32) by ``mode``."""
    r = x.astype(dtype)
    if mode in ("CAST_RINT", "CAST_NONE"):
        return r
    x64 = x.astype(np.float64)
    exact = (r.astype(np.float64) == x64) | ~np.isfinite(x64)
    lo, hi = _neighbours(x64, r)
    if mode == "CAST_FLOOR":
        out = lo
    elif mode == "CAST_CEIL":
        out = hi
    elif mode == "CAST_TRUNC":
        out = np.where(x64 > 0, lo, hi)
    elif mode == "CAST_ROUND":
        top = 2.0 ** _finfo(dtype).maxexp          # where the next value past the largest would be (IEEE's inf)
        lo64, hi64 = (np.where(np.isinf(v), np.copysign(top, v), v) for v in (lo.astype(np.float64),
                                                                             hi.astype(np.float64)))
        dl, dh = x64 - lo64, hi64 - x64
        out = np.where(dl < dh, lo, np.where(dh < dl, hi, np.where(x64 > 0, hi, lo)))
    else:       # CAST_ODD: the neighbour whose last mantissa bit is 1
        out = np.where(lo.view(_bits_of(dtype)) & 1, lo, hi)
    return np.where(exact, r, out)


def _finfo(dtype):
    import ml_dtypes
    return ml_dtypes.finfo(dtype)


_INT_ROUND = {"CAST_RINT": np.rint, "CAST_NONE": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil,
              "CAST_TRUNC": np.trunc, "CAST_ROUND": lambda v: np.trunc(v + np.copysign(0.5, v))}


def convert(x, dtype, mode):
    """``x`` converted to ``dtype`` as Cast does."""
    dtype = np.dtype(dtype)
    with np.errstate(all="ignore"):
        if x.dtype.kind == "f" and dtype.kind in "iu":
            v = _INT_ROUND[mode](x.astype(np.float64))
            info = np.iinfo(dtype)
            v = np.where(np.isnan(v), 0, np.clip(v, info.min, info.max))
            return v.astype(dtype)
        if x.dtype.kind in "iu" and dtype.kind in "iu":
            info = np.iinfo(dtype)
            return np.clip(x.astype(np.int64), info.min, info.max).astype(dtype)
        if x.dtype == dtype:          # float32 -> float32: round to an integer value
            return _INT_ROUND[mode](x).astype(dtype)
        if dtype.itemsize == 2 and dtype.kind != "i" and x.dtype.itemsize > 2:
            return round_float(x, dtype, mode)
        if x.dtype.kind in "iu":      # an integer past the float's 2**mantissa rounds by the mode too
            return round_float(x, dtype, mode)
        return x.astype(dtype)


def dequantise(x, scale, offset, dtype):
    """``x * scale + offset`` (computed in float32) converted to ``dtype`` half-to-even, saturating."""
    v = x.astype(np.float32) * np.float32(scale) + np.float32(offset)
    return convert(v, dtype, "CAST_RINT")


@impl("cast", "cast_deq", pure=True)
def _cast(eng, op):
    a = op.attrs
    idx = a["idx"] or [None, None]
    if op.name == "cast_deq" and a["dst"].np_dtype.itemsize == 1:      # int16 -> int8: byte positions
        d, db = eng.byte_view(a["dst"])
        x, xi = elements(eng, a["srcs"][0], idx[1], a["count"])
        d[db + idx[0]] = dequantise(x[xi], a["scale"], a["offset"], a["dst"].np_dtype).view(np.uint8)
        return
    d, di = elements(eng, a["dst"], idx[0], a["count"])
    x, xi = elements(eng, a["srcs"][0], idx[1], a["count"])
    if "scale" in a:
        d[di] = dequantise(x[xi], a["scale"], a.get("offset", 0), d.dtype)
    else:
        d[di] = convert(x[xi], d.dtype, a["round"])


@impl("add_relu_cast", "sub_relu_cast", "mul_cast", "add_deq_relu", pure=True)
def _fused_cast(eng, op):
    a = op.attrs
    d, di, (u, v) = operands(eng, op)
    with np.errstate(all="ignore"):
        wide = np.float32 if u.dtype.kind == "f" else np.int32
        if op.name == "add_deq_relu":       # the int32 sum dequantised, then relu, in half
            d[di] = np.maximum(dequantise(u.astype(np.int64) + v, a["scale"], 0, d.dtype), d.dtype.type(0))
            return
        r = u.astype(wide) * v.astype(wide) if op.name == "mul_cast" else \
            u.astype(wide) + v.astype(wide) if op.name == "add_relu_cast" else u.astype(wide) - v.astype(wide)
        r = r.astype(u.dtype)                 # computed in the sources' type
        if op.name != "mul_cast":
            r = np.maximum(r, u.dtype.type(0))
    d[di] = convert(r, d.dtype, "CAST_RINT")


@impl("scalar_cast")
def _scalar_cast(eng, op):
    a = op.attrs
    v = convert(np.array([a["value"]], np.float32), np.dtype(a["dtype"]), a["round"])[0]
    return int(v) if v.dtype.kind == "i" else float(v)

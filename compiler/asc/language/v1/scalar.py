"""v1 tensor-scalar instructions: ``dst[i] = f(src[i], scalar)`` over the shared addressing: ``adds muls maxs
mins leaky_relu``, ``shift_left shift_right``, ``axpy`` (``dst += src * scalar``, a float destination may take a
half source) and ``duplicate`` (``dst[i] = scalar``)."""
from __future__ import annotations

from ...ir.registry import define
from ..core.errors import error
from .addressing import Form, dtypes_in, one_type, parse_form, vector_cost, vector_op
from .params import UnaryRepeatParams
from .tensors import scalar_fits, scalar_operand as _operand

_SHIFT = ("int16", "uint16", "int32", "uint32")
_USAGE = "{0}(dst, src, scalar, count) or {0}(dst, src, scalar, mask, repeat_times, repeat_params)"


def _scalar(name):
    def op(dst, src, scalar, *args, **kwargs):
        # the call's form first: a call no overload takes is that mistake, whatever its values
        form = parse_form(name, args, kwargs, UnaryRepeatParams, _USAGE.format(name), params_required=True)
        scalar = _operand(scalar, src.dtype)
        scalar_fits(name, scalar, src.dtype)
        if name in ("shift_left", "shift_right"):
            dtypes_in(name, _SHIFT, dst=dst, src=src)
            if not 0 <= int(scalar) < 8 * src.itemsize:
                raise error(ValueError, f"{name}: shifting {src.dtype} by {int(scalar)} bits is outside "
                            f"[0, {8 * src.itemsize - 1}]", f"shift by 0 .. {8 * src.itemsize - 1} bits")
        if name == "axpy":      # Axpy alone takes a wider destination (float += half * scalar)
            dtypes_in(name, {"dst": ("float16", "float32"), "src": ("float16", "float32")}, dst=dst, src=src)
            if dst.itemsize < src.itemsize:
                raise error(TypeError, f"axpy: a {dst.dtype} destination cannot take a {src.dtype} source",
                            "use a float32 destination, or sources of the destination's dtype")
        else:
            one_type(name, dst, src)
        vector_op(name, dst, (src,), form, scalar=scalar, reads_dst=name == "axpy")
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src, scalar, count)`` or its mask forms (UnaryRepeatParams)."
    return op


adds, muls, leaky_relu, maxs, mins, axpy, shift_left, shift_right = (
    _scalar(n) for n in ("adds", "muls", "leaky_relu", "maxs", "mins", "axpy", "shift_left", "shift_right"))


def duplicate(dst, scalar, *args, **kwargs):
    """``duplicate(dst, scalar, count)`` or ``(dst, scalar, mask, repeat_times, dst_block_stride,
    dst_repeat_stride[, is_set_mask])``."""
    scalar = _operand(scalar, dst.dtype)
    scalar_fits("duplicate", scalar, dst.dtype)
    if len(args) >= 2 or "repeat_times" in kwargs or "mask" in kwargs:
        a = list(args)
        f = Form(None, kwargs.pop("mask", a.pop(0) if a else None), kwargs.pop("repeat_times", a.pop(0) if a else None))
        bs = kwargs.pop("dst_block_stride", a.pop(0) if a else 1)
        rs = kwargs.pop("dst_repeat_stride", a.pop(0) if a else 8)
        f.is_set_mask = kwargs.pop("is_set_mask", a.pop(0) if a else True)
        if a or kwargs:
            raise error(TypeError, f"duplicate: unexpected arguments {a or ''} {sorted(kwargs) or ''}".strip(),
                        "use duplicate(dst, scalar, count) or duplicate(dst, scalar, mask, repeat_times, "
                        "dst_block_stride, dst_repeat_stride)")
        for what, v in (("dst_block_stride", bs), ("dst_repeat_stride", rs)):
            if not 0 <= int(v) <= 255:
                raise error(ValueError, f"duplicate: {what} = {int(v)} is outside [0, 255] (the instruction's field)",
                            f"keep {what} within [0, 255] (strides count 32-byte blocks)")
        f.repeat_params = (int(bs), int(rs))
    else:
        f = parse_form("duplicate", args, kwargs, usage="duplicate(dst, scalar, count)")
    vector_op("duplicate", dst, (), f, scalar=scalar)


for _name in ("adds", "muls", "leaky_relu", "maxs", "mins", "axpy", "shift_left", "shift_right", "duplicate"):
    define("v1." + _name, cost=vector_cost())

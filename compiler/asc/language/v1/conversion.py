"""v1 conversions: ``cast(dst, src, round_mode, ...)`` between the element types Ascend C's Cast converts,
with its rounding modes (CAST_NONE: exact where the conversion is exact, else as CAST_RINT; RINT: half to
even; FLOOR; CEIL; ROUND: half away from zero; TRUNC; ODD: round to odd), integers saturating; and the fused
``add_relu_cast`` / ``sub_relu_cast`` / ``mul_cast`` (computed in the source type, then converted with
CAST_RINT); the dequantising ``cast_deq``, ``add_deq_relu`` and int32 -> half ``cast`` scale by the block's
DEQSCALE register (``set_deq_scale``). Each operand is addressed with its own element size; a repeat holds
256 bytes of the wider one.
Element math in ``sim/pipes/compute_convert.py``."""
from __future__ import annotations

import weakref

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import dtypes_in, operand_regions, param_strides, parse_form, resolve, vector_cost, vector_op
from .addressing import aligned, issue, local, regions, repeat_indices
from .enums import RoundMode
from .params import BinaryRepeatParams, UnaryRepeatParams
from .tensors import LocalTensor, _block

# (src, dst) pairs Cast converts (Ascend C's Cast table for the vector units of both platforms)
PAIRS = {
    "float16": ("float32", "int32", "int16", "int8", "uint8"),
    "float32": ("float16", "bfloat16", "int32", "int16", "int64", "float32"),
    "bfloat16": ("float32", "int32"),
    "int32": ("float32", "float16", "int16", "int64"),     # to half: scaled by the DEQSCALE register
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
    # the call's form first: upstream's dispatcher refuses a form it has no overload for before anything else
    f = parse_form("cast", args, kwargs, UnaryRepeatParams,
                   "cast(dst, src, round_mode, count) or cast(dst, src, round_mode, mask, repeat_times, repeat_params)",
                   params_required=True)
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
    extra = {"round": mode.name}
    if (s, d) == ("int32", "float16"):
        extra["scale"] = _deq()[0]
    vector_op("cast", dst, (src,), f, extra=extra)


# -- the DEQSCALE register: scale, offset and sign mode of the dequantising conversions ------------------------
_DEQ = weakref.WeakKeyDictionary()


def _deq():
    return _DEQ.get(_block(), (1.0, 0, True))


def set_deq_scale(*args, **kwargs):
    """``set_deq_scale(scale)`` or ``set_deq_scale(scale, offset, sign_mode)``: the DEQSCALE register the
    int32 -> half ``cast``, ``cast_deq`` and ``add_deq_relu`` scale by (``offset``: its low 9 bits, signed).
    ``set_deq_scale(vdeq, vdeq_info)``: the 16 (scale, offset, sign) groups ``cast_deq(..., is_vec_deq=True)``
    reads, held in ``vdeq``, a 128-byte vector-unit tensor."""
    if args and isinstance(args[0], LocalTensor) or "vdeq" in kwargs:
        return _set_vdeq(*args, **kwargs)
    names = ("scale", "offset", "sign_mode")
    vals = list(args) + [kwargs.pop(n) for n in names[len(args):] if n in kwargs]
    if kwargs:
        raise error(TypeError, f"set_deq_scale got unexpected arguments {', '.join(sorted(kwargs))}",
                    "call set_deq_scale(scale[, offset, sign_mode]) or set_deq_scale(vdeq, vdeq_info)")
    if len(vals) not in (1, 3):
        raise error(TypeError, f"set_deq_scale takes (scale) or (scale, offset, sign_mode), got {len(vals)} values",
                    "call set_deq_scale(scale) or set_deq_scale(scale, offset, sign_mode)")
    scale = float(vals[0])
    offset, sign = (int(vals[1]), bool(vals[2])) if len(vals) == 3 else (0, True)
    _DEQ[_block()] = (scale, _offset_bits(offset), sign)


def _offset_bits(offset):
    return ((offset & 0x1FF) ^ 0x100) - 0x100          # the field's 9 bits, signed


_VDEQ = weakref.WeakKeyDictionary()


def _set_vdeq(vdeq=None, vdeq_info=None):
    from .params import VdeqInfo
    if not isinstance(vdeq, LocalTensor) or not isinstance(vdeq_info, VdeqInfo):
        raise error(TypeError, "set_deq_scale(vdeq, vdeq_info) takes a LocalTensor and an asc.VdeqInfo",
                    "build the groups with asc.VdeqInfo(scales, offsets, sign_modes) (16 of each)")
    local("set_deq_scale", vdeq)
    if vdeq.position not in ("VECIN", "VECCALC", "VECOUT"):
        raise error(ValueError, f"set_deq_scale: the vdeq tensor is in {vdeq.position}, not a vector-unit "
                    "position", "allocate it in VECIN, VECCALC or VECOUT")
    aligned("set_deq_scale", vdeq)
    nbytes = vdeq.size * vdeq.itemsize
    if nbytes < 128:
        raise error(ValueError, f"set_deq_scale: the vdeq tensor holds {nbytes} bytes; the 16 groups "
                    "take 128", "give it 16 uint64 elements (128 bytes)")
    _VDEQ[_block()] = (np.array(vdeq_info.scale, np.float32),
                       np.array([_offset_bits(o) for o in vdeq_info.offset], np.float32))


def cast_deq(dst, src, *args, **kwargs):
    """``cast_deq(dst, src, count | mask, repeat_times, repeat_params[, is_set_mask], is_vec_deq=, half_block=)``:
    int16 -> int8 / uint8 as ``src * scale + offset`` (saturating; the 16 results of each source block in the
    lower half of the destination block with ``half_block``, else the upper half), int32 -> half as
    ``src * scale``, with the DEQSCALE register's values; with ``is_vec_deq`` (the default) an int16 source's
    element e of each 32-byte block takes group e of the 16 set by ``set_deq_scale(vdeq, vdeq_info)``."""
    name = "cast_deq"
    is_vec = kwargs.pop("is_vec_deq", True)
    half_block = bool(kwargs.pop("half_block", True))
    f = parse_form(name, args, kwargs, UnaryRepeatParams, "cast_deq(dst, src, count, is_vec_deq=False)")
    s, d = str(src.dtype), str(dst.dtype)
    if (s, d) not in (("int16", "int8"), ("int16", "uint8"), ("int32", "float16")):
        raise error(TypeError, f"cast_deq converts int16 to int8 / uint8 or int32 to half, not {s} to {d}",
                    "declare the tensors with one of those pairs")
    scale, offset, _ = _deq()     # the sign mode is the destination's type here
    if is_vec and s == "int32":
        raise error(ValueError, "cast_deq with is_vec_deq=True on an int32 source is not supported by this engine "
                    "(the docstrings give only the int16 groups' formula)",
                    "pass is_vec_deq=False and set the scale with set_deq_scale(scale)")
    if is_vec and s == "int16":   # each source block's element e takes group e of the vdeq tensor
        groups = _VDEQ.get(_block())
        if groups is None:
            raise error(ValueError, "cast_deq with is_vec_deq=True (its default) reads the 16 groups set by "
                        "set_deq_scale(vdeq, vdeq_info), and none was set in this block",
                        "call set_deq_scale(vdeq, asc.VdeqInfo(...)) first, or pass is_vec_deq=False to use "
                        "set_deq_scale(scale, offset, sign_mode)")
        scale, offset = groups
    if s == "int32":
        vector_op(name, dst, (src,), f, extra={"scale": scale, "offset": 0, "round": "CAST_RINT"})
        return
    local(name, dst, src)
    aligned(name, dst, src)
    strides = param_strides(f.repeat_params, 2) if f.count is None else [(1, 8), (1, 8)]
    a = resolve(name, f, [src], strides[1:], 2)
    s_idx = a.idx[0] if a.idx is not None else None
    pos = np.arange(a.count) if a.idx is None or a.form == "counter" else \
        repeat_indices(a.active, a.rep_count, 1, 8, 2)
    r, b, e = pos // 128, pos % 128 // 16, pos % 16          # repeat, block and element of each result
    (dbs, drs) = strides[0]
    d_idx = (r * drs + b * dbs) * 32 + (0 if half_block else 16) + e    # bytes of the int8 destination
    if isinstance(scale, np.ndarray):
        scale, offset = scale[e], offset[e]
    issue(PipeOp(name, "V", tuple(operand_regions(src, s_idx, a.count)), tuple(regions(dst, d_idx)) if a.count
                 else (), {"dst": dst, "srcs": [src], "idx": [d_idx, s_idx], "count": a.count, "scale": scale,
                           "offset": offset, "round": "CAST_RINT", "repeats": a.repeats, "form": "mask"},
                 user_loc()))


_FUSED = {"add_deq_relu": {"int32": ("float16",)},
          "add_relu_cast": {"float32": ("float16",), "float16": ("int8",), "int16": ("int8",)},
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
        extra = {"round": "CAST_RINT"}
        if name == "add_deq_relu":
            extra["scale"] = _deq()[0]
        vector_op(name, dst, (src0, src1), f, extra=extra)
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src0, src1, count)`` or its mask forms: computed in the sources' type, then cast."
    return op


add_deq_relu, add_relu_cast, sub_relu_cast, mul_cast = (_fused(n) for n in _FUSED)

define("v1.cast", cost=vector_cost())
define("v1.cast_deq", cost=vector_cost())
for _name in _FUSED:
    define("v1." + _name, cost=vector_cost())

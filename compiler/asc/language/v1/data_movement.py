"""v1 data movement: ``data_copy`` (GM -> local on MTE2, local -> GM on MTE3, UB -> UB on V),
``data_copy_pad`` (rows of any byte length, padded on the local side), ``copy`` (UB -> UB on the vector unit
with a mask and strides), and the atomic modes (``set_atomic_add / max / min / type / none``) that make
later local -> GM copies of the block accumulate into GM. Element math in ``sim/pipes/compute.py`` and
``compute_move.py``."""
from __future__ import annotations

import math
import weakref

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import aligned as _aligned, field_range as _field_range, issue as _issue, one_type as _one_type
from .addressing import dtypes_in, parse_form, vector_cost, vector_op
from .addressing import whole as _whole
from .params import (DATA_COPY_FORMS, CopyRepeatParams, DataCopyEnhancedParams, DataCopyExtParams,
                     DataCopyPadExtParams, DataCopyPadParams, DataCopyParams)
from .tensors import GlobalTensor, LocalTensor, _block, scalar_fits

# -- the atomic modes: what a block's local -> GM copies do with the GM values they meet ---------------------
_ATOMIC = weakref.WeakKeyDictionary()      # block -> [op or None, dtype or None]
_ATOMIC_TYPES = ("float16", "float32", "int16", "int32", "int8", "bfloat16")


def _atomic_state():
    blk = _block()
    st = _ATOMIC.get(blk)
    if st is None:
        st = _ATOMIC[blk] = [None, None]
    return st


def _set_atomic(kind, dtype):
    st = _atomic_state()
    if dtype is not None:
        if str(dtype) not in _ATOMIC_TYPES:
            raise error(TypeError, f"set_atomic_{kind or 'type'}: {dtype} is not an atomic type",
                        f"use one of {', '.join(_ATOMIC_TYPES)}")
        st[1] = dtype
    if kind is not False:
        st[0] = kind


def set_atomic_add(dtype=None):
    """``set_atomic_add([dtype])``: later local -> GM copies add into GM (in ``dtype``, else the copy's)."""
    _set_atomic("add", dtype)


def set_atomic_max(dtype=None):
    """``set_atomic_max([dtype])``: later local -> GM copies keep the larger of GM and the data."""
    _set_atomic("max", dtype)


def set_atomic_min(dtype=None):
    """``set_atomic_min([dtype])``: later local -> GM copies keep the smaller of GM and the data."""
    _set_atomic("min", dtype)


def set_atomic_type(dtype=None):
    """``set_atomic_type(dtype)``: the element type of the atomic operation."""
    _set_atomic(False, dtype)


def set_atomic_none():
    """``set_atomic_none()``: later copies overwrite GM again."""
    _ATOMIC[_block()] = [None, None]


_ATOMIC_DTYPES = (None, "float32", "float16", "int16", "int32", "int8", "bfloat16")   # AtomicDtype's order


def set_store_atomic_config(atomic_type, atomic_op):
    """``set_store_atomic_config(AtomicDtype, AtomicOp)``: the atomic mode as a (type, operation) pair
    (ATOMIC_NONE switches it off)."""
    t = int(atomic_type)
    if not 0 <= t < len(_ATOMIC_DTYPES):
        raise error(ValueError, f"set_store_atomic_config: atomic_type {atomic_type!r} is not an AtomicDtype",
                    "pass an asc.AtomicDtype")
    if int(atomic_op) != 0:
        raise error(ValueError, f"set_store_atomic_config: atomic_op {atomic_op!r} is not an AtomicOp",
                    "pass asc.AtomicOp.ATOMIC_SUM")
    from ..core import dtype as dt
    _ATOMIC[_block()] = [None, None] if t == 0 else ["add", getattr(dt, _ATOMIC_DTYPES[t])]


def get_store_atomic_config():
    """``(atomic_type, atomic_op)`` of the block's atomic mode (AtomicDtype and AtomicOp numbers)."""
    kind, dtype = _atomic_state()
    if kind is None:
        return 0, 0
    t = _ATOMIC_DTYPES.index(str(dtype)) if dtype is not None else 0
    return t, 0


def _atomic_of(dst, src):
    """The atomic operation a copy into ``dst`` does: None, or (op, dtype name)."""
    if not isinstance(dst, GlobalTensor):
        return None
    st = _ATOMIC.get(_block())       # (no state yet: no atomic mode was set)
    if st is None or st[0] is None:
        return None
    kind, dtype = st
    name = str(dtype) if dtype is not None else str(src.dtype)
    if name != str(src.dtype):
        raise error(TypeError, f"atomic {kind} of {name} on a copy of {src.dtype} data",
                    f"call set_atomic_{kind}({src.dtype}) or copy {name} data")
    return (kind, name)


def data_copy(dst, src, count=None, repeat_params=None, **kwargs):
    """``data_copy(dst, src, count)``: ``floor(count * sizeof / 32) * 32`` contiguous bytes;
    ``data_copy(dst, src, repeat_params=DataCopyParams(...))``: ``block_count`` runs of ``block_len`` 32-byte
    blocks, strides counting 32-byte gaps between runs. GM -> local on MTE2, local -> GM on MTE3, UB -> UB on V."""
    extra = kwargs.get("intri_params", count)
    form = DATA_COPY_FORMS.get(type(extra))     # forms of other modules (the cube's Nd2NzParams)
    if form is not None:
        return form(dst, src, extra)
    enhanced = kwargs.pop("enhanced_params", None)
    if isinstance(repeat_params, DataCopyEnhancedParams):     # data_copy(dst, src, params, enhanced)
        count, repeat_params, enhanced = None, count, repeat_params
    if enhanced is not None and enhanced != DataCopyEnhancedParams():
        from .names import not_supported
        raise not_supported("asc.data_copy with a DataCopyEnhancedParams other than the default (block modes, "
                            "dequantisation, relu, padding on the copy)")
    if kwargs:
        raise error(TypeError, f"data_copy: unsupported arguments {', '.join(sorted(kwargs))}",
                    "use data_copy(dst, src, count) or data_copy(dst, src, repeat_params=DataCopyParams(...))")
    if isinstance(count, DataCopyParams):
        count, repeat_params = None, count
    if count is not None and repeat_params is not None:
        raise error(TypeError, "data_copy takes a count or repeat_params, not both",
                    "use data_copy(dst, src, count) or data_copy(dst, src, repeat_params=DataCopyParams(...))")
    g_dst, g_src = isinstance(dst, GlobalTensor), isinstance(src, GlobalTensor)
    if g_dst and g_src:
        raise error(TypeError, "data_copy from GM to GM is not an instruction", "copy through a UB tensor")
    pipe = "MTE3" if g_dst else "MTE2" if g_src else "V"
    _aligned("data_copy", dst, src)
    _one_type("data_copy", dst, src)
    if repeat_params is None:
        if count is None:
            raise error(TypeError, "data_copy needs a count or repeat_params")
        nbytes = (_whole("data_copy", "count", count) * src.itemsize) // 32 * 32
        segs = [(0, 0, nbytes)] if nbytes else []
    else:
        p = repeat_params
        _field_range("DataCopyParams", p, (("block_count", 1, 4095), ("block_len", 1, 65535),
                                           ("src_stride", 0, 65535), ("dst_stride", 0, 65535)))
        segs = [(i * (p.block_len + p.src_stride) * 32, i * (p.block_len + p.dst_stride) * 32, p.block_len * 32)
                for i in range(int(p.block_count))]
    s_isz, d_isz = src.itemsize, dst.itemsize
    reads = tuple(src.region(a // s_isz, (a + n) // s_isz) for a, _, n in segs)
    writes = tuple(dst.region(b // d_isz, (b + n) // d_isz) for _, b, n in segs)
    attrs = {"dst": dst, "src": src, "segments": segs}
    atomic = _atomic_of(dst, src)
    if atomic:
        attrs["atomic"] = atomic
    _issue(PipeOp("data_copy", pipe, reads, writes, attrs, user_loc()))


_PAD_VALUE = weakref.WeakKeyDictionary()       # block -> {position name: value} set by set_pad_value


def set_pad_value(padding_value, pos=None):
    """``set_pad_value(value[, pos])``: the value ``data_copy_pad`` pads GM -> VECIN / VECOUT rows with when its
    pad parameters do not give one (``is_pad`` False); ``pos`` MAX (the default) sets both."""
    from .enums import TPosition
    try:
        p = TPosition.MAX if pos is None else TPosition(int(pos))
    except (TypeError, ValueError):
        p = None
    if p not in (TPosition.MAX, TPosition.VECIN, TPosition.VECOUT):
        raise error(ValueError, "set_pad_value(): pos must be one of [TPosition.MAX, TPosition.VECIN, "
                    "TPosition.VECOUT]", "pad VECIN or VECOUT rows (MAX: both)")
    values = _PAD_VALUE.setdefault(_block(), {})
    for name in (("VECIN", "VECOUT") if p == TPosition.MAX else (p.name,)):
        values[name] = padding_value


def _pad_params(p, dst):
    if p is None:
        return False, 0, 0, 0
    if isinstance(p, DataCopyPadParams) and p.is_pad and p.padding_value:
        raise error(ValueError, "DataCopyPadParams pads with 0 only", "use DataCopyPadExtParams for another value")
    if not p.is_pad:                                # the value set_pad_value gave this position, if any
        value = _PAD_VALUE.get(_block(), {}).get(getattr(dst, "position", ""))
        if value is not None:
            scalar_fits(f"data_copy_pad (the padding set_pad_value gave {dst.position})", value, dst.dtype)
        return value is not None, int(p.left_padding), int(p.right_padding), value
    scalar_fits("data_copy_pad (padding_value)", p.padding_value, dst.dtype)
    return True, int(p.left_padding), int(p.right_padding), p.padding_value


def data_copy_pad(dst, src, data_copy_params, pad_params=None, *args, **kwargs):
    """``data_copy_pad(dst, src, DataCopyExtParams | DataCopyParams[, pad_params])``: ``block_count`` rows of
    ``block_len`` bytes. GM -> local: GM rows ``src_stride`` bytes apart, each local row starting on a 32-byte
    block (``dst_stride`` blocks between rows) after ``left_padding`` elements and followed by
    ``right_padding`` ones (set to ``padding_value`` when ``is_pad``, else to ``set_pad_value``'s value for the
    position, else undefined); local -> GM: local rows
    on 32-byte blocks (``src_stride`` blocks between), GM rows exactly ``block_len`` bytes, ``dst_stride``
    bytes apart."""
    name = "data_copy_pad"
    if args or kwargs:
        raise error(TypeError, f"{name}: unexpected arguments {list(args) or ''} {sorted(kwargs) or ''}".strip(),
                    "use data_copy_pad(dst, src, data_copy_params[, pad_params])")
    p = data_copy_params
    g_dst, g_src = isinstance(dst, GlobalTensor), isinstance(src, GlobalTensor)
    if g_dst == g_src:
        raise error(TypeError, f"{name} moves between GM and a local tensor, got "
                    f"{type(dst).__name__} <- {type(src).__name__}",
                    "copy GM -> UB or UB -> GM (local -> local through GM is not modelled here)")
    _aligned(name, dst, src)
    _one_type(name, dst, src)
    ext = isinstance(p, DataCopyExtParams)
    big = (1 << 32) - 1 if ext else 65535
    _field_range(type(p).__name__, p, (("block_count", 1, 4095), ("block_len", 1, (1 << 21) - 1 if ext else 65535),
                                       ("src_stride", 0, big), ("dst_stride", 0, big)))
    if pad_params is not None and g_dst:
        raise error(TypeError, f"{name}: padding applies to GM -> local copies only",
                    "drop pad_params on a local -> GM copy")
    isz = src.itemsize
    n, rows = int(p.block_len), int(p.block_count)
    if n % isz:
        raise error(ValueError, f"{name}: block_len {n} bytes is not a whole number of {src.dtype} elements",
                    f"give block_len in bytes, a multiple of {isz}")
    is_pad, left, right, value = _pad_params(pad_params, dst)
    if max(left, right) * isz > 32:
        raise error(ValueError, f"{name}: padding of {max(left, right)} elements is {max(left, right) * isz} bytes, "
                    "more than 32", f"pad at most {32 // isz} elements of {src.dtype} on each side")
    segs, pads = [], []
    if g_src:
        row = -(-(left * isz + n + right * isz) // 32) * 32
        for i in range(rows):
            d0 = i * (row + int(p.dst_stride) * 32)
            segs.append((i * (n + int(p.src_stride)), d0 + left * isz, n))
            if is_pad and left:
                pads.append((d0, left * isz))
            if is_pad and right:
                pads.append((d0 + left * isz + n, right * isz))
        pipe = "MTE2"
    else:
        row = -(-n // 32) * 32
        segs = [(i * (row + int(p.src_stride) * 32), i * (n + int(p.dst_stride)), n) for i in range(rows)]
        pipe = "MTE3"
    reads = tuple(src.region(a // isz, (a + k) // isz) for a, _, k in segs)
    writes = tuple(dst.region(b // isz, (b + k) // isz) for _, b, k in segs) + \
        tuple(dst.region(b // isz, (b + k) // isz) for b, k in pads)
    attrs = {"dst": dst, "src": src, "segments": segs, "pads": pads, "value": value}
    atomic = _atomic_of(dst, src)
    if atomic:
        attrs["atomic"] = atomic
    _issue(PipeOp(name, pipe, reads, writes, attrs, user_loc()))


def copy(dst, src, *args, **kwargs):
    """``copy(dst, src, mask, repeat_time, CopyRepeatParams[, is_set_mask])``: UB -> UB on the vector unit,
    the mask's lanes of every repeat (blocks ``*_stride`` apart, repeats ``*_repeat_size`` blocks apart)."""
    name = "copy"
    for t in (dst, src):
        if not isinstance(t, LocalTensor):
            raise error(TypeError, f"{name} takes LocalTensor operands, got {type(t).__name__}",
                        "copy GM with data_copy")
    if "repeat_times" in kwargs:     # upstream's copy is a plain function of repeat_time
        raise error(TypeError, "copy() got an unexpected keyword argument 'repeat_times'",
                    "copy's parameter is repeat_time: copy(dst, src, mask, repeat_time, repeat_params)")
    if "repeat_time" in kwargs:
        kwargs["repeat_times"] = kwargs.pop("repeat_time")
    f = parse_form(name, args, kwargs, CopyRepeatParams,
                   "copy(dst, src, mask, repeat_time, CopyRepeatParams(...))", params_required=True)
    if f.count is not None:
        raise error(TypeError, "copy has no count form", "write copy(dst, src, mask, repeat_time, repeat_params)")
    dtypes_in(name, ("float16", "bfloat16", "int16", "uint16", "float32", "int32", "uint32"), dst=dst)
    _one_type(name, dst, src)
    p = f.repeat_params
    _field_range("CopyRepeatParams", p, [(k, 0, 65535) for k in p.__dataclass_fields__])
    f.repeat_params = [(int(p.dst_stride), int(p.dst_repeat_size)), (int(p.src_stride), int(p.src_repeat_size))]
    # Counter mode: the mask is each repeat's element count and repeat_time counts (copy's docstring)
    vector_op(name, dst, (src,), f, per_repeat_count=True)



def _copy_cost(op, hw):
    """One DMA of the copy's runs (``block_count`` runs of ``block_len`` blocks, or one run), or a UB -> UB move
    on the vector unit."""
    segs = op.attrs["segments"]
    runs, each = (len(segs), segs[0][2]) if segs else (1, 0)
    if op.pipe == "MTE2":
        return ("MTE2", hw.dma_busy(runs, each), hw.mte2_latency)
    if op.pipe == "MTE3":
        return ("MTE3", hw.dma_busy(runs, each, store=True), hw.mte3_latency)
    return ("V", hw.vector_busy(math.ceil(runs * each / hw.vector_bytes)))


define("v1.data_copy", cost=_copy_cost, dma=True)
define("v1.data_copy_pad", cost=_copy_cost, dma=True)
define("v1.copy", cost=vector_cost())

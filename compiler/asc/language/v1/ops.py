"""v1 instructions: data movement, synchronisation and vector compute. Each call builds one ``PipeOp``
(its pipe, the bytes it reads and writes, what it computes) and issues it to the block's engine."""
from __future__ import annotations

import numpy as np

import math

from ...ir.pipe_ops import PipeOp, current_block, user_loc
from ...ir.registry import define
from ..core.errors import error
from .enums import HardEvent, PipeID, event_pipes
from .params import DATA_COPY_FORMS, BinaryRepeatParams, DataCopyParams, UnaryRepeatParams
from .tensors import GlobalTensor, LocalTensor, _block, scalar_fits as _scalar_fits


def _issue(op):
    return _block().issue(op)


def _aligned(name, *tensors):
    """Instructions address on-chip operands in 32-byte blocks: a local operand must start on one."""
    for t in tensors:
        if t.space != "GM" and t.addr % 32:
            raise error(ValueError, f"{name}: the {t.space} operand starts at byte {t.addr}, which is not 32-byte "
                        f"aligned ({t.owner})", "offset local tensors by multiples of 32 bytes "
                        f"({32 // t.itemsize} elements of {t.dtype})")


_SCALAR_OPS = ("adds", "muls", "maxs", "mins", "leaky_relu", "axpy", "duplicate")


def _whole(name, what, v):
    """An instruction's count or repeat: an int (the hardware field is an integer register)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):    # upstream's overloads take ints only
        raise error(TypeError, f"{name}: {what} must be an int, got {v!r}",
                    f"compute {what} with integer arithmetic (// instead of /)")
    if v < 0:
        raise error(ValueError, f"{name}: {what} is {int(v)}: the instruction's field is unsigned",
                    f"pass a {what} >= 0")
    return int(v)


def _field_range(what, params, limits):
    """The instruction's parameter fields are hardware registers: each value must fit its field."""
    for field, lo, hi in limits:
        v = int(getattr(params, field))
        if not lo <= v <= hi:
            raise error(ValueError, f"{what}.{field} = {v} is outside [{lo}, {hi}] (the instruction's field)",
                        f"split the work into instructions whose {field} fits" if field in ("block_count",
                        "block_len") else f"keep {field} within [{lo}, {hi}] (strides count 32-byte blocks)")


def _one_type(name, *tensors):
    """Ascend C's instructions take one element type T for every operand: the device compiler rejects others."""
    for t in tensors:
        t.itemsize            # a GlobalTensor without memory says so first
    types = [str(t.dtype) for t in tensors]
    if len(set(types)) > 1:
        raise error(TypeError, f"{name} takes operands of one element type, got {', '.join(types)} "
                    f"({', '.join(t.owner or t.space for t in tensors)})",
                    "declare the tensors with the same dtype (a LocalTensor with its GM tensor's dtype)")


# -- data movement -----------------------------------------------------------------------------------
def data_copy(dst, src, count=None, repeat_params=None, **kwargs):
    """``data_copy(dst, src, count)``: ``floor(count * sizeof / 32) * 32`` contiguous bytes;
    ``data_copy(dst, src, repeat_params=DataCopyParams(...))``: ``block_count`` runs of ``block_len`` 32-byte
    blocks, strides counting 32-byte gaps between runs. GM -> local on MTE2, local -> GM on MTE3, UB -> UB on V."""
    extra = kwargs.get("intri_params", count)
    form = DATA_COPY_FORMS.get(type(extra))     # forms of other modules (the cube's Nd2NzParams)
    if form is not None:
        return form(dst, src, extra)
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
    _issue(PipeOp("data_copy", pipe, reads, writes, {"dst": dst, "src": src, "segments": segs}, user_loc()))


# -- synchronisation --------------------------------------------------------------------------------
def _event_id(event_id):
    i = int(event_id)
    if not 0 <= i <= 7:
        raise error(ValueError, f"event id {i} is outside 0-7", "a HardEvent has 8 ids per core: use 0..7")
    return i


_EVENTS = {e: (e.name,) + event_pipes(e) for e in HardEvent}


def _flag(kind, event, event_id):
    name, src, dst = _EVENTS[HardEvent(event)]
    i = _event_id(event_id)
    _issue(PipeOp(kind, src if kind == "set_flag" else dst,
                  attrs={"key": (name, i), "event": (src, dst), "text": f"{name}, {i}"}, loc=user_loc()))


def set_flag(event, event_id=0):
    """``set_flag(HardEvent.X_Y, id)``: on pipe X, once every earlier X instruction is done, set the flag."""
    _flag("set_flag", event, event_id)


def wait_flag(event, event_id=0):
    """``wait_flag(HardEvent.X_Y, id)``: pipe Y's later instructions wait until the flag is set (and clear it)."""
    _flag("wait_flag", event, event_id)


def pipe_barrier(pipe):
    """``pipe_barrier(PipeID.P)``: later P instructions wait for the earlier ones; ``PIPE_ALL``: every pipe."""
    p = PipeID(pipe)
    if p == PipeID.PIPE_S:
        raise error(ValueError, "pipe_barrier(PIPE_S) is illegal (a hardware error on the device)",
                    "the scalar unit runs in order: drop it, or use PIPE_ALL to wait for every pipe")
    name = p.pipe
    _issue(PipeOp("pipe_barrier", "S" if name == "ALL" else name if name in ("V", "MTE2", "MTE3", "MTE1", "M", "FIX")
                  else "S", attrs={"target": name}, loc=user_loc()))


# -- vector compute ----------------------------------------------------------------------------------
def _mask_bits(mask, dtype_bytes):
    lanes = 256 // dtype_bytes
    if isinstance(mask, (list, tuple)):
        bits = []
        for word in list(mask)[: (1 if lanes <= 64 else 2)]:
            w = int(word)
            bits.extend((w >> k) & 1 for k in range(64))
        m = np.array(bits[:lanes], dtype=bool)
        return np.pad(m, (0, lanes - m.size))
    m = int(mask)
    if not 1 <= m <= lanes:
        raise error(ValueError, f"mask {m} is outside [1, {lanes}] for {dtype_bytes}-byte elements",
                    f"one repeat covers {lanes} elements of this type")
    return np.arange(lanes) < m


def _repeat_indices(active, repeat_times, blk_stride, rep_stride, itemsize):
    """Element indices (from the operand's start) of the active lanes of every repeat (spec: one repeat is 8
    blocks of 32 bytes; block b of repeat r starts at (r * rep_stride + b * blk_stride) * 32 bytes)."""
    per_blk = 32 // itemsize
    lane = np.nonzero(active)[0]
    b, e = lane // per_blk, lane % per_blk
    r = np.arange(int(repeat_times))[:, None]
    return ((r * int(rep_stride) + b[None, :] * int(blk_stride)) * per_blk + e[None, :]).reshape(-1)


def _regions(t, idx):
    if idx is None:
        return None
    if idx.size == 0:
        return ()
    lo, hi = int(idx.min()), int(idx.max()) + 1
    reg = t.region(lo, hi)
    elems = np.unique(idx)
    exact = None
    if elems.size != hi - lo:     # lanes left out between the first and the last: name the bytes
        exact = ((t.addr + elems * t.itemsize)[:, None] + np.arange(t.itemsize)[None, :]).ravel()
    gr = np.unique((t.addr + idx * t.itemsize) // 32)
    if gr.size != (reg.hi - 1) // 32 - reg.lo // 32 + 1 or exact is not None:
        reg = reg.with_granules(gr, exact)
    return (reg,)


def _vector(name, dst, srcs, args, kwargs, scalar=None, params_cls=BinaryRepeatParams, extra=None):
    """Issue a vector op in its count form ``(..., count)`` or mask form ``(..., mask, repeat_times,
    repeat_params)`` (a positional int with ``repeat_times`` given is the mask)."""
    args = list(args)
    count = kwargs.pop("count", None)
    mask = kwargs.pop("mask", None)
    repeat_times = kwargs.pop("repeat_times", None)
    repeat_params = kwargs.pop("repeat_params", None)
    kwargs.pop("is_set_mask", None)
    if args:
        if count is None and mask is None and repeat_times is None and len(args) == 1 and not \
                isinstance(args[0], (list, tuple)) and repeat_params is None:
            count = args.pop(0)
        else:
            mask = args.pop(0) if mask is None else mask
            if args:
                repeat_times = args.pop(0)
            if args:
                repeat_params = args.pop(0)
    if args or kwargs:
        raise error(TypeError, f"{name}: unexpected arguments {args or ''} {sorted(kwargs) or ''}".strip(),
                    f"use {name}(dst, src..., count) or {name}(dst, src..., mask, repeat_times, repeat_params)")
    tensors = [dst] + list(srcs)
    for t in tensors:
        if not isinstance(t, LocalTensor):
            raise error(TypeError, f"{name} takes LocalTensor operands, got {type(t).__name__}",
                        "vector instructions work on UB: copy GM data in with data_copy first")
    if scalar is not None or name in _SCALAR_OPS:
        _scalar_fits(name, scalar, dst.dtype)
    _aligned(name, *tensors)
    if name != "axpy":        # Axpy alone takes a wider destination (float += half * scalar)
        _one_type(name, *tensors)
    if count is not None:
        n = _whole(name, "count", count)
        idx = [np.arange(n)] * len(tensors)
        form = "count"
    else:
        if mask is None and repeat_times is None:
            raise error(TypeError, f"{name} needs an element count or a mask form",
                        f"write {name}(dst, src..., count), or {name}(dst, src..., mask, repeat_times, repeat_params)")
        if mask is None or repeat_times is None:
            raise error(TypeError, f"{name}: the mask form needs mask, repeat_times and repeat_params",
                        f"write {name}(dst, src..., mask, repeat_times, repeat_params)")
        rt = _whole(name, "repeat_times", repeat_times)
        if not 0 <= rt <= 255:
            raise error(ValueError, f"repeat_times {rt} is outside [0, 255]")
        p = repeat_params if repeat_params is not None else params_cls()
        active = _mask_bits(mask, dst.itemsize)
        if isinstance(p, (BinaryRepeatParams, UnaryRepeatParams)):
            _field_range(type(p).__name__, p, [(f, 0, 255) for f in p.__dataclass_fields__])
        if isinstance(p, BinaryRepeatParams):
            strides = [(p.dst_blk_stride, p.dst_rep_stride), (p.src0_blk_stride, p.src0_rep_stride),
                       (p.src1_blk_stride, p.src1_rep_stride)]
        elif isinstance(p, UnaryRepeatParams):
            strides = [(p.dst_blk_stride, p.dst_rep_stride), (p.src_blk_stride, p.src_rep_stride)]
        else:
            strides = [tuple(p)] * len(tensors)
        idx = [_repeat_indices(active, rt, b, r, t.itemsize) for t, (b, r) in zip(tensors, strides)]
        form = "mask"
    contiguous = form == "count"
    if contiguous:
        reads = [t.region(0, ix.size) for t, ix in zip(srcs, idx[1:])]
        writes = [dst.region(0, idx[0].size)]
    else:
        reads = [r for t, ix in zip(srcs, idx[1:]) for r in _regions(t, ix)]
        writes = list(_regions(dst, idx[0]))
    reads = [r for r in reads if r.hi > r.lo]
    writes = [w for w in writes if w.hi > w.lo]
    # the vector unit's repeats: 256 bytes of the widest operand each in the count form, as given in the mask form
    repeats = math.ceil(_builtin_max(t.itemsize for t in tensors) * idx[0].size / 256) if contiguous else rt
    attrs = {"dst": dst, "srcs": list(srcs), "idx": None if contiguous else idx, "count": idx[0].size,
             "scalar": scalar, "form": form, "repeats": repeats}
    if extra:
        attrs.update(extra)
    if name == "axpy":
        reads.extend(writes)
    _issue(PipeOp(name, "V", tuple(reads), tuple(writes), attrs, user_loc()))


_builtin_max = max   # the module rebinds max to the vector instruction below


_BINARY_TYPES = {"add": ("float16", "float32", "int16", "int32"), "div": ("float16", "float32")}


def _binary_types(name, dst, src0, src1):
    """pyasc's dtype rule of the binary instructions (basic/utils.py check_type), with its messages."""
    valid = _BINARY_TYPES.get(name, _BINARY_TYPES["add"])
    for what, t in (("dst", dst), ("src0", src0), ("src1", src1)):
        if str(t.dtype) not in valid:
            raise error(TypeError, f"Invalid {what} data type, got {t.dtype}, expect one of {', '.join(valid)}",
                        f"{name} takes {', '.join(valid)} tensors")


def _binary(name):
    def op(dst, src0, src1, *args, **kwargs):
        _binary_types(name, dst, src0, src1)
        _vector(name, dst, (src0, src1), args, kwargs)
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src0, src1, count)`` or its mask form (BinaryRepeatParams)."
    return op


def _unary(name):
    def op(dst, src, *args, **kwargs):
        _vector(name, dst, (src,), args, kwargs, params_cls=UnaryRepeatParams)
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src, count)`` or its mask form (UnaryRepeatParams)."
    return op


def _scalar(name):
    def op(dst, src, scalar, *args, **kwargs):
        _vector(name, dst, (src,), args, kwargs, scalar=scalar, params_cls=UnaryRepeatParams)
    op.__name__ = name
    op.__doc__ = f"``{name}(dst, src, scalar, count)`` or its mask form (UnaryRepeatParams)."
    return op


add, sub, mul, div, max, min = (_binary(n) for n in ("add", "sub", "mul", "div", "max", "min"))  # noqa: A001
exp, sqrt, abs, relu, ln, reciprocal, rsqrt = (_unary(n) for n in ("exp", "sqrt", "abs", "relu", "ln",  # noqa: A001
                                                                  "reciprocal", "rsqrt"))
adds, muls, leaky_relu, maxs, mins, axpy = (_scalar(n) for n in ("adds", "muls", "leaky_relu", "maxs", "mins", "axpy"))


def duplicate(dst, scalar, *args, **kwargs):
    """``duplicate(dst, scalar, count)`` or ``(dst, scalar, mask, repeat_times, dst_block_stride,
    dst_repeat_stride)``."""
    if len(args) >= 2 or "repeat_times" in kwargs:
        a = list(args)
        mask = kwargs.pop("mask", a.pop(0) if a else None)
        rt = kwargs.pop("repeat_times", a.pop(0) if a else None)
        bs = kwargs.pop("dst_block_stride", a.pop(0) if a else 1)
        rs = kwargs.pop("dst_repeat_stride", a.pop(0) if a else 8)
        _vector("duplicate", dst, (), [mask, rt, (bs, rs)], kwargs, scalar=scalar)
    else:
        _vector("duplicate", dst, (), args, kwargs, scalar=scalar)


def bilinear_interpolation(dst, src0, src0_offset, src1, mask, h_repeat, repeat_mode, dst_blk_stride, v_r_offset,
                           v_repeat, shared_tmp_buffer=None):
    """Per horizontal iteration, 8 uint32 byte offsets select 32-byte blocks of ``src0``, scaled by one value of
    ``src1`` (8 with ``repeat_mode``) and summed into ``dst`` over ``h_repeat`` iterations; each vertical
    iteration moves ``dst`` by ``v_r_offset`` elements."""
    _aligned("bilinear_interpolation", dst, src0, src0_offset, src1)
    hr, vr = int(h_repeat), int(v_repeat)
    n_it = hr * vr
    per_blk = 32 // dst.itemsize
    active = _mask_bits(mask, dst.itemsize)
    lane = np.nonzero(active)[0]
    b, e = lane // per_blk, lane % per_blk
    v = np.arange(vr)[:, None]
    d_idx = (v * int(v_r_offset) + b[None, :] * int(dst_blk_stride) * per_blk + e[None, :]).reshape(-1)
    reads = (src0.region(0, src0.size), src0_offset.region(0, n_it * 8),
             src1.region(0, n_it * (8 if repeat_mode else 1)))
    writes = _regions(dst, d_idx)
    _issue(PipeOp("bilinear_interpolation", "V", reads, writes,
                  {"dst": dst, "srcs": [src0, src0_offset, src1], "active": active, "h_repeat": hr, "v_repeat": vr,
                   "repeat_mode": bool(repeat_mode), "dst_blk_stride": int(dst_blk_stride),
                   "v_r_offset": int(v_r_offset)}, user_loc()))


# -- what each instruction costs (ticks per instance; the platform table's mechanisms, as the tile ops') -------
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


def _vector_cost(kind=None):
    def cost(op, hw):
        return ("V", hw.vector_busy(op.attrs["repeats"], kind))
    return cost


def _bilinear_cost(op, hw):
    a = op.attrs
    return ("V", hw.vector_busy(a["h_repeat"] * a["v_repeat"]))


define("v1.data_copy", cost=_copy_cost, dma=True)
for _name in ("add", "sub", "mul", "max", "min", "abs", "relu", "reciprocal", "adds", "muls", "leaky_relu", "maxs",
              "mins", "axpy", "duplicate"):
    define("v1." + _name, cost=_vector_cost())
# the transcendental calls weigh as the tile ops of the same math
for _name, _kind in (("div", "div"), ("exp", "exp"), ("sqrt", "sqrt"), ("ln", "log"), ("rsqrt", "rsqrt")):
    define("v1." + _name, cost=_vector_cost(_kind))
define("v1.bilinear_interpolation", cost=_bilinear_cost)
for _name in ("set_flag", "wait_flag", "pipe_barrier"):
    define("v1." + _name)     # ordering, not work: the schedule places their edges

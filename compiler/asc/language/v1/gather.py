"""v1 gathering instructions: ``gather`` / ``scatter`` (elements at byte offsets), ``gatherb`` (32-byte
blocks at byte offsets), ``brcb`` (each of 8 elements broadcast over a block), ``gather_mask`` (the elements
a bit pattern selects, packed; it returns their number, also ``get_gather_mask_remain_count()``) and
``bilinear_interpolation``. Where the offsets point is data, so each reads (scatter: writes) its whole source
(destination) tensor; the engine checks every offset against it. Element math in
``sim/pipes/compute_gather.py``."""
from __future__ import annotations

import weakref

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from .addressing import (REQUIRED, Form, aligned as _aligned, bind, dtypes_in, field_range, issue as _issue, lanes_of,
                         local, one_type, operand_regions, register, regions as _regions, repeat_indices, resolve,
                         vector_cost, whole, _bits)
from .tensors import _block

_ELEM = ("float16", "bfloat16", "int16", "uint16", "float32", "int32", "uint32")


def _offsets(name, offset, n):
    dtypes_in(name, ("uint32",), src_offset=offset)
    if n > offset.size:
        raise error(ValueError, f"{name}: {n} offsets are needed, src_offset holds {offset.size}",
                    "give src_offset one uint32 byte offset per gathered element")


def gather(dst, src, src_offset, src_base, *args, **kwargs):
    """``gather(dst, src, src_offset, src_base, count)`` or ``(..., mask, repeat_times, dst_rep_stride)``:
    ``dst[i] = src[(src_base + src_offset[i]) / sizeof]``, offsets in bytes (one per lane, consumed in order)."""
    name = "gather"
    local(name, dst, src, src_offset)
    _aligned(name, dst, src, src_offset)
    dtypes_in(name, _ELEM, dst=dst)
    one_type(name, dst, src)
    base = whole(name, "src_base", src_base)
    a_ = list(args)
    if "count" in kwargs or (len(a_) == 1 and not kwargs):
        n = whole(name, "count", bind(name, (("count", REQUIRED),), a_, kwargs, "gather(..., count)")["count"])
        f = Form(count=n)
        drs = 8
    else:
        p = bind(name, (("mask", REQUIRED), ("repeat_times", REQUIRED), ("dst_rep_stride", REQUIRED)), a_, kwargs,
                 "gather(dst, src, src_offset, src_base, mask, repeat_times, dst_rep_stride)")
        drs = whole(name, "dst_rep_stride", p["dst_rep_stride"])
        f = Form(None, p["mask"], p["repeat_times"], None, True)
    a = resolve(name, f, [dst], [(1, drs)], dst.itemsize)
    lanes = lanes_of(dst.itemsize)
    d_idx = a.idx[0] if a.idx is not None else None
    o_idx = None if a.idx is None else (np.arange(a.count) if a.form == "counter" else
                                        repeat_indices(a.active, a.rep_count, 1, 8, dst.itemsize))
    _offsets(name, src_offset, a.count if o_idx is None else int(o_idx.max(initial=-1)) + 1)
    reads = tuple(operand_regions(src_offset, o_idx, a.count)) + ((src.region(0, src.size),) if src.size else ())
    writes = tuple(operand_regions(dst, d_idx, a.count))
    _issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src": src, "offset": src_offset, "base": base,
                                             "idx": d_idx, "oidx": o_idx, "count": a.count, "repeats": a.repeats,
                                             "lanes": lanes}, user_loc()))


def scatter(dst, src, dst_offset, dst_base, *args, **kwargs):
    """``scatter(dst, src, dst_offset, dst_base, count)`` or ``(..., mask, repeat_times, src_rep_stride)``:
    ``dst[(dst_base + dst_offset[i]) / sizeof] = src[i]``, offsets in bytes (one per lane, in order)."""
    name = "scatter"
    local(name, dst, src, dst_offset)
    _aligned(name, dst, src, dst_offset)
    dtypes_in(name, _ELEM, dst=dst)
    one_type(name, dst, src)
    if str(dst_offset.dtype) != "uint32":
        raise error(TypeError, f"Invalid dst_offset data type, got {dst_offset.dtype}, expect uint32.",
                    "declare dst_offset as uint32 byte offsets")
    base = whole(name, "dst_base", dst_base)
    a_ = list(args)
    if "count" in kwargs or (len(a_) == 1 and not kwargs):
        n = whole(name, "count", bind(name, (("count", REQUIRED),), a_, kwargs, "scatter(..., count)")["count"])
        f, srs = Form(count=n), 8
    else:
        p = bind(name, (("mask", REQUIRED), ("repeat_times", REQUIRED), ("src_rep_stride", REQUIRED)), a_, kwargs,
                 "scatter(dst, src, dst_offset, dst_base, mask, repeat_times, src_rep_stride)")
        srs = whole(name, "src_rep_stride", p["src_rep_stride"])
        f = Form(None, p["mask"], p["repeat_times"], None, True)
    a = resolve(name, f, [src], [(1, srs)], src.itemsize)
    s_idx = a.idx[0] if a.idx is not None else None
    o_idx = None if a.idx is None else (np.arange(a.count) if a.form == "counter" else
                                        repeat_indices(a.active, a.rep_count, 1, 8, src.itemsize))
    _offsets(name, dst_offset, a.count if o_idx is None else int(o_idx.max(initial=-1)) + 1)
    reads = tuple(operand_regions(dst_offset, o_idx, a.count)) + tuple(operand_regions(src, s_idx, a.count))
    writes = (dst.region(0, dst.size),) if dst.size and a.count else ()
    _issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src": src, "offset": dst_offset, "base": base,
                                             "idx": s_idx, "oidx": o_idx, "count": a.count, "repeats": a.repeats},
                  user_loc()))


_REPEAT = (("repeat_times", REQUIRED), ("repeat_params", REQUIRED))     # both required, as upstream's signatures


def gatherb(dst, src0, offset, *args, **kwargs):
    """``gatherb(dst, src0, offset, repeat_times, GatherRepeatParams)``: per repeat, 8 uint32 byte offsets pick
    32-byte blocks of ``src0`` into the repeat's 8 blocks of ``dst``."""
    name = "gatherb"
    b = bind(name, _REPEAT, args, kwargs, "gatherb(dst, src0, offset, repeat_times, asc.GatherRepeatParams(1, 8))")
    p, repeat_times = b["repeat_params"], b["repeat_times"]
    local(name, dst, src0, offset)
    _aligned(name, dst, src0, offset)
    one_type(name, dst, src0)
    field_range("GatherRepeatParams", p, (("dst_blk_stride", 0, 65535), ("dst_rep_stride", 0, 65535)))
    rt = whole(name, "repeat_times", repeat_times)
    if rt > 255:
        raise error(ValueError, f"{name}: repeat_times {rt} is outside [0, 255]", "split the work")
    _offsets(name, offset, 8 * rt)
    per = 32 // dst.itemsize
    blocks = (np.arange(rt)[:, None] * int(p.dst_rep_stride) + np.arange(8)[None, :] * int(p.dst_blk_stride))
    d_idx = (blocks[..., None] * per + np.arange(per)).reshape(-1)
    reads = (offset.region(0, 8 * rt), src0.region(0, src0.size)) if rt else ()
    _issue(PipeOp(name, "V", reads, tuple(_regions(dst, d_idx)), {"dst": dst, "src": src0, "offset": offset,
                                                                  "blocks": blocks, "repeats": rt}, user_loc()))


def brcb(dst, src0, *args, **kwargs):
    """``brcb(dst, src0, repeat_times, BrcbRepeatParams)``: per repeat, 8 elements of ``src0`` each fill one
    32-byte block of ``dst``."""
    name = "brcb"
    b = bind(name, _REPEAT, args, kwargs, "brcb(dst, src0, repeat_times, asc.BrcbRepeatParams(1, 8))")
    p, repeat_times = b["repeat_params"], b["repeat_times"]
    local(name, dst, src0)
    _aligned(name, dst, src0)
    dtypes_in(name, ("float16", "bfloat16", "int16", "uint16", "float32", "int32", "uint32"), dst=dst)
    one_type(name, dst, src0)
    field_range("BrcbRepeatParams", p, (("dst_blk_stride", 0, 65535), ("dst_rep_stride", 0, 65535)))
    rt = whole(name, "repeat_times", repeat_times)
    if rt > 255:
        raise error(ValueError, f"{name}: repeat_times {rt} is outside [0, 255]", "split the work")
    if dst.addr == src0.addr and dst.space == src0.space:
        raise error(ValueError, "brcb: src0 and dst are the same memory (the instruction does not allow it)",
                    "broadcast into another tensor")
    per = 32 // dst.itemsize
    blocks = (np.arange(rt)[:, None] * int(p.dst_rep_stride) + np.arange(8)[None, :] * int(p.dst_blk_stride))
    d_idx = (blocks[..., None] * per + np.arange(per)).reshape(-1)
    reads = (src0.region(0, 8 * rt),) if rt else ()
    _issue(PipeOp(name, "V", reads, tuple(_regions(dst, d_idx)), {"dst": dst, "src": src0, "blocks": blocks,
                                                                  "repeats": rt}, user_loc()))


_PATTERNS = {1: lambda i: i % 2 == 0, 2: lambda i: i % 2 == 1, 3: lambda i: i % 4 == 0, 4: lambda i: i % 4 == 1,
             5: lambda i: i % 4 == 2, 6: lambda i: i % 4 == 3, 7: lambda i: i >= 0}
_REMAIN = weakref.WeakKeyDictionary()


def gather_mask(dst, src0, *args, **kwargs):
    """``gather_mask(dst, src0, src1_pattern, reduce_mode, mask, params[, gather_mask_mode])``: the elements of
    each repeat of ``src0`` whose pattern bit is 1, packed into ``dst``; returns how many. ``src1_pattern`` is
    a built-in pattern 1-7 or a uint16 / uint32 tensor of bits (``src1_repeat_stride`` blocks apart per
    repeat). ``reduce_mode`` True: each repeat takes the first ``mask`` elements."""
    name = "gather_mask"
    p = bind(name, (("src1_pattern", REQUIRED), ("reduce_mode", REQUIRED), ("mask", REQUIRED), ("params", REQUIRED),
                    ("gather_mask_mode", 0)), args, kwargs,
             "gather_mask(dst, src0, src1_pattern, reduce_mode, mask, params)")
    pat, gp = p["src1_pattern"], p["params"]
    local(name, dst, src0)
    _aligned(name, dst, src0)
    dtypes_in(name, ("float16", "uint16", "int16", "float32", "uint32", "int32"), dst=dst)
    if str(dst.dtype) != str(src0.dtype):
        raise error(TypeError, f"dst and src0 must have same data type. Got dst={dst.dtype}, src0={src0.dtype}",
                    "gather into a tensor of the source's dtype")
    isz = dst.itemsize
    lanes = lanes_of(isz)
    if hasattr(pat, "space"):
        want = "uint16" if isz == 2 else "uint32"
        if str(pat.dtype) != want:
            raise error(TypeError, f"For dst data type {dst.dtype}, src1_pattern must be {want}. Got {pat.dtype}",
                        f"declare the pattern tensor as {want}")
        local(name, pat)
        _aligned(name, pat)
    elif isinstance(pat, bool) or not isinstance(pat, (int, np.integer)) or not 1 <= int(pat) <= 7:
        raise error(ValueError, f"Built-in src1_pattern must be between 1 and 7. Got {pat}",
                    "use 1 (even lanes), 2 (odd), 3-6 (one of every four), 7 (all), or a pattern tensor")
    field_range("GatherMaskParams", gp, (("src0_block_stride", 0, 65535), ("repeat_times", 0, 255),
                                         ("src0_repeat_stride", 0, 65535), ("src1_repeat_stride", 0, 65535)))
    rt = int(gp.repeat_times)
    per_rep = lanes
    if p["reduce_mode"]:
        per_rep = whole(name, "mask", p["mask"])
        if not 1 <= per_rep <= lanes:
            raise error(ValueError, f"{name}: mask {per_rep} is outside [1, {lanes}] elements per repeat",
                        f"one repeat holds {lanes} elements of {dst.dtype}")
    active = np.arange(lanes) < per_rep
    s_idx = repeat_indices(active, rt, gp.src0_block_stride, gp.src0_repeat_stride, isz).reshape(rt, per_rep)
    if hasattr(pat, "space"):
        bits_at = (np.arange(rt)[:, None] * int(gp.src1_repeat_stride) * 256 + np.arange(per_rep)[None, :])
        pat_reads = tuple(_regions(pat.reinterpret_cast(dt.uint8),
                                   np.unique(bits_at.reshape(-1) // 8)))
        fixed = None
    else:
        bits_at, pat_reads = None, ()
        fixed = np.tile(_PATTERNS[int(pat)](np.arange(per_rep)), (rt, 1))
    register().counter = False          # the instruction leaves Normal mode (its constraint)
    most = min(rt * per_rep, dst.size)
    reads = tuple(_regions(src0, s_idx.reshape(-1))) + pat_reads
    writes = (dst.region(0, most),) if most else ()
    count = _issue(PipeOp(name, "V", reads, writes, {"dst": dst, "src": src0, "pattern": pat if fixed is None else None,
                                                     "fixed": fixed, "bits_at": bits_at, "sidx": s_idx,
                                                     "repeats": rt}, user_loc()))
    _REMAIN[_block()] = count
    return count


def get_gather_mask_remain_count():
    """The number of elements the block's last ``gather_mask`` kept."""
    return _REMAIN.get(_block(), 0)


def bilinear_interpolation(dst, src0, src0_offset, src1, mask, h_repeat, repeat_mode, dst_blk_stride, v_r_offset,
                           v_repeat, shared_tmp_buffer=None):
    """Per horizontal iteration, 8 uint32 byte offsets select 32-byte blocks of ``src0``, scaled by one value of
    ``src1`` (8 with ``repeat_mode``) and summed into ``dst`` over ``h_repeat`` iterations; each vertical
    iteration moves ``dst`` by ``v_r_offset`` elements."""
    _aligned("bilinear_interpolation", dst, src0, src0_offset, src1)
    hr, vr = int(h_repeat), int(v_repeat)
    n_it = hr * vr
    per_blk = 32 // dst.itemsize
    active = _bits("bilinear_interpolation", mask, lanes_of(dst.itemsize))
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



def _bilinear_cost(op, hw):
    a = op.attrs
    return ("V", hw.vector_busy(a["h_repeat"] * a["v_repeat"]))


define("v1.bilinear_interpolation", cost=_bilinear_cost)
for _name in ("gather", "scatter", "gatherb", "brcb", "gather_mask"):
    define("v1." + _name, cost=vector_cost())

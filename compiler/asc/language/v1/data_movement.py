"""v1 data movement: ``data_copy`` (GM -> local on MTE2, local -> GM on MTE3, UB -> UB on V)."""
from __future__ import annotations

import math

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import aligned as _aligned, field_range as _field_range, issue as _issue, one_type as _one_type
from .addressing import whole as _whole
from .params import DataCopyParams
from .tensors import GlobalTensor


def data_copy(dst, src, count=None, repeat_params=None, **kwargs):
    """``data_copy(dst, src, count)``: ``floor(count * sizeof / 32) * 32`` contiguous bytes;
    ``data_copy(dst, src, repeat_params=DataCopyParams(...))``: ``block_count`` runs of ``block_len`` 32-byte
    blocks, strides counting 32-byte gaps between runs. GM -> local on MTE2, local -> GM on MTE3, UB -> UB on V."""
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

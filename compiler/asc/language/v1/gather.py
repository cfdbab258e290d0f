"""v1 gathering instructions: ``bilinear_interpolation`` (blocks of ``src0`` picked by byte offsets)."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from .addressing import aligned as _aligned, issue as _issue, lanes_of, regions as _regions, _bits


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

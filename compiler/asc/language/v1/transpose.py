"""v1 layout instructions: ``transpose`` (a 16 x 16 block of 2-byte elements; the enhanced form also
[N, C, H, W] <-> [N, H, W, C]) and ``trans_data_to_5hd`` (per repeat, 16 source blocks of 16 two-byte
elements read as the rows of a 16 x 16 matrix and written transposed to 16 destination blocks). Element
math in ``sim/pipes/compute_layout.py``."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .addressing import aligned, dtypes_in, field_range, issue, local, one_type, vector_cost
from .enums import TransposeType
from .params import TransDataTo5HDParams, TransposeParamsExt
from .tensors import LocalTensor

_B16 = ("float16", "bfloat16", "int16", "uint16")


def _need(name, t, n, what):
    if t.size < n:
        raise error(ValueError, f"{name}: {what} holds {t.size} elements, the transpose needs {n}",
                    f"give {what} at least {n} elements")


def transpose(dst, src, shared_tmp_buffer=None, params=None):
    """``transpose(dst, src)``: a 16 x 16 block of 2-byte elements; ``transpose(dst, src, shared_tmp_buffer,
    TransposeParamsExt(n, c, h, w, transpose_type))``: TRANSPOSE_ND2ND_B16 (the same), TRANSPOSE_NCHW2NHWC
    or TRANSPOSE_NHWC2NCHW."""
    name = "transpose"
    if str(dst.dtype) != str(src.dtype):
        raise error(TypeError, f"For {name}, dst and src tensor must have the same dtype, got dst: {dst.dtype}, "
                    f"src: {src.dtype}", "transpose into a tensor of the source's dtype")
    local(name, dst, src)
    aligned(name, dst, src)
    shape, perm = (16, 16), (1, 0)
    writes = []
    if params is not None or shared_tmp_buffer is not None:
        if not isinstance(shared_tmp_buffer, LocalTensor):
            raise error(TypeError, "shared_tmp_buffer must be a LocalTensor", "pass a uint8 LocalTensor")
        if str(shared_tmp_buffer.dtype) != "uint8":
            raise error(TypeError, f"shared_tmp_buffer must have dtype uint8, got {shared_tmp_buffer.dtype}",
                        "declare the temporary buffer as uint8")
        p = params or TransposeParamsExt()
        try:
            kind = TransposeType(int(p.transpose_type))
        except (TypeError, ValueError):
            raise error(ValueError, f"{name}: transpose_type {p.transpose_type!r} is not a TransposeType",
                        "pass asc.TransposeType.TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or "
                        "TRANSPOSE_NHWC2NCHW") from None
        if kind in (TransposeType.TRANSPOSE_NCHW2NHWC, TransposeType.TRANSPOSE_NHWC2NCHW):
            n, c, h, w = (int(v) for v in (p.n_size, p.c_size, p.h_size, p.w_size))
            if min(n, c, h, w) < 1:
                raise error(ValueError, f"{name}: the shape [{n}, {c}, {h}, {w}] has an empty side",
                            "give n_size, c_size, h_size and w_size >= 1")
            if dst.addr == src.addr and dst.space == src.space:
                raise error(ValueError, f"{name}: {kind.name} does not allow dst and src to be the same memory",
                            "transpose into another tensor")
            nchw = kind == TransposeType.TRANSPOSE_NCHW2NHWC
            shape, perm = ((n, c, h, w), (0, 2, 3, 1)) if nchw else ((n, h, w, c), (0, 3, 1, 2))
        elif kind != TransposeType.TRANSPOSE_ND2ND_B16:
            raise error(ValueError, f"{name}: {kind.name} is not a transpose of the vector unit",
                        "use TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC or TRANSPOSE_NHWC2NCHW")
        writes.append(shared_tmp_buffer.region(0, shared_tmp_buffer.size))
    dtypes_in(name, _B16, dst=dst)
    count = int(np.prod(shape))
    _need(name, src, count, "src")
    _need(name, dst, count, "dst")
    writes.insert(0, dst.region(0, count))
    issue(PipeOp(name, "V", (src.region(0, count),), tuple(writes),
                 {"dst": dst, "src": src, "shape": shape, "perm": perm, "repeats": max(1, count * 2 // 256)},
                 user_loc()))


def trans_data_to_5hd(dst_or_list, src_or_list, params=None, *args, **kwargs):
    """``trans_data_to_5hd(dst_list, src_list, TransDataTo5HDParams)`` with lists of 16 LocalTensors of
    2-byte elements: per repeat, the 16 x 16 matrix whose rows are the source blocks, transposed into the
    destination blocks; repeat r moves every address by ``r * rep_stride`` blocks."""
    name = "trans_data_to_5hd"
    p = params or TransDataTo5HDParams()
    if args or kwargs:
        raise error(TypeError, f"{name}: unexpected arguments", "use trans_data_to_5hd(dst_list, src_list, params)")
    if not isinstance(dst_or_list, (list, tuple)) or not all(isinstance(t, LocalTensor) for t in
                                                              list(dst_or_list) + list(src_or_list)):
        raise error(TypeError, f"{name}: this engine takes lists of 16 LocalTensors (address values and a uint64 "
                    "address tensor name memory it cannot check)",
                    "pass dst_list and src_list as lists of LocalTensor views (t[offset:])")
    dsts, srcs = list(dst_or_list), list(src_or_list)
    if len(dsts) != len(srcs):
        raise error(ValueError, f"For {name}, dst_list and src_list must have the same length.",
                    "pass 16 destination and 16 source tensors")
    if len(dsts) != 16:
        raise error(ValueError, f"{name}: the lists hold {len(dsts)} tensors, the instruction takes 16",
                    "pass 16 destination and 16 source blocks")
    one_type(name, *(dsts + srcs))
    dtypes_in(name, _B16, dst=dsts[0])
    local(name, *(dsts + srcs))
    aligned(name, *(dsts + srcs))
    field_range("TransDataTo5HDParams", p, (("repeat_times", 0, 255), ("dst_rep_stride", 0, 65535),
                                            ("src_rep_stride", 0, 65535)))
    rt = int(p.repeat_times)
    per = 16
    d_step, s_step = (int(p.dst_rep_stride), int(p.src_rep_stride)) if rt > 1 else (0, 0)
    reads, writes = [], []
    for r in range(rt):
        for t in srcs:
            reads.append(t.region(r * s_step * per, r * s_step * per + per))
        for t in dsts:
            writes.append(t.region(r * d_step * per, r * d_step * per + per))
    issue(PipeOp(name, "V", tuple(reads), tuple(writes),
                 {"dsts": dsts, "srcs": srcs, "repeat_times": rt, "steps": (d_step * per, s_step * per),
                  "repeats": rt * 2}, user_loc()))


define("v1.transpose", cost=vector_cost())
define("v1.trans_data_to_5hd", cost=vector_cost())

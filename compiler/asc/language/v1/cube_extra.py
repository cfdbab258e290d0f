"""Further forms of the cube's moves: ``load_data`` with ``LoadData3DParamsV2`` (im2col of an NC1HWC0 feature
map in L1 into L0A), ``data_copy`` from CO1 with ``DataCopyCO12DstParams`` (the FIX move of ``fixpipe``, its
scalar quantisation word from ``set_fix_pipe_pre_quant_flag``), and ``data_copy`` NZ -> ND out of UB with
``Nz2NdParamsFull``.

im2col (Ascend C's load-3D v2): the feature map is C1 x l1_h x l1_w x c0 (c0 = 32 / sizeof, C1 =
channel_size / c0); the output has Ho x Wo rows (Ho = (l1_h + pad_top + pad_bottom - dilation_h * (filter_h -
1) - 1) // stride_h + 1, likewise Wo), row m = (ho, wo) = divmod(m, Wo), and C1 x filter_h x filter_w x c0
columns in that order; element (m, k) is the map at channel block c1, row ho * stride_h - pad_top + kh *
dilation_h, column wo * stride_w - pad_left + kw * dilation_w, channel c0, or ``pad_value`` outside the map.
The window [m_start_pt, + m_extension) x [k_start_pt, + k_extension) is written ZZ into L0A (MTE1)."""
from __future__ import annotations

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core.errors import error
from .cube import LOAD_FORMS, _aligned, _field_range, _granules, _position, _same_type, c0_of, issue_fixpipe
from .cube_params import (DataCopyCO12DstParams, FixpipeParamsV220, LoadData2DParamsV2, LoadData3DParamsV2,
                          Nz2NdParamsFull, QuantModes)
from .params import DATA_COPY_FORMS
from .tensors import GlobalTensor, _block


def load_data_3d_v2(dst, src, p):
    _position("load_data", src, ("A1", "B1"), "source (the feature map)")
    if p.en_transpose or p.f_matrix_ctrl:
        from .names import not_supported
        raise not_supported("asc.load_data with LoadData3DParamsV2(en_transpose / f_matrix_ctrl)")
    _position("load_data", dst, ("A2",), "destination of the im2col matrix")
    _same_type("load_data", dst, src)
    _aligned("load_data", dst, 512)
    _field_range("LoadData3DParamsV2", p, (("l1_h", 1, 32767), ("l1_w", 1, 32767), ("channel_size", 1, 65535),
                                           ("k_extension", 1, 65535), ("m_extension", 1, 65535),
                                           ("k_start_pt", 0, 65535), ("m_start_pt", 0, 65535), ("stride_w", 1, 63),
                                           ("stride_h", 1, 63), ("filter_w", 1, 255), ("filter_h", 1, 255),
                                           ("dilation_filter_w", 1, 255), ("dilation_filter_h", 1, 255)))
    c0 = c0_of(src)
    if p.channel_size % c0 or p.k_extension % c0 or p.m_extension % 16:
        raise error(ValueError, f"LoadData3DParamsV2: channel_size {p.channel_size} and k_extension "
                    f"{p.k_extension} must be multiples of c0 = {c0}, m_extension {p.m_extension} of 16",
                    "pad the channels to c0 and load whole fractals")
    pads = tuple(int(x) for x in p.pad_list)
    if len(pads) != 4 or not all(0 <= x <= 255 for x in pads):
        raise error(ValueError, f"LoadData3DParamsV2.pad_list {p.pad_list}: four values in [0, 255] (left, right, "
                    "top, bottom)")
    fw = int(p.filter_w) + (256 if p.filter_size_w else 0)
    fh = int(p.filter_h) + (256 if p.filter_size_h else 0)
    c1 = int(p.channel_size) // c0
    h, w = int(p.l1_h), int(p.l1_w)
    ho = (h + pads[2] + pads[3] - int(p.dilation_filter_h) * (fh - 1) - 1) // int(p.stride_h) + 1
    wo = (w + pads[0] + pads[1] - int(p.dilation_filter_w) * (fw - 1) - 1) // int(p.stride_w) + 1
    if ho <= 0 or wo <= 0:
        raise error(ValueError, f"LoadData3DParamsV2: the filter {fh} x {fw} (dilated) does not fit the padded "
                    f"{h} x {w} map", "check l1_h / l1_w, the padding, the filter size and its dilation")
    me, ke = int(p.m_extension), int(p.k_extension)
    kmax = c1 * fh * fw * c0
    if int(p.k_start_pt) + ke > kmax:
        raise error(ValueError, f"LoadData3DParamsV2: columns [{p.k_start_pt}, {int(p.k_start_pt) + ke}) pass the "
                    f"{kmax} columns (C1 {c1} x {fh} x {fw} x c0 {c0})", "keep k_start_pt + k_extension within them")
    src_elems = c1 * h * w * c0
    reads = (src.region(0, src_elems),)
    writes = (dst.region(0, me * ke),)
    geo = dict(c0=c0, c1=c1, h=h, w=w, ho=ho, wo=wo, fh=fh, fw=fw, pads=pads, stride=(int(p.stride_h), int(p.stride_w)),
               dil=(int(p.dilation_filter_h), int(p.dilation_filter_w)), m0=int(p.m_start_pt), k0=int(p.k_start_pt),
               me=me, ke=ke, pad_value=p.pad_value)
    _block().issue(PipeOp("load_data_3d", "MTE1", reads, writes, {"dst": dst, "src": src, "geo": geo,
                                                                   "bytes": me * ke * src.itemsize}, user_loc()))


LOAD_FORMS[LoadData3DParamsV2] = load_data_3d_v2


def data_copy_co1(dst, src, p):
    """``data_copy(dst, src_co1, DataCopyCO12DstParams(n_size, m_size, dst_stride, src_stride, quant_pre,
    relu_pre, channel_split, nz2nd_en))``: the fixpipe's move to GM or UB (NZ unless ``nz2nd_en``; ND rows
    ``dst_stride`` elements apart), a scalar quantisation taking ``set_fix_pipe_pre_quant_flag``'s word."""
    q = QuantModes(p.quant_pre)
    word = getattr(_block(), "fixpipe_quant_word", None)
    if q in (QuantModes.DEQF16, QuantModes.QF322B8_PRE, QuantModes.REQ8) and word is None:
        raise error(ValueError, f"data_copy from CO1 with quant_pre={q.name} takes its scale from "
                    "set_fix_pipe_pre_quant_flag, which was not called", "call asc.set_fix_pipe_pre_quant_flag(word)")
    if dst.space not in ("GM", "UB"):
        raise error(TypeError, f"data_copy from CO1 writes GM or UB (CO2), not {dst.space}")
    fp = FixpipeParamsV220(int(p.n_size), int(p.m_size), int(p.src_stride), int(p.dst_stride), q, word or 0, 1, 0, 0,
                           bool(p.relu_pre), 0, bool(p.channel_split))
    issue_fixpipe("data_copy", dst, src, None, fp, not p.nz2nd_en)


def data_copy_nz2nd(dst, src, p):
    """``data_copy(dst_gm, src_ub, Nz2NdParamsFull(nd_num, n_value, d_value, src_nd_matrix_stride, src_n_stride,
    dst_d_stride, dst_nd_matrix_stride))``: NZ matrices in UB (column blocks of c0 elements ``src_n_stride``
    32-byte rows apart, matrices ``src_nd_matrix_stride`` elements apart) to ND rows ``dst_d_stride`` elements
    apart in GM (matrices ``dst_nd_matrix_stride`` apart), on MTE3."""
    if not isinstance(dst, GlobalTensor) or src.space != "UB":
        raise error(TypeError, "data_copy with Nz2NdParamsFull copies a UB tensor to a GlobalTensor")
    _same_type("data_copy", dst, src)
    _field_range("Nz2NdParamsFull", p, (("nd_num", 1, 4095), ("n_value", 1, 16384), ("d_value", 1, 65535),
                                        ("src_nd_matrix_stride", 0, 65535), ("src_n_stride", 0, 65535),
                                        ("dst_d_stride", 1, 65535), ("dst_nd_matrix_stride", 0, 65535)))
    nd, rows, cols = int(p.nd_num), int(p.n_value), int(p.d_value)
    c0, sz = c0_of(src), src.itemsize
    blocks = -(-cols // c0)
    src_offs = [(i * int(p.src_nd_matrix_stride) * sz + j * int(p.src_n_stride) * 32) for i in range(nd)
                for j in range(blocks)]
    reads = (_granules(src, src_offs, rows * 32),)
    writes = tuple(dst.region(i * int(p.dst_nd_matrix_stride) + r * int(p.dst_d_stride),
                              i * int(p.dst_nd_matrix_stride) + r * int(p.dst_d_stride) + cols)
                   for i in range(nd) for r in range(rows))
    _block().issue(PipeOp("data_copy_nz2nd", "MTE3", reads, writes,
                          {"dst": dst, "src": src, "p": (nd, rows, cols, int(p.src_nd_matrix_stride),
                                                         int(p.src_n_stride), int(p.dst_d_stride),
                                                         int(p.dst_nd_matrix_stride)), "c0": c0,
                           "runs": (nd * rows, cols * sz)}, user_loc()))


DATA_COPY_FORMS[DataCopyCO12DstParams] = data_copy_co1
DATA_COPY_FORMS[Nz2NdParamsFull] = data_copy_nz2nd

define("v1.load_data_3d", cost=lambda op, hw: ("MTE1", hw.l0_load_busy(op.attrs["bytes"])))
define("v1.data_copy_nz2nd", cost=lambda op, hw: ("MTE3", hw.dma_busy(*op.attrs["runs"], store=True)), dma=True)




# -- 4:2 structured sparsity (int8): load_data_with_sparse and mmad_with_sparse --------------------------------
def load_data_with_sparse(dst, src, idx, load_data_param):
    """``load_data_with_sparse(dst_b2, src_b1, idx_b1, LoadData2DParams(...))``: the fractals of the densified
    B (int8, K / 2 x N: of every 4 K-values the first 2 non-zeros) move B1 -> B2 as ``load_data`` moves them,
    each with its 128 bytes of indices (2 bits per dense value, four to a byte, the first value in the low
    bits): for the pair kept from a group of 4, the first value's index is its position p0 in the group, the
    second's is p1 - 1 (so every index is 0-2). The indices travel with the fractal for mmad_with_sparse."""
    p = load_data_param
    _position("load_data_with_sparse", dst, ("B2",), "destination")
    _position("load_data_with_sparse", src, ("B1",), "source")
    _position("load_data_with_sparse", idx, ("B1",), "index matrix")
    if str(src.dtype) != "int8" or str(dst.dtype) != "int8":
        raise error(TypeError, f"load_data_with_sparse moves int8 weights, got {src.dtype} -> {dst.dtype}")
    if p.if_transpose:
        raise error(ValueError, "load_data_with_sparse has no transposing form", "pass if_transpose=False")
    _field_range("LoadData2DParams", p, (("start_index", 0, 65535), ("repeat_times", 0, 255), ("src_stride", 0, 65535),
                                         ("dst_gap", 0, 65535)))
    _aligned("load_data_with_sparse", dst, 512)
    moves = [((int(p.start_index) + i * int(p.src_stride)) * 512, i * (1 + int(p.dst_gap)) * 512)
             for i in range(int(p.repeat_times))]
    reads = tuple(src.region(s, s + 512) for s, _ in moves) + tuple(
        idx.region(s // 4, s // 4 + 128) for s, _ in moves)
    writes = tuple(dst.region(d, d + 512) for _, d in moves)
    _block().issue(PipeOp("load_data_with_sparse", "MTE1", reads, writes,
                          {"dst": dst, "src": src, "idx": idx, "moves": moves, "bytes": len(moves) * 640}, user_loc()))


def mmad_with_sparse(dst, fm, filter, mmad_params):   # noqa: A002  (pyasc's parameter name)
    """``mmad_with_sparse(dst_co1, fm_a2, filter_b2, MmadParams(m, n, k))``: C (+)= A . B, A int8 m x k in L0A,
    B the densified k / 2 x n in L0B with the indices its load_data_with_sparse brought: each dense value
    multiplies the A column of its original K position (int32 accumulation)."""
    p = mmad_params
    from .cube import _mmad
    if str(fm.dtype) != "int8" or str(filter.dtype) != "int8" or str(dst.dtype) != "int32":
        raise error(TypeError, f"mmad_with_sparse takes int8 fm / filter into int32, got {fm.dtype}, {filter.dtype} "
                    f"-> {dst.dtype}", "declare A2 / B2 int8 and CO1 int32")
    if int(p.k) % 4:
        raise error(ValueError, f"mmad_with_sparse: k = {p.k} is not a multiple of 4 (the sparsity groups)")
    n, kd = int(p.n), int(p.k) // 2
    nfrac = -(-kd // 32) * -(-n // 16)
    side = getattr(_block(), "sparse_index", {})
    missing = [filter.addr + f * 512 for f in range(nfrac) if filter.addr + f * 512 not in side]
    if int(p.m) and n and kd and missing:
        raise error(ValueError, f"mmad_with_sparse: the B2 fractal at byte {missing[0]} has no sparsity indices (it "
                    "was not loaded by load_data_with_sparse)", "load the densified B with asc.load_data_with_sparse")
    _mmad("mmad_with_sparse", dst, fm, filter, None, p)


define("v1.load_data_with_sparse", cost=lambda op, hw: ("MTE1", hw.l0_load_busy(op.attrs["bytes"])))
define("v1.mmad_with_sparse", cost=lambda op, hw: ("M", hw.mmad_busy(op.attrs["mnk"][0], op.attrs["mnk"][2] // 2,
                                                                      op.attrs["mnk"][1], 1)))


def load_data_2d_v2(dst, src, p):
    """``load_data(dst, src, LoadData2DParamsV2(m_start_position, k_start_position, m_step, k_step, src_stride,
    dst_stride, if_transpose))``: the window of m_step x k_step fractals of an NZ source (fractal row r of
    column block c at (c * src_stride + r) fractals) from fractal (m_start_position, k_start_position), fractal
    (r, c) of the window to fractal r * dst_stride + c of ``dst`` (dst_stride 0: k_step), each transposed
    with ``if_transpose`` (2-byte types). L1 -> L0 on MTE1, GM -> L1 / L0 on MTE2."""
    from .cube import FRACTAL, _load_fractals
    _field_range("LoadData2DParamsV2", p, (("m_start_position", 0, 65535), ("k_start_position", 0, 65535),
                                           ("m_step", 0, 65535), ("k_step", 0, 65535),
                                           ("src_stride", -2 ** 31, 2 ** 31 - 1), ("dst_stride", 0, 65535)))
    if isinstance(src, GlobalTensor):
        _position("load_data", dst, ("A1", "B1", "A2", "B2"), "destination")
        pipe = "MTE2"
    else:
        _position("load_data", src, ("A1", "B1"), "source")
        _position("load_data", dst, ("A2", "B2"), "destination")
        pipe = "MTE1"
    _same_type("load_data", dst, src)
    if p.if_transpose and (src.itemsize != 2 or pipe == "MTE2"):
        raise error(TypeError, "load_data: if_transpose transposes 16 x 16 fractals of 2-byte types on the way "
                    "from L1", "transpose 2-byte data from A1 / B1")
    ms, ks, mstep, kstep = int(p.m_start_position), int(p.k_start_position), int(p.m_step), int(p.k_step)
    ds = int(p.dst_stride) or kstep
    moves = [((c * int(p.src_stride) + r) * FRACTAL, ((r - ms) * ds + (c - ks)) * FRACTAL)
             for r in range(ms, ms + mstep) for c in range(ks, ks + kstep)]
    if any(s < 0 for s, _ in moves):
        raise error(ValueError, "LoadData2DParamsV2: the window starts before the source (a negative src_stride "
                    "reaches back past it)", "check src_stride and the start positions")
    _load_fractals("load_data", dst, src, 0, 0, 0, 0, bool(p.if_transpose), pipe, moves)


LOAD_FORMS[LoadData2DParamsV2] = load_data_2d_v2

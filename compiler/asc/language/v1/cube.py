"""The cube core's own instructions, as Ascend C names them: ``data_copy`` GM -> L1 with ND -> NZ conversion
(``Nd2NzParams``), ``load_data`` (fractals GM / L1 -> L1 / L0A / L0B, optionally transposed),
``load_data_with_transpose``, ``mmad`` (L0A x L0B into L0C), ``fixpipe`` (L0C -> GM, NZ -> ND, quantised,
ReLU), ``init_const_value`` and the load-3D state setters. Each call is one ``PipeOp`` on its pipe (MTE2 from
GM, MTE1 from L1, M, FIX) with the bytes it reads and writes, so the race detector checks them as any
instruction; what they compute is in ``sim.pipes.cube_compute``.

Layouts (a fractal is 16 rows of 32 bytes, c0 = 32 / sizeof(T) elements per row):
  NZ   (L1, L0C)  column blocks of c0 (L0C: 16) elements, each block all rows deep: (r, c) at
                  (c // c0) * rows_padded * c0 + r * c0 + c % c0
  ZZ   (L0A)      fractals row-major over (m-block, k-block), each fractal 16 x c0 row-major
  ZN   (L0B)      fractals row-major over (k-block, n-block), each fractal stored n-major (16 x c0 of B^T)
"""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import PipeOp, Region, user_loc
from ...ir.registry import define
from ..core.errors import error
from .cube_params import (CO2Layout, FixpipeConfig, FixpipeParamsV220, InitConstValueParams, LoadData2DParams,
                          LoadData2dTransposeParams, LoadDataRepeatParam, MmadParams, Nd2NzParams, QuantModes)
from .cube_state import mmad_modes
from .params import DATA_COPY_FORMS
from .tensors import GlobalTensor, LocalTensor, _block

FRACTAL = 512     # bytes


def _issue(op):
    return _block().issue(op)


def _field_range(what, params, limits):
    for field, lo, hi in limits:
        v = int(getattr(params, field))
        if not lo <= v <= hi:
            raise error(ValueError, f"{what}.{field} = {v} is outside [{lo}, {hi}] (the instruction's field)",
                        f"keep {field} within [{lo}, {hi}]")


def _position(name, t, allowed, role):
    if not isinstance(t, LocalTensor) or t.position not in allowed:
        where = "a GlobalTensor" if isinstance(t, GlobalTensor) else getattr(t, "position", type(t).__name__)
        raise error(TypeError, f"{name}: the {role} must be a LocalTensor at TPosition {' / '.join(allowed)}, got "
                    f"{where}", f"declare the {role} with pos=asc.TPosition.{allowed[0]}")


def _same_type(name, a, b):
    if str(a.dtype) != str(b.dtype):
        raise error(TypeError, f"{name} takes operands of one element type, got {a.dtype} and {b.dtype}",
                    "declare dst and src with the same dtype")


def _aligned(name, t, unit):
    if t.space != "GM" and t.addr % unit:
        raise error(ValueError, f"{name}: the {t.position} operand starts at byte {t.addr}, which is not "
                    f"{unit}-byte aligned ({t.owner})", f"offset {t.position} tensors by multiples of {unit} bytes")


def _granules(t, byte_offsets, nbytes):
    """The region of ``t`` touched at the given byte offsets (each a run of ``nbytes``), as 32-byte granules."""
    offs = np.asarray(byte_offsets, dtype=np.int64) + t.addr
    lo, hi = int(offs.min()), int(offs.max()) + nbytes
    reg = Region(t.space, t.buf, lo, hi, position=t.position, owner=t.owner)
    gr = np.unique(((offs[:, None] + np.arange(0, nbytes, 32)[None, :]) // 32).ravel())
    if gr.size * 32 == hi - lo and lo % 32 == 0 and hi % 32 == 0:
        return reg
    return reg.with_granules(gr)


def c0_of(t):
    return 32 // t.itemsize


# -- ND -> NZ (a data_copy form) ----------------------------------------------------------------------------
def data_copy_nd2nz(dst, src, params):
    """``data_copy(dst_l1, src, Nd2NzParams(...))``: ``nd_num`` row-major matrices of n_value x d_value (rows
    ``src_d_value`` elements apart, matrices ``src_nd_matrix_stride`` apart) into NZ at ``dst``: column block
    j of c0 elements at j * dst_nz_c0_stride 32-byte blocks, row r at r * dst_nz_n_stride blocks within it,
    matrices ``dst_nz_matrix_stride`` elements apart. A last column block that d_value does not fill is padded
    with zeros. GM -> L1 on MTE2 (UB -> L1 on MTE3)."""
    p = params
    _field_range("Nd2NzParams", p, (("nd_num", 0, 4095), ("n_value", 0, 16384), ("d_value", 0, 65535),
                                    ("src_nd_matrix_stride", 0, 65535), ("src_d_value", 1, 65535),
                                    ("dst_nz_c0_stride", 1, 16384), ("dst_nz_n_stride", 0, 16384),
                                    ("dst_nz_matrix_stride", 0, 65535)))
    _position("data_copy", dst, ("A1", "B1", "TSCM", "C1"), "destination of an Nd2NzParams copy")
    _same_type("data_copy", dst, src)
    if src.space not in ("GM", "UB"):
        raise error(TypeError, f"data_copy with Nd2NzParams reads GM or UB, not {src.space}",
                    "copy the ND matrix from GM (or UB) into A1 / B1")
    _aligned("data_copy", dst, 32)
    nd, rows, cols = int(p.nd_num), int(p.n_value), int(p.d_value)
    if p.d_value > p.src_d_value:
        raise error(ValueError, f"Nd2NzParams.d_value = {p.d_value} exceeds src_d_value = {p.src_d_value} (the "
                    "source row stride)", "src_d_value is the source row length in elements, >= d_value")
    sz, c0 = src.itemsize, c0_of(dst)
    blocks = -(-cols // c0)
    attrs = {"dst": dst, "src": src, "p": (nd, rows, cols, int(p.src_nd_matrix_stride), int(p.src_d_value),
                                           int(p.dst_nz_c0_stride), int(p.dst_nz_n_stride),
                                           int(p.dst_nz_matrix_stride)), "c0": c0}
    reads, writes = (), ()
    if nd and rows and cols:
        mats = np.arange(nd)[:, None]
        r = np.arange(rows)[None, :]
        src_rows = ((mats * int(p.src_nd_matrix_stride) + r * int(p.src_d_value)) * sz).ravel()
        reads = (_granules(src, src_rows, cols * sz),)
        dst_rows = (mats[:, :, None] * int(p.dst_nz_matrix_stride) * sz
                    + np.arange(blocks)[None, None, :] * int(p.dst_nz_c0_stride) * 32
                    + r[:, :, None] * int(p.dst_nz_n_stride) * 32).ravel()
        writes = (_granules(dst, dst_rows, 32),)
    attrs["runs"] = (nd * rows, cols * sz)
    _issue(PipeOp("data_copy_nd2nz", "MTE2" if src.space == "GM" else "MTE3", reads, writes, attrs, user_loc()))


DATA_COPY_FORMS[Nd2NzParams] = data_copy_nd2nz
LOAD_FORMS = {}
"""Further ``load_data`` forms by parameter record type (``cube_extra.py``: the load-3D forms)."""


# -- load_data -------------------------------------------------------------------------------------------
_FROM_L1 = {"A1": ("A2",), "B1": ("B2",)}


def load_data(dst, src, params=None, **kwargs):
    """``load_data(dst, src, LoadData2DParams(start_index, repeat_times, src_stride, sid, dst_gap,
    if_transpose))``: ``repeat_times`` fractals (512 bytes each), the i-th from fractal ``start_index + i *
    src_stride`` of ``src`` to fractal ``i * (1 + dst_gap)`` of ``dst``, each transposed (16 x 16, 2-byte
    types, L1 -> L0 only) when ``if_transpose``. L1 -> L0A / L0B on MTE1; GM -> A1 / B1 / A2 / B2 on MTE2."""
    params = kwargs.pop("params", params)
    if kwargs:
        raise error(TypeError, f"load_data: unsupported arguments {', '.join(sorted(kwargs))}",
                    "pass load_data(dst, src, LoadData2DParams(...))")
    form = LOAD_FORMS.get(type(params))       # the other parameter records' forms (cube_extra.py)
    if form is not None:
        return form(dst, src, params)
    if not isinstance(params, LoadData2DParams):
        from .names import not_supported
        raise not_supported(f"asc.load_data with {type(params).__name__}")
    p = params
    _field_range("LoadData2DParams", p, (("start_index", 0, 65535), ("repeat_times", 1, 255),
                                         ("src_stride", 0, 65535), ("dst_gap", 0, 65535)))
    if isinstance(src, GlobalTensor):
        _position("load_data", dst, ("A1", "B1", "A2", "B2"), "destination")
        pipe = "MTE2"
        if p.if_transpose:
            raise error(ValueError, "load_data: if_transpose applies to the L1 -> L0 paths only (A1 -> A2, B1 -> "
                        "B2)", "load into A1 / B1 first, then transpose on the way to A2 / B2")
    else:
        _position("load_data", src, ("A1", "B1"), "source")
        _position("load_data", dst, _FROM_L1[src.position], "destination")
        pipe = "MTE1"
        _aligned("load_data", dst, FRACTAL)
    _same_type("load_data", dst, src)
    _aligned("load_data", src, 32)
    if p.if_transpose and src.itemsize != 2:
        raise error(TypeError, f"load_data: if_transpose needs a 2-byte type (half / bfloat16 / int16 / uint16), "
                    f"got {src.dtype}", "use load_data_with_transpose for other types")
    _load_fractals("load_data", dst, src, p.start_index, p.repeat_times, p.src_stride, p.dst_gap,
                   bool(p.if_transpose), pipe)


def load_data_with_transpose(dst, src, params):
    """``load_data_with_transpose(dst_b2, src_b1, LoadData2dTransposeParams(start_index, repeat_times,
    src_stride, dst_gap, dst_frac_gap))``: square blocks of the source transposed into L0B, one 16 x 16 fractal
    per repeat for 2-byte types (MTE1)."""
    if type(params).__name__ == "LoadData2dTransposeParamsV2":   # src_frac_gap: between a repeat's fractals,
        params = LoadData2dTransposeParams(params.start_index, params.repeat_times,   # one for 2-byte types
                                           params.src_stride, params.dst_gap, params.dst_frac_gap, params.addr_mode)
    if not isinstance(params, LoadData2dTransposeParams):
        from .names import not_supported
        raise not_supported(f"asc.load_data_with_transpose with {type(params).__name__}")
    p = params
    _field_range("LoadData2dTransposeParams", p, (("start_index", 0, 65535), ("repeat_times", 0, 255),
                                                  ("src_stride", 0, 65535), ("dst_gap", 0, 65535),
                                                  ("dst_frac_gap", 0, 65535)))
    _position("load_data_with_transpose", src, ("A1", "B1"), "source")
    _position("load_data_with_transpose", dst, ("B2", "A2"), "destination")
    _same_type("load_data_with_transpose", dst, src)
    if src.itemsize != 2:
        from .names import not_supported
        raise not_supported(f"asc.load_data_with_transpose of {src.dtype} (2-byte types run)")
    _aligned("load_data_with_transpose", dst, FRACTAL)
    _load_fractals("load_data_with_transpose", dst, src, p.start_index, p.repeat_times, p.src_stride, p.dst_gap,
                   True, "MTE1")


def _load_fractals(name, dst, src, start, repeats, src_stride, dst_gap, transpose, pipe, moves=None):
    """Issue a move of whole fractals: ``moves`` (source byte, destination byte) pairs, or the repeats'."""
    if moves is None:
        start, repeats, src_stride, dst_gap = int(start), int(repeats), int(src_stride), int(dst_gap)
        moves = [((start + i * src_stride) * FRACTAL, i * (1 + dst_gap) * FRACTAL) for i in range(repeats)]
    repeats = len(moves)
    reads = tuple(Region(src.space, src.buf, src.addr + s, src.addr + s + FRACTAL, position=src.position,
                         owner=src.owner) for s, _ in moves)
    writes = tuple(Region(dst.space, dst.buf, dst.addr + d, dst.addr + d + FRACTAL, position=dst.position,
                          owner=dst.owner) for _, d in moves)
    _issue(PipeOp("load_data", pipe, reads, writes, {"dst": dst, "src": src, "moves": moves,
                                                      "transpose": transpose, "bytes": repeats * FRACTAL},
                  user_loc()))


# -- mmad ------------------------------------------------------------------------------------------------
_ACC = {"float16": "float32", "bfloat16": "float32", "float32": "float32", "int8": "int32", "uint8": "int32"}


def mmad(dst, fm, filter, *args, **kwargs):   # noqa: A002  (pyasc's parameter name)
    """``mmad(dst_co1, fm_a2, filter_b2[, bias], MmadParams(m, n, k, ...))``: C[m x n] = A[m x k] . B[k x n]
    (``cmatrix_init_val``) or C += A . B (``cmatrix_init_val=False``; ``is_bias=True`` likewise), A in L0A
    (ZZ), B in L0B (ZN), C in L0C (NZ, m rounded up to 16 rows). Products are exact and summed exactly, the
    sum added to C in float32 (int32 for int8) and rounded once per instruction. M = 0, N = 0 or K = 0 does
    nothing. The bias form (a C2 bias-table row) is not supported."""
    bias = None
    params = kwargs.pop("params", kwargs.pop("mmad_params", None))
    if "bias" in kwargs:
        bias = kwargs.pop("bias")
    rest = list(args)
    if rest and isinstance(rest[-1], MmadParams):
        params = rest.pop()
    if rest:
        bias = rest.pop(0)
    if kwargs or rest or not isinstance(params, MmadParams):
        raise error(TypeError, "mmad takes (dst, fm, filter[, bias], params: MmadParams)",
                    "pass asc.mmad(dst, fm, filter, asc.MmadParams(m, n, k))")
    _mmad("mmad", dst, fm, filter, bias, params)


def _mmad(name, dst, fm, filt, bias, p):
    _field_range("MmadParams", p, (("m", 0, 4095), ("n", 0, 4095), ("k", 0, 4095), ("unit_flag", 0, 3)))
    _position(name, dst, ("CO1",), "destination (dst)")
    _position(name, fm, ("A2",), "left matrix (fm)")
    _position(name, filt, ("B2",), "right matrix (filter)")
    a_t, b_t, c_t = str(fm.dtype), str(filt.dtype), str(dst.dtype)
    if a_t != b_t or a_t not in _ACC:
        raise error(TypeError, f"{name}: fm and filter must be one of {', '.join(_ACC)} alike, got {a_t} and {b_t}",
                    "load A and B with the same element type")
    if c_t != _ACC[a_t]:
        raise error(TypeError, f"{name}: {a_t} inputs accumulate into {_ACC[a_t]} in L0C, but dst is {c_t}",
                    f"declare the CO1 tensor as {_ACC[a_t]}")
    for t, unit in ((fm, FRACTAL), (filt, FRACTAL), (dst, 1024)):
        _aligned(name, t, unit)
    m, n, k = int(p.m), int(p.n), int(p.k)
    c0 = c0_of(fm)
    mp, np_, kp = -(-m // 16) * 16, -(-n // 16) * 16, -(-k // c0) * c0
    acc = not p.cmatrix_init_val and not p.cmatrix_source
    reads, writes = (), ()
    if m and n and k:
        kb = kp // 2 if name == "mmad_with_sparse" else kp      # the sparse B holds half of K
        reads = (fm.region(0, mp * kp), filt.region(0, kb * np_)) + ((dst.region(0, mp * np_),) if acc else ())
        if bias is not None:
            from .names import not_supported     # C2, the bias table, has no memory on this engine
            raise not_supported("asc.mmad with a bias tensor (TPosition.C2, the bias table)")
        writes = (dst.region(0, mp * np_),)
    _block().cube_unit_flag = int(p.unit_flag)     # what a fixpipe with unit_flag = 3 waits on
    _issue(PipeOp(name, "M", reads, writes, {"dst": dst, "fm": fm, "filter": filt, "bias": bias, "mnk": (m, n, k),
                                              "acc": acc, "unit_flag": int(p.unit_flag),
                                              "in_bytes": fm.itemsize, **mmad_modes()}, user_loc()))


# -- fixpipe ---------------------------------------------------------------------------------------------
_QUANT_IO = {QuantModes.NoQuant: (("float32", "int32"), None), QuantModes.F322F16: (("float32",), ("float16",)),
             QuantModes.F322BF16: (("float32",), ("bfloat16",)), QuantModes.DEQF16: (("int32",), ("float16",)),
             QuantModes.VDEQF16: (("int32",), ("float16",)), QuantModes.QF322B8_PRE: (("float32",), ("int8", "uint8")),
             QuantModes.VQF322B8_PRE: (("float32",), ("int8", "uint8")), QuantModes.REQ8: (("int32",), ("int8", "uint8")),
             QuantModes.VREQ8: (("int32",), ("int8", "uint8"))}
_VECTOR_QUANT = (QuantModes.VDEQF16, QuantModes.VQF322B8_PRE, QuantModes.VREQ8)


def fixpipe(dst, src, *args, **kwargs):
    """``fixpipe(dst_gm, src_co1[, cbuf_workspace], FixpipeParamsV220(...)[, config])``: ``nd_num`` NZ
    matrices of m_size x n_size from L0C (column blocks of 16 ``src_stride`` rows apart; matrices
    ``src_nd_stride`` x 1024 bytes apart) to GM, as ND rows ``dst_stride`` elements apart (``cfg_row_major``,
    matrices ``dst_nd_stride`` elements apart) or as NZ (``cfg_nz``: column blocks ``dst_stride`` 32-byte
    blocks apart), quantised by ``quant_pre`` (a scalar ``deq_scalar`` or per-column scales from the A1
    ``cbuf_workspace``) and clamped at zero with ``relu_en`` (FIX)."""
    config = kwargs.pop("config", None)
    params = kwargs.pop("params", kwargs.pop("intri_params", None))
    work = kwargs.pop("cbuf_workspace", None)
    rest = list(args)
    if rest and isinstance(rest[-1], FixpipeConfig) or (rest and callable(rest[-1]) and not isinstance(rest[-1],
                                                                                                      LocalTensor)):
        config = rest.pop()
    if rest and isinstance(rest[-1], FixpipeParamsV220):
        params = rest.pop()
    if rest:
        work = rest.pop(0)
    if kwargs or rest or not isinstance(params, FixpipeParamsV220):
        raise error(TypeError, "fixpipe takes (dst, src[, cbuf_workspace], params: FixpipeParamsV220[, config])",
                    "pass asc.fixpipe(dst_gm, src_co1, asc.FixpipeParamsV220(n, m, src_stride, dst_stride))")
    if callable(config) and not isinstance(config, FixpipeConfig):
        config = config()
    nz = config is not None and config.layout == CO2Layout.NZ
    if not isinstance(dst, GlobalTensor):
        raise error(TypeError, "fixpipe writes a GlobalTensor (the CO1 -> GM path)", "pass the GM destination")
    issue_fixpipe("fixpipe", dst, src, work, params, nz)


def issue_fixpipe(name, dst, src, work, p, nz):
    """The FIX pipe's move out of L0C (``fixpipe``, and ``data_copy`` from CO1): checks, regions, the op."""
    _position(name, src, ("CO1",), "source")
    _aligned(name, src, 64)
    _field_range("FixpipeParamsV220", p, (("n_size", 1, 4095), ("m_size", 1, 65535 if nz else 8192),
                                          ("src_stride", 0, 65535), ("dst_stride", 1, 2 ** 32 - 1),
                                          ("nd_num", 1, 65535), ("src_nd_stride", 0, 512),
                                          ("dst_nd_stride", 0, 65535), ("unit_flag", 0, 3)))
    q = QuantModes(p.quant_pre)
    ins, outs = _QUANT_IO[q]
    if str(src.dtype) not in ins or (outs is not None and str(dst.dtype) not in outs) or (
            outs is None and str(dst.dtype) != str(src.dtype)):
        want = outs[0] if outs else str(src.dtype)
        raise error(TypeError, f"fixpipe with quant_pre={q.name} converts {' / '.join(ins)} to "
                    f"{' / '.join(outs) if outs else 'the same type'}, got {src.dtype} -> {dst.dtype}",
                    f"declare the GM destination as {want}, or pick the QuantModes of this conversion")
    if nz and p.n_size % 16:
        raise error(ValueError, f"fixpipe to NZ: n_size = {p.n_size} is not a multiple of 16",
                    "write whole 16-column blocks (or write ND with cfg_row_major)")
    if q in _VECTOR_QUANT:
        if work is None:
            raise error(TypeError, f"fixpipe with quant_pre={q.name} reads per-column scales from a cbuf_workspace",
                        "pass fixpipe(dst, src, cbuf_workspace_a1_uint64, params)")
        _position("fixpipe", work, ("A1", "C1", "B1"), "cbuf_workspace")
    m, n, nd = int(p.m_size), int(p.n_size), int(p.nd_num)
    blocks = -(-n // 16)
    ssz, dsz = src.itemsize, dst.itemsize
    src_offs = [(i * int(p.src_nd_stride) * 1024 + j * int(p.src_stride) * 16 * ssz) for i in range(nd)
                for j in range(blocks)]
    reads = (_granules(src, src_offs, m * 16 * ssz),)
    if work is not None and q in _VECTOR_QUANT:
        reads += (work.region(0, n),)
    if nz:
        dst_offs = [(i * int(p.dst_nd_stride) * dsz + j * int(p.dst_stride) * 32) for i in range(nd)
                    for j in range(blocks)]
        writes = tuple(dst.region(o // dsz, o // dsz + m * 16) for o in dst_offs)
    else:
        ld = int(p.dst_stride)
        writes = tuple(dst.region(i * int(p.dst_nd_stride) + r * ld, i * int(p.dst_nd_stride) + r * ld + n)
                       for i in range(nd) for r in range(m))
        if ld == n:
            writes = tuple(dst.region(i * int(p.dst_nd_stride), i * int(p.dst_nd_stride) + m * n) for i in range(nd))
    attrs = {"dst": dst, "src": src, "work": work, "nz": nz, "m": m, "n": n, "nd": nd, "quant": q,
             "scalar": int(p.deq_scalar), "relu": bool(p.relu_en), "strides": (int(p.src_stride), int(p.dst_stride),
                                                                               int(p.src_nd_stride),
                                                                               int(p.dst_nd_stride)),
             "bytes": nd * m * n * dsz, "unit_flag": int(p.unit_flag)}
    eng = _block()
    if int(p.unit_flag) == 3:
        if getattr(eng, "cube_unit_flag", 0) not in (2, 3):
            raise error(ValueError, "fixpipe with unit_flag = 3 waits for an mmad issued with unit_flag 2 or 3, and "
                        "the last mmad has unit_flag 0: on the device the fixpipe waits for units that never come",
                        "set MmadParams(..., unit_flag=3) on the last mmad, or order M and FIX with "
                        "asc.set_flag / asc.wait_flag(asc.HardEvent.M_FIX, id) and unit_flag = 0")
        _unit_flag_sync(eng)
    eng.issue(PipeOp("fixpipe", "FIX", reads, writes, attrs, user_loc()))


def set_fix_pipe_pre_quant_flag(config):
    """The quantisation word (uint64) a ``data_copy`` from CO1 with a scalar ``quant_pre`` uses."""
    v = int(config)
    if not 0 <= v < 2 ** 64:
        raise error(ValueError, f"set_fix_pipe_pre_quant_flag({config}): the word is a uint64")
    _block().fixpipe_quant_word = v


def _unit_flag_sync(eng):
    """``unit_flag = 3`` on the fixpipe (and the mmad it reads): the hardware makes the fixpipe wait, unit by
    unit, for that mmad's results: the M -> FIX ordering a flag would give."""
    key = ("unit_flag", eng.n)
    attrs = {"key": key, "event": ("M", "FIX"), "text": "unit_flag M_FIX"}
    loc = user_loc()
    eng.issue(PipeOp("set_flag", "M", attrs=attrs, loc=loc))
    eng.issue(PipeOp("wait_flag", "FIX", attrs=attrs, loc=loc))


# -- init_const_value and the load-3D state --------------------------------------------------------------
def init_const_value(dst, params):
    """``init_const_value(dst, InitConstValueParams(repeat_times, block_num, dst_gap, init_value))``: fill
    ``repeat_times`` runs of ``block_num`` blocks with ``init_value``, ``dst_gap`` blocks between runs; a block
    is 32 bytes in A1 / B1 and a 512-byte fractal in A2 / B2; block_num = 0 fills one fractal per repeat (the
    short form). MTE2 into L1, MTE1 into L0."""
    _position("init_const_value", dst, ("A1", "B1", "A2", "B2", "C1"), "destination")
    p = params
    _field_range("InitConstValueParams", p, (("repeat_times", 0, 32767), ("block_num", 0, 32767),
                                             ("dst_gap", 0, 32767)))
    from .tensors import scalar_fits
    scalar_fits("init_const_value", p.init_value, dst.dtype)
    l0 = dst.space in ("L0A", "L0B")
    _aligned("init_const_value", dst, FRACTAL if l0 else 32)
    unit = FRACTAL if l0 else 32
    run = int(p.block_num) * unit if int(p.block_num) else FRACTAL
    step = run + int(p.dst_gap) * unit
    writes = tuple(Region(dst.space, dst.buf, dst.addr + i * step, dst.addr + i * step + run, position=dst.position,
                          owner=dst.owner) for i in range(int(p.repeat_times)))
    _issue(PipeOp("init_const_value", "MTE1" if l0 else "MTE2", (), writes,
                  {"dst": dst, "value": p.init_value, "runs": [(i * step, run) for i in range(int(p.repeat_times))],
                   "bytes": run * int(p.repeat_times)}, user_loc()))


def _load3d_state(name, **values):
    blk = _block()
    blk.__dict__.setdefault("load3d_state", {}).update(values)


def set_load_data_boundary(boundary):
    """The L1 boundary load-3D instructions wrap at (kept for them; no 2-D load reads it)."""
    if int(boundary) < 0:
        raise error(ValueError, f"set_load_data_boundary({boundary}): the boundary is unsigned")
    _load3d_state("set_load_data_boundary", boundary=int(boundary))


def set_load_data_padding_value(pad_value):
    _load3d_state("set_load_data_padding_value", pad_value=pad_value)


def set_load_data_repeat(param):
    if not isinstance(param, LoadDataRepeatParam):
        raise error(TypeError, "set_load_data_repeat takes a LoadDataRepeatParam")
    _field_range("LoadDataRepeatParam", param, (("repeat_time", 0, 255), ("repeat_stride", 0, 65535),
                                                ("repeat_mode", 0, 1)))
    _load3d_state("set_load_data_repeat", repeat=param)


# -- costs: the platform's cube mechanisms ---------------------------------------------------------------
def _load_cost(op, hw):
    if op.pipe == "MTE2":
        return ("MTE2", hw.dma_busy(len(op.attrs["moves"]), FRACTAL), hw.mte2_latency)
    return ("MTE1", hw.l0_load_busy(op.attrs["bytes"]))


def _nd2nz_cost(op, hw):
    runs, each = op.attrs["runs"]
    if op.pipe == "MTE2":
        return ("MTE2", hw.dma_busy(runs, each), hw.mte2_latency)
    return ("MTE3", hw.dma_busy(runs, each, store=True))


def _mmad_cost(op, hw):
    m, n, k = op.attrs["mnk"]
    return ("M", hw.mmad_busy(m, k, n, op.attrs["in_bytes"]) if m and n and k else hw.scalar_op)


def _init_cost(op, hw):
    return (op.pipe, hw.l0_load_busy(op.attrs["bytes"]))


define("v1.data_copy_nd2nz", cost=_nd2nz_cost, dma=True)
define("v1.load_data", cost=_load_cost)
define("v1.mmad", cost=_mmad_cost)
define("v1.fixpipe", cost=lambda op, hw: ("FIX", hw.fixpipe_busy(op.attrs["bytes"])))
define("v1.init_const_value", cost=_init_cost)

EXPORTS = ("load_data load_data_with_transpose mmad fixpipe init_const_value set_load_data_boundary "
           "set_fix_pipe_pre_quant_flag "
           "set_load_data_padding_value set_load_data_repeat QuantModes CO2Layout FixpipeConfig LoadData2DParams "
           "LoadData2dTransposeParams LoadDataRepeatParam MmadParams FixpipeParamsV220 Nd2NzParams "
           "InitConstValueParams").split()

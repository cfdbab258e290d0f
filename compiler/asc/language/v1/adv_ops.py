"""``asc.adv`` row operations: ``rmsnorm`` (with ``RmsNormTiling``), ``swiglu``, ``softmax_flash_v2`` (with
``SoftMaxShapeInfo`` / ``SoftmaxConfig``), and the sort helpers ``concat`` / ``extract``. Each is one op on V
over UB tensors; values are float64 references rounded once per output (``sim.pipes.adv_compute``).

Sort format (Atlas A2 / A3, Ascend C's ``Sort``): one 8-byte entry per element, the score in its first
bytes (a half score in the low 2 of 4) and the uint32 index in its last 4. ``concat`` writes 16 scores per
repeat into the entries' score fields, ``extract`` reads 32 entries per repeat back into values and indices."""
from __future__ import annotations

import math

from ...ir.pipe_ops import PipeOp, user_loc
from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from .adv_math import UB
from .enums import SoftmaxMode
from .struct import Field, Struct
from .tensors import LocalTensor, _block


class RmsNormTiling(Struct):
    """Ascend C's RmsNormTiling: the engine reads b_length, s_length, h_length (row stride) and
    original_h_length (the row's real length; 0: h_length)."""
    b_length = Field(dt.int32, 0)
    s_length = Field(dt.int32, 0)
    h_length = Field(dt.int32, 0)
    original_h_length = Field(dt.int32, 0)
    reciprocal_of_h_length = Field(dt.float32, 0.0)
    main_bsh_length = Field(dt.int32, 0)
    main_bs_length = Field(dt.int32, 0)
    main_bs_length_align = Field(dt.int32, 0)
    loop_round = Field(dt.int32, 0)
    input_tail_pos = Field(dt.int32, 0)
    tail_bsh_length = Field(dt.int32, 0)
    tail_bs_length = Field(dt.int32, 0)


class SoftMaxShapeInfo:
    def __init__(self, src_m=0, src_k=0, ori_src_m=0, ori_src_k=0):
        self.src_m, self.src_k, self.ori_src_m, self.ori_src_k = int(src_m), int(src_k), int(ori_src_m), int(ori_src_k)


class SoftmaxConfig:
    def __init__(self, check_tiling=True, src_m=0, src_k=0, mode=SoftmaxMode.SOFTMAX_NORMAL):
        self.check_tiling, self.src_m, self.src_k, self.mode = bool(check_tiling), int(src_m), int(src_k), mode


def _ub(name, role, t, dtypes=("float16", "float32")):
    if not isinstance(t, LocalTensor) or t.position not in UB:
        raise error(TypeError, f"asc.adv.{name}: {role} must be a LocalTensor at VECIN / VECOUT / VECCALC, got "
                    f"{getattr(t, 'position', type(t).__name__)}", "pass UB tensors (TQue / TBuf buffers)")
    if dtypes and str(t.dtype) not in dtypes:
        raise error(TypeError, f"asc.adv.{name}: {role} is {t.dtype}; it takes {' / '.join(dtypes)}")


def _need(name, role, t, n):
    if t.size < n:
        raise error(ValueError, f"asc.adv.{name}: {role} holds {t.size} elements, the call reads or writes {n}",
                    f"size {role} for {n} elements")


def _issue(name, reads, writes, attrs, weight="rms_norm"):
    attrs.update(op=name, weight=weight)
    _block().issue(PipeOp("adv_rows", "V", reads, writes, attrs, user_loc()))


def rmsnorm(dst, src, gamma, epsilon, tiling, temp_buffer=None, basic_block=False):
    """dst[r, :] = src[r, :] / sqrt(mean(src[r, :h]^2) + epsilon) * gamma for the b x s rows of h_length
    elements (the mean over original_h_length)."""
    for role, t in (("dst", dst), ("src", src), ("gamma", gamma)):
        _ub("rmsnorm", role, t)
    if not isinstance(tiling, RmsNormTiling):
        raise error(TypeError, "asc.adv.rmsnorm takes an asc.adv.RmsNormTiling", "fill an RmsNormTiling on the host")
    rows, h = int(tiling.b_length) * int(tiling.s_length), int(tiling.h_length)
    real = int(tiling.original_h_length) or h
    if rows <= 0 or h <= 0 or real > h:
        raise error(ValueError, f"asc.adv.rmsnorm: the tiling gives {tiling.b_length} x {tiling.s_length} rows of "
                    f"h_length {h} (original {real})", "set b_length, s_length, h_length >= original_h_length > 0")
    for role, t, n in (("src", src, rows * h), ("dst", dst, rows * h), ("gamma", gamma, h)):
        _need("rmsnorm", role, t, n)
    _issue("rmsnorm", (src.region(0, rows * h), gamma.region(0, h)), (dst.region(0, rows * h),),
           {"dst": dst, "src": src, "gamma": gamma, "eps": float(epsilon), "rows": rows, "h": h, "real": real,
            "count": rows * h})


def swiglu(dst_tensor, src_tensor0, src_tensor1, scalar_value=1.0, shared_tmp_buffer=None, cal_count=None):
    """dst = src0 * src1 / (1 + exp(-scalar_value * src1))."""
    for role, t in (("dst_tensor", dst_tensor), ("src_tensor0", src_tensor0), ("src_tensor1", src_tensor1)):
        _ub("swiglu", role, t)
    n = min(dst_tensor.size, src_tensor0.size, src_tensor1.size) if cal_count is None else int(cal_count)
    for role, t in (("dst_tensor", dst_tensor), ("src_tensor0", src_tensor0), ("src_tensor1", src_tensor1)):
        _need("swiglu", role, t, n)
    _issue("swiglu", (src_tensor0.region(0, n), src_tensor1.region(0, n)), (dst_tensor.region(0, n),),
           {"dst": dst_tensor, "a": src_tensor0, "b": src_tensor1, "beta": float(scalar_value), "count": n}, "exp")


def softmax_flash_v2(dst_tensor, exp_sum_tensor, max_tensor, src_tensor, exp_max_tensor, in_exp_sum_tensor,
                     in_max_tensor, tiling=None, softmax_shape_info=None, shared_tmp_buffer=None, out_reduce_max=None,
                     is_update=False, is_reuse_source=False, is_basic_block=False, is_data_format_nz=False,
                     config=None):
    """FlashAttention-2's update over the rows of src [m, k]: m' = max(in_max, rowmax(src)) (rowmax alone
    without ``is_update``), dst = exp(src - m'), exp_max = exp(in_max - m'), exp_sum = exp_max * in_exp_sum +
    rowsum(dst) (rowsum alone without ``is_update``), max = m'. The per-row tensors hold each row's value
    broadcast over 32 bytes ([m, 32 / sizeof])."""
    if is_data_format_nz:
        from .names import not_supported
        raise not_supported("asc.adv.softmax_flash_v2 with is_data_format_nz=True")
    tensors = (("dst_tensor", dst_tensor), ("exp_sum_tensor", exp_sum_tensor), ("max_tensor", max_tensor),
               ("src_tensor", src_tensor), ("exp_max_tensor", exp_max_tensor),
               ("in_exp_sum_tensor", in_exp_sum_tensor), ("in_max_tensor", in_max_tensor))
    for role, t in tensors:
        _ub("softmax_flash_v2", role, t)
    if softmax_shape_info is not None:
        m, k = softmax_shape_info.src_m, softmax_shape_info.src_k
    elif src_tensor.shape and len(src_tensor.shape) == 2:
        m, k = src_tensor.shape
    else:
        m, k = 1, src_tensor.size
    per = 32 // exp_sum_tensor.itemsize
    for role, t, n in (("src_tensor", src_tensor, m * k), ("dst_tensor", dst_tensor, m * k),
                       ("exp_sum_tensor", exp_sum_tensor, m * per), ("max_tensor", max_tensor, m * per),
                       ("exp_max_tensor", exp_max_tensor, m * per), ("in_exp_sum_tensor", in_exp_sum_tensor, m * per),
                       ("in_max_tensor", in_max_tensor, m * per)):
        _need("softmax_flash_v2", role, t, n)
    reads = (src_tensor.region(0, m * k),)
    if is_update:
        reads += (in_exp_sum_tensor.region(0, m * per), in_max_tensor.region(0, m * per))
    writes = (dst_tensor.region(0, m * k), exp_sum_tensor.region(0, m * per), max_tensor.region(0, m * per))
    if is_update:
        writes += (exp_max_tensor.region(0, m * per),)
    _issue("softmax_flash_v2", reads, writes,
           {"dst": dst_tensor, "sum": exp_sum_tensor, "max": max_tensor, "src": src_tensor,
            "exp_max": exp_max_tensor, "in_sum": in_exp_sum_tensor, "in_max": in_max_tensor, "m": int(m),
            "k": int(k), "per": per, "update": bool(is_update), "count": int(m) * int(k)}, "softmax")


def concat(dst, src, tmp, repeat_time):
    """Scores of 16 x repeat_time elements into the score fields of ``dst``'s sort entries (8 bytes each)."""
    _ub("concat", "dst", dst)
    _ub("concat", "src", src)
    r = int(repeat_time)
    if not 0 <= r <= 255:
        raise error(ValueError, f"asc.adv.concat: repeat_time {r} is outside [0, 255]")
    n = 16 * r
    per = 8 // dst.itemsize
    _need("concat", "src", src, n)
    _need("concat", "dst", dst, n * per)
    _issue("concat", (src.region(0, n),), (dst.region(0, n * per),), {"dst": dst, "src": src, "n": n, "per": per,
                                                                      "count": n}, None)


def extract(dst_value, dst_index, src, repeat_time):
    """Values and uint32 indices of 32 x repeat_time sort entries of ``src``."""
    _ub("extract", "dst_value", dst_value)
    _ub("extract", "dst_index", dst_index, ("uint32",))
    _ub("extract", "src", src)
    r = int(repeat_time)
    if not 0 <= r <= 255:
        raise error(ValueError, f"asc.adv.extract: repeat_time {r} is outside [0, 255]")
    n = 32 * r
    per = 8 // src.itemsize
    _need("extract", "src", src, n * per)
    _need("extract", "dst_value", dst_value, n)
    _need("extract", "dst_index", dst_index, n)
    _issue("extract", (src.region(0, n * per),), (dst_value.region(0, n), dst_index.region(0, n)),
           {"value": dst_value, "index": dst_index, "src": src, "n": n, "per": per, "count": n}, None)


def _cost(op, hw):
    a = op.attrs
    repeats = math.ceil(a["count"] * 4 / hw.vector_bytes)
    return ("V", hw.vector_busy(max(1, repeats), a["weight"]))


define("v1.adv_rows", cost=_cost)

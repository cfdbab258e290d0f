"""pyasc's v1 language (``asc.GlobalTensor``, ``asc.data_copy``, ``asc.set_flag``, ``asc.TQue``, ...):
Ascend C instructions in Python, each one a ``PipeOp`` on its pipe (``asc.ir.pipe_ops``)."""
from __future__ import annotations

from .enums import (CacheMode, CacheRwMode, Hardware, HardEvent, PipeID, TPosition, property, DEFAULT_C0_SIZE, ONE_BLK_SIZE,  # noqa: F401
                    TOTAL_L0C_SIZE, TOTAL_L1_SIZE, TOTAL_UB_SIZE, MaskMode, GatherMaskMode, CMPMODE, SelMode,
                    ReduceOrder, RoundMode, TransposeType, AtomicDtype, AtomicOp, BlockMode, DeqScale, pad_t,
                    DataFormat, SoftmaxMode, AippInputFormat)
from .tensors import GlobalTensor, LocalTensor, LocalTensorAuto, ShapeInfo, array, get_shape_size  # noqa: F401
from .params import (DataCopyParams, BinaryRepeatParams, UnaryRepeatParams, GatherRepeatParams,  # noqa: F401
                     BrcbRepeatParams, GatherMaskParams, TransposeParamsExt, TransDataTo5HDParams,
                     CopyRepeatParams, DataCopyExtParams, DataCopyPadExtParams, DataCopyPadParams,
                     DataCopyEnhancedParams, SliceInfo, CheckLocalMemoryIAParam, VdeqInfo)
from .addressing import set_mask_count, set_mask_norm, set_vector_mask, reset_mask  # noqa: F401
from .data_movement import (data_copy, data_copy_pad, copy, set_atomic_add, set_atomic_max,  # noqa: F401
                            set_atomic_min, set_atomic_none, set_atomic_type, set_store_atomic_config,
                            get_store_atomic_config, set_pad_value)
from .scalar_unit import (scalar_cast, scalar_get_sff_value, scalar_get_count_of_value,  # noqa: F401
                          scalar_count_leading_zero, count_bits_cnt_same_as_sign_bit)
from .sync import set_flag, wait_flag, pipe_barrier  # noqa: F401
from .binary import (add, sub, mul, div, max, min, add_relu, sub_relu, bitwise_and, bitwise_or,  # noqa: F401
                     fused_mul_add, mul_add_dst, fused_mul_add_relu)
from .unary import exp, sqrt, abs, relu, ln, reciprocal, rsqrt, bitwise_not  # noqa: F401
from .scalar import adds, muls, leaky_relu, maxs, mins, axpy, shift_left, shift_right, duplicate  # noqa: F401
from .gather import (bilinear_interpolation, gather, scatter, gatherb, brcb, gather_mask,  # noqa: F401
                     get_gather_mask_remain_count)
from .reduce import (whole_reduce_max, whole_reduce_min, whole_reduce_sum, block_reduce_max,  # noqa: F401
                     block_reduce_min, block_reduce_sum, pair_reduce_sum, repeat_reduce_sum, reduce_max,
                     reduce_min, reduce_sum)
from .conversion import (cast, cast_deq, set_deq_scale, add_deq_relu, add_relu_cast, sub_relu_cast,  # noqa: F401
                         mul_cast)
from .transpose import transpose, trans_data_to_5hd  # noqa: F401
from .sort import (sort32, sort, mrg_sort, get_mrg_sort_result, get_sort_len, get_sort_offset,  # noqa: F401
                   MrgSortSrcList, MrgSort4Info)
from .proposal import proposal_concat, proposal_extract, rp_sort16, mrg_sort4  # noqa: F401
from .compare_select import compare, compare_scalar, select, get_cmp_mask, set_cmp_mask  # noqa: F401
from .fwk import TPipe, TQue, TQueBind, TBuf, TBufPool, PipeHangError, get_tpipe_ptr  # noqa: F401
from .allocator import LocalMemAllocator  # noqa: F401
from .system import *  # noqa: F401,F403  (system.NAMES)
from . import system as _system
from .struct import Struct, Field, StructField  # noqa: F401
from .matmul_types import CubeFormat, LayoutMode, IterateOrder  # noqa: F401
from .cores import ascend_is_aic, ascend_is_aiv  # noqa: F401
from .cube import *  # noqa: F401,F403
from .cube import EXPORTS as _CUBE_EXPORTS
from .cube_state import set_hf32_mode, set_hf32_trans_mode, set_mm_layout_transform  # noqa: F401
from .cube_extra import load_data_with_sparse, mmad_with_sparse  # noqa: F401  (and the further load / copy forms)
from .cube_params import (LoadData2dTransposeParamsV2, LoadData3DParamsV2, DataCopyCO12DstParams,  # noqa: F401
                          Nz2NdParamsFull, LoadData2DParamsV2, LoadData3DParamsV1, LoadData3DParamsV2Pro)
from .matmul_config import BatchMode, BatchOutMode, IterateMode, MatmulConfigMode, ScheduleType  # noqa: F401
from .list_tensor import ListTensorDesc, TensorDesc  # noqa: F401
from .verbatim import inline  # noqa: F401
from .block_sync import (ib_set, ib_wait, notify_next_block, wait_pre_block, cross_core_set_flag,  # noqa: F401
                         cross_core_wait_flag)
from .names import UPSTREAM_NAMES, UPSTREAM_ADV_NAMES, not_supported  # noqa: F401

EXPORTS = ("CacheMode CacheRwMode Hardware HardEvent PipeID TPosition property DEFAULT_C0_SIZE ONE_BLK_SIZE TOTAL_L0C_SIZE TOTAL_L1_SIZE "
           "TOTAL_UB_SIZE GlobalTensor LocalTensor LocalTensorAuto ShapeInfo array DataCopyParams "
           "BinaryRepeatParams UnaryRepeatParams GatherRepeatParams BrcbRepeatParams GatherMaskParams "
           "MaskMode GatherMaskMode CMPMODE SelMode ReduceOrder RoundMode "
           "set_mask_count set_mask_norm set_vector_mask reset_mask "
           "data_copy data_copy_pad set_pad_value copy set_atomic_add set_atomic_max set_atomic_min set_atomic_none "
           "set_atomic_type "
           "CopyRepeatParams DataCopyExtParams DataCopyPadExtParams DataCopyPadParams set_flag wait_flag pipe_barrier "
           "add sub mul div max min add_relu sub_relu bitwise_and bitwise_or fused_mul_add mul_add_dst "
           "fused_mul_add_relu "
           "exp sqrt abs relu ln reciprocal rsqrt bitwise_not "
           "adds muls leaky_relu maxs mins axpy shift_left shift_right duplicate "
           "bilinear_interpolation gather scatter gatherb brcb gather_mask get_gather_mask_remain_count "
           "whole_reduce_max whole_reduce_min whole_reduce_sum block_reduce_max block_reduce_min block_reduce_sum "
           "pair_reduce_sum repeat_reduce_sum reduce_max reduce_min reduce_sum "
           "cast cast_deq set_deq_scale add_deq_relu add_relu_cast sub_relu_cast mul_cast "
           "compare compare_scalar select get_cmp_mask set_cmp_mask transpose trans_data_to_5hd TransposeType "
           "TransposeParamsExt TransDataTo5HDParams "
           "TPipe TQue TQueBind TBuf TBufPool LocalMemAllocator get_tpipe_ptr Struct Field StructField CubeFormat LayoutMode IterateOrder "
           "set_store_atomic_config get_store_atomic_config AtomicDtype AtomicOp scalar_cast scalar_get_sff_value "
           "scalar_get_count_of_value scalar_count_leading_zero count_bits_cnt_same_as_sign_bit "
           "sort32 sort mrg_sort get_mrg_sort_result get_sort_len get_sort_offset MrgSortSrcList MrgSort4Info "
           "proposal_concat proposal_extract rp_sort16 mrg_sort4 "
           "ascend_is_aic ascend_is_aiv").split() + _system.NAMES + _CUBE_EXPORTS + [
    "LoadData2dTransposeParamsV2", "LoadData3DParamsV2", "LoadData2DParamsV2", "DataCopyCO12DstParams", "Nz2NdParamsFull",
    "load_data_with_sparse", "mmad_with_sparse", "BatchMode", "BatchOutMode",
    "IterateMode", "MatmulConfigMode", "ScheduleType",
    "BlockMode", "DeqScale", "pad_t", "DataFormat", "SoftmaxMode", "AippInputFormat", "get_shape_size",
    "DataCopyEnhancedParams", "SliceInfo", "CheckLocalMemoryIAParam", "VdeqInfo", "LoadData3DParamsV1",
    "LoadData3DParamsV2Pro", "set_hf32_mode", "set_hf32_trans_mode", "set_mm_layout_transform",
    "ListTensorDesc", "TensorDesc", "inline", "ib_set", "ib_wait", "notify_next_block", "wait_pre_block",
    "cross_core_set_flag", "cross_core_wait_flag"]
__all__ = list(EXPORTS)

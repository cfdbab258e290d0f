"""Names of pyasc's v1 API this engine does not implement (yet): using one fails with a clear message."""
from __future__ import annotations

from ..core.errors import error

UPSTREAM_NAMES = frozenset("""
add_deq_relu add_relu add_relu_cast AippChannelPaddingParams AippColorSpaceConvParams AippDataTypeConvParams
AippInputFormat AippPaddingParams AippParams AippSingleLineParams AippSwapParams AtomicDtype AtomicOp
bitwise_and bitwise_not bitwise_or block_reduce_max block_reduce_min block_reduce_sum BlockMode brcb
BrcbRepeatParams cast cast_deq CheckLocalMemoryIAParam CMPMODE compare compare_scalar copy CopyRepeatParams
cross_core_set_flag cross_core_wait_flag data_copy_pad DataCopyEnhancedParams DataCopyExtParams
DataCopyPadExtParams DataCopyPadParams DataFormat DeqScale fused_mul_add fused_mul_add_relu gather gather_mask
gatherb GatherMaskMode GatherMaskParams GatherRepeatParams get_cmp_mask get_gather_mask_remain_count
get_mrg_sort_result get_shape_size get_sort_len get_sort_offset get_store_atomic_config ib_set ib_wait inline
ListTensorDesc load_image_to_local LoadData3DParamsV1 LoadData3DParamsV2Pro LoadImageToLocalParams MaskMode
mrg_sort mrg_sort4 MrgSort4Info MrgSortSrcList mul_add_dst mul_cast notify_next_block pad_t pair_reduce_sum
proposal_concat proposal_extract reduce_max reduce_min reduce_sum ReduceOrder repeat_reduce_sum reset_mask
RoundMode rp_sort16 scalar_cast scatter select SelMode set_aipp_functions set_atomic_add set_atomic_max
set_atomic_min set_atomic_none set_atomic_type set_cmp_mask set_deq_scale set_hf32_mode set_hf32_trans_mode
set_mask_count set_mask_norm set_mm_layout_transform set_pad_value set_store_atomic_config set_vector_mask
shift_left shift_right SliceInfo sort sort32 static_assert sub_relu sub_relu_cast TensorDesc trans_data_to_5hd
TransDataTo5HDParams transpose TransposeParamsExt TransposeType VdeqInfo wait_pre_block whole_reduce_max
whole_reduce_min whole_reduce_sum
""".split())

UPSTREAM_ADV_NAMES = frozenset()     # every name of upstream's asc.adv __all__ is implemented


class NotSupportedByEngineError(AttributeError):
    """A pyasc v1 name this engine does not implement."""


def not_supported(qualified):
    from ...ir.pipe_ops import user_loc
    loc = user_loc()
    where = f"{loc[0]}:{loc[1]}: " if loc else ""
    return error(NotSupportedByEngineError, f"{where}{qualified} is not supported by this engine",
                 "the embedded engine runs pyasc's vector API (docs/simulator.md lists what is implemented); "
                 "run this kernel with a CANN toolkit and pyasc")

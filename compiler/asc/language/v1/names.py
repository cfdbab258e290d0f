"""Names of pyasc's v1 API this engine does not implement (yet): using one fails with a clear message."""
from __future__ import annotations

from ..core.errors import error

UPSTREAM_NAMES = frozenset("""
data_sync_barrier cross_core_set_flag cross_core_wait_flag ib_set ib_wait sync_all
data_cache_clean_and_invalid get_icache_preload_status icache_preload
check_local_memory_ia data_cache_preload get_hccl_context get_sys_workspace
init_soc_state set_aipp_functions set_hccl_context set_hf32_mode set_hf32_trans_mode
set_mm_layout_transform set_sys_workspace
load_image_to_local notify_next_block wait_pre_block
dump_acc_chk_point dump_tensor printf print_time_stamp metrics_prof_start metrics_prof_stop fixpipe
set_fix_pipe_pre_quant_flag TensorDesc ListTensorDesc init_const_value load_data load_data_with_sparse
load_data_with_transpose mmad mmad_with_sparse set_load_data_boundary set_load_data_padding_value
set_load_data_repeat
get_arch_version get_data_block_size_in_bytes get_program_counter
get_sub_block_idx get_sub_block_num get_system_cycle get_task_ratio trap
get_sort_len get_sort_offset
mrg_sort4 proposal_concat proposal_extract rp_sort16 sort
AippInputFormat BlockMode CacheLine CacheMode CacheRwMode CO2Layout
DataFormat DcciDst DeqScale Hardware MemDsbT pad_t
BatchMode IterateMode ScheduleType QuantModes MatmulConfigMode
LocalMemAllocator inline CheckLocalMemoryIAParam
DataCopyEnhancedParams
FixpipeConfig FixpipeParamsV220 InitConstValueParams LoadData2DParams
LoadImageToLocalParams MmadParams Nd2NzParams SliceInfo
Nz2NdParamsFull DataCopyCO12DstParams LoadData2DParamsV2 LoadData2dTransposeParams LoadData2dTransposeParamsV2
LoadData3DParamsV1 LoadData3DParamsV2 LoadData3DParamsV2Pro LoadDataRepeatParam get_shape_size VdeqInfo
AippParams AippPaddingParams AippSwapParams AippSingleLineParams AippDataTypeConvParams
AippChannelPaddingParams AippColorSpaceConvParams static_assert TBufPool TQueBind
""".split())

UPSTREAM_ADV_NAMES = frozenset("""
acos acosh asin asinh atan atanh ceil cos cosh digamma erf erfc exp floor frac lgamma log round sign sin sinh
tan tanh trunc power xor axpy get_matmul_api_tiling get_basic_config get_ib_share_norm_config
get_mdl_config get_mm_config get_normal_config get_special_basic_config get_special_mdl_config
rmsnorm concat extract MatmulApiStaticTiling RmsNormTiling MatmulBatchParams
MatmulFuncParams MatmulQuantParams MatmulShapeParams
""".split())


class NotSupportedByEngineError(AttributeError):
    """A pyasc v1 name this engine does not implement."""


def not_supported(qualified):
    from ...ir.pipe_ops import user_loc
    loc = user_loc()
    where = f"{loc[0]}:{loc[1]}: " if loc else ""
    return error(NotSupportedByEngineError, f"{where}{qualified} is not supported by this engine",
                 "the embedded engine runs pyasc's vector API (docs/simulator.md lists what is implemented); "
                 "run this kernel with a CANN toolkit and pyasc")

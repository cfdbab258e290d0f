"""Matmul configurations (pyasc ``asc.adv``): ``MatmulConfig`` with upstream's fields and defaults, the
getters that build one per Ascend C template (``get_normal_config``, ``get_mdl_config``, ...), the parameter
groups ``get_mm_config`` combines, and ``get_matmul_api_tiling`` (a constant ``MatmulApiStaticTiling`` from a
configuration's fixed shapes). The engine runs every template's numerics as the normal one; what a
configuration fixes (basic block, single-core shape, iterate order) is read where the Matmul uses it."""
from __future__ import annotations

import enum

from ..core import dtype as dt
from .matmul_types import IterateOrder
from .struct import Field, Struct


class BatchMode(enum.IntEnum):
    NONE = 0
    BATCH_LESS_THAN_L1 = 1
    BATCH_LARGE_THAN_L1 = 2
    SINGLE_LARGE_THAN_L1 = 3


class IterateMode(enum.IntEnum):
    ITERATE_MODE_NORMAL = 0b00000001
    ITERATE_MODE_ALL = 0b00000010
    ITERATE_MODE_BATCH = 0b00000100
    ITERATE_MODE_N_BATCH = 0b00001000
    ITERATE_MODE_DEFAULT = 0b11111111


class ScheduleType(enum.IntEnum):
    INNER_PRODUCT = 0
    OUTER_PRODUCT = 1


class MatmulConfigMode(enum.IntEnum):
    CONFIG_NORM = 1
    CONFIG_MDL = 2
    CONFIG_SPECIALMDL = 3
    CONFIG_IBSHARE = 4


class BatchOutMode(enum.IntEnum):
    SINGLE_BATCH = 0
    MULTI_BATCH = 1
    DYNAMIC = 2


_DEFAULTS = dict(
    do_norm=True, do_basic_block=False, do_multi_data_load=False, basic_m=0, basic_n=0, basic_k=0,
    intrinsics_check=False, is_n_batch=False, en_vec_nd2nz=False, do_special_basic_block=False, do_mte2_preload=0,
    single_core_m=0, single_core_n=0, single_core_k=0, step_m=0, step_n=0, base_mn=0, single_core_mn=0,
    en_unit_flag=True, is_per_tensor=False, has_anti_quant_offset=False, do_ib_share_norm=False,
    do_special_mdl=False, enable_init=True, batch_mode=BatchMode.BATCH_LESS_THAN_L1, enable_end=True,
    enable_get_tensor_c=True, enable_set_org_shape=True, enable_set_bias=True, enable_set_tail=True,
    enable_quant_vector=True, enable_set_define_data=True, iterate_mode=IterateMode.ITERATE_MODE_DEFAULT,
    enable_reuse=True, enable_ub_reuse=False, enable_l1_cache_ub=False, intra_block_part_sum=False,
    iterate_order=IterateOrder.UNDEF, schedule_type=ScheduleType.INNER_PRODUCT, enable_double_cache=0,
    is_bias_batch=True, enable_static_pad_zeros=False, is_partial_output=False, enable_mix_dual_master=False,
    is_a2b2_shared=False, is_enable_channel_split=False, enable_kdim_reorder_load=False, is_co1_shared=False,
    shared_co1_buffer_size=64 * 1024, batch_out_mode=BatchOutMode.SINGLE_BATCH)


class MatmulConfig:
    """``MatmulConfig(do_norm=True, do_basic_block=False, ...)``: upstream's fields, by position or keyword."""

    def __init__(self, *args, **kwargs):
        names = list(_DEFAULTS)
        if len(args) > len(names):
            raise TypeError(f"MatmulConfig takes at most {len(names)} positional arguments")
        values = dict(_DEFAULTS)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in _DEFAULTS:
                raise TypeError(f"MatmulConfig has no field {k!r}")
            values[k] = v
        self.__dict__.update(values)

    def template(self):
        """The Ascend C template this configuration selects (for reports)."""
        if self.do_special_mdl:
            return "SPECIAL_MDL"
        if self.do_ib_share_norm:
            return "IBSHARE_NORM"
        if self.do_special_basic_block:
            return "SPECIAL_BASIC_BLOCK"
        if self.do_basic_block:
            return "BASIC_BLOCK"
        return "NORM" if self.do_norm else "MDL"

    def __repr__(self):
        return f"MatmulConfig({self.template()})"


def get_normal_config(intrinsics_limit=False, batch_loop=False, is_vec_nd2_nz=False,
                      bmm_mode=BatchMode.BATCH_LESS_THAN_L1, is_msg_reuse=True, iterate_order=IterateOrder.ORDER_M,
                      schedule_type=ScheduleType.INNER_PRODUCT, en_unit_flag=True):
    return MatmulConfig(do_norm=True, intrinsics_check=bool(intrinsics_limit), is_n_batch=bool(batch_loop),
                        en_vec_nd2nz=bool(is_vec_nd2_nz), batch_mode=BatchMode(bmm_mode), enable_reuse=is_msg_reuse,
                        iterate_order=IterateOrder(iterate_order), schedule_type=ScheduleType(schedule_type),
                        en_unit_flag=en_unit_flag)


def get_mdl_config(intrinsics_limit=False, batch_loop=False, do_mte2_preload=0, is_vec_nd2_nz=False,
                   is_per_tensor=False, has_anti_quant_offset=False, en_unit_flag=False, is_msg_reuse=True,
                   enable_ub_reuse=True, enable_l1_cache_ub=False, enable_mix_dual_master=False,
                   enable_kdim_reorder_load=False):
    return MatmulConfig(do_norm=False, intrinsics_check=bool(intrinsics_limit), is_n_batch=bool(batch_loop),
                        do_mte2_preload=int(do_mte2_preload), en_vec_nd2nz=bool(is_vec_nd2_nz),
                        is_per_tensor=bool(is_per_tensor), has_anti_quant_offset=bool(has_anti_quant_offset),
                        en_unit_flag=bool(en_unit_flag), enable_reuse=bool(is_msg_reuse),
                        enable_ub_reuse=bool(enable_ub_reuse), enable_l1_cache_ub=bool(enable_l1_cache_ub),
                        enable_mix_dual_master=bool(enable_mix_dual_master),
                        enable_kdim_reorder_load=bool(enable_kdim_reorder_load))


def get_special_mdl_config(intrinsics_limit=False, batch_loop=False, do_mte2_pre_load=0, is_vec_nd2_nz=False,
                           is_per_tensor=False, has_anti_quant_offset=False):
    return MatmulConfig(do_norm=False, do_special_mdl=True, intrinsics_check=bool(intrinsics_limit),
                        is_n_batch=bool(batch_loop), do_mte2_preload=int(do_mte2_pre_load),
                        en_vec_nd2nz=bool(is_vec_nd2_nz), is_per_tensor=bool(is_per_tensor),
                        has_anti_quant_offset=bool(has_anti_quant_offset))


def get_basic_config(basic_m, basic_n, basic_k, intrinsics_limit=False, batch_loop=False,
                     bmm_mode=BatchMode.BATCH_LESS_THAN_L1):
    return MatmulConfig(do_norm=False, do_basic_block=True, basic_m=int(basic_m), basic_n=int(basic_n),
                        basic_k=int(basic_k), intrinsics_check=bool(intrinsics_limit), is_n_batch=bool(batch_loop),
                        batch_mode=BatchMode(bmm_mode))


def get_special_basic_config(basic_m, basic_n, basic_k, single_core_m, single_core_n, single_core_k, step_m, step_n,
                             intrinsics_limit=False, batch_loop=False, bmm_mode=BatchMode.BATCH_LESS_THAN_L1):
    return MatmulConfig(do_norm=False, do_special_basic_block=True, basic_m=int(basic_m), basic_n=int(basic_n),
                        basic_k=int(basic_k), single_core_m=int(single_core_m), single_core_n=int(single_core_n),
                        single_core_k=int(single_core_k), step_m=int(step_m), step_n=int(step_n),
                        intrinsics_check=bool(intrinsics_limit), is_n_batch=bool(batch_loop),
                        batch_mode=BatchMode(bmm_mode))


def get_ib_share_norm_config(intrinsics_limit=False, batch_loop=False, is_vec_nd2_nz=False,
                             bmm_mode=BatchMode.BATCH_LESS_THAN_L1, is_double_cache=False, en_unit_flag=True):
    return MatmulConfig(do_norm=False, do_ib_share_norm=True, intrinsics_check=bool(intrinsics_limit),
                        is_n_batch=bool(batch_loop), en_vec_nd2nz=bool(is_vec_nd2_nz), batch_mode=BatchMode(bmm_mode),
                        enable_double_cache=int(bool(is_double_cache)), en_unit_flag=bool(en_unit_flag))


class MatmulShapeParams:
    def __init__(self, single_core_m=0, single_core_n=0, single_core_k=0, basic_m=0, basic_n=0, basic_k=0):
        self.single_core_m, self.single_core_n, self.single_core_k = single_core_m, single_core_n, single_core_k
        self.basic_m, self.basic_n, self.basic_k = basic_m, basic_n, basic_k


class MatmulQuantParams:
    def __init__(self, is_per_tensor=False, has_anti_quant_offset=False):
        self.is_per_tensor, self.has_anti_quant_offset = is_per_tensor, has_anti_quant_offset


class MatmulBatchParams:
    def __init__(self, is_b_batch=False, batch_mode=BatchMode.BATCH_LESS_THAN_L1, is_bias_batch=False):
        self.is_n_batch, self.batch_mode, self.is_bias_batch = is_b_batch, BatchMode(batch_mode), is_bias_batch


class MatmulFuncParams:
    def __init__(self, intrinsics_limit=False, en_vec_nd2_nz=False, enable_double_cache=False, enable_l1_cache=False,
                 do_mte2_pre_load=0, iterate_order=IterateOrder.ORDER_M, schedule_type=ScheduleType.INNER_PRODUCT,
                 enable_reuse=True, enable_ub_reuse=False, is_partial_output=False, is_a2_b2_shared=False,
                 is_enable_channel_split=False, enable_kdim_reorder_load=False):
        self.intrinsics_limit, self.en_vec_nd2_nz = intrinsics_limit, en_vec_nd2_nz
        self.enable_double_cache, self.enable_l1_cache = enable_double_cache, enable_l1_cache
        self.do_mte2_pre_load, self.iterate_order = do_mte2_pre_load, IterateOrder(iterate_order)
        self.schedule_type, self.enable_reuse = ScheduleType(schedule_type), enable_reuse
        self.enable_ub_reuse, self.is_partial_output = enable_ub_reuse, is_partial_output
        self.is_a2_b2_shared, self.is_enable_channel_split = is_a2_b2_shared, is_enable_channel_split
        self.enable_kdim_reorder_load = enable_kdim_reorder_load


def get_mm_config(*args, **kwargs):
    """A configuration from a ``MatmulConfigMode`` and parameter groups (``MatmulShapeParams``,
    ``MatmulQuantParams``, ``MatmulBatchParams``, ``MatmulFuncParams``), later groups overriding."""
    v = {}
    for arg in (*args, *kwargs.values()):
        if isinstance(arg, MatmulConfigMode):
            v.update(do_norm=arg == MatmulConfigMode.CONFIG_NORM, do_special_mdl=arg == MatmulConfigMode.CONFIG_SPECIALMDL,
                     do_ib_share_norm=arg == MatmulConfigMode.CONFIG_IBSHARE)
        elif isinstance(arg, MatmulShapeParams):
            v.update(single_core_m=arg.single_core_m, single_core_n=arg.single_core_n, single_core_k=arg.single_core_k,
                     basic_m=arg.basic_m, basic_n=arg.basic_n, basic_k=arg.basic_k)
        elif isinstance(arg, MatmulQuantParams):
            v.update(is_per_tensor=arg.is_per_tensor, has_anti_quant_offset=arg.has_anti_quant_offset)
        elif isinstance(arg, MatmulBatchParams):
            v.update(is_n_batch=arg.is_n_batch, batch_mode=arg.batch_mode, is_bias_batch=arg.is_bias_batch)
        elif isinstance(arg, MatmulFuncParams):
            v.update(intrinsics_check=arg.intrinsics_limit, en_vec_nd2nz=arg.en_vec_nd2_nz,
                     enable_double_cache=int(bool(arg.enable_double_cache)), enable_l1_cache_ub=arg.enable_l1_cache,
                     do_mte2_preload=arg.do_mte2_pre_load, iterate_order=arg.iterate_order,
                     schedule_type=arg.schedule_type, enable_reuse=arg.enable_reuse,
                     enable_ub_reuse=arg.enable_ub_reuse, is_partial_output=arg.is_partial_output,
                     is_a2b2_shared=arg.is_a2_b2_shared, is_enable_channel_split=arg.is_enable_channel_split,
                     enable_kdim_reorder_load=arg.enable_kdim_reorder_load)
        else:
            raise TypeError(f"get_mm_config takes a MatmulConfigMode and Matmul*Params, got {type(arg).__name__}")
    return MatmulConfig(**v)


_STATIC = ("used_core_num m n k_a k_b single_core_m single_core_n single_core_k base_m base_n base_k depth_a1 "
           "depth_b1 step_m step_n is_bias trans_length iterate_order share_mode share_l1_size share_l0c_size "
           "share_ub_size step_k_a step_k_b depth_a_l1_cache_ub depth_b_l1_cache_ub db_l0a db_l0b db_l0c "
           "a_layout_info_b a_layout_info_s a_layout_info_n a_layout_info_g a_layout_info_d b_layout_info_b "
           "b_layout_info_s b_layout_info_n b_layout_info_g b_layout_info_d c_layout_info_b c_layout_info_s1 "
           "c_layout_info_n c_layout_info_g c_layout_info_s2 batch_num mx_type_para").split()

MatmulApiStaticTiling = type("MatmulApiStaticTiling", (Struct,), {
    "__doc__": "A Matmul tiling fixed at compile time (``get_matmul_api_tiling``): -1 marks a field the "
               "configuration leaves to the runtime tiling.",
    "__module__": __name__, **{f: Field(dt.int32, -1) for f in _STATIC}})


def get_matmul_api_tiling(mm_cfg, a_type, b_type, c_type, bias_type=None, l1_size=None):
    """The constant tiling a configuration with fixed shapes gives (a basic / special-basic block, a single-core
    shape): its base and single-core fields, L1 depths and K steps as the host rule stages them in ``l1_size``
    (default: the platform's L1), the rest -1."""
    from ...ir.pipe_ops import current_block
    from .enums import property as _property, TOTAL_L1_SIZE
    t = MatmulApiStaticTiling()
    bm, bn, bk = int(mm_cfg.basic_m), int(mm_cfg.basic_n), int(mm_cfg.basic_k)
    if min(bm, bn, bk) > 0:
        t.base_m, t.base_n, t.base_k = bm, bn, bk
        l1 = int(l1_size) if l1_size is not None else (_property(TOTAL_L1_SIZE) if current_block() else 512 * 1024)
        stage = bm * bk * a_type.dtype.sizeof() + bk * bn * b_type.dtype.sizeof()
        depth = max(1, l1 // stage) if stage else 1
        sk = int(mm_cfg.single_core_k)
        if sk > 0:
            depth = min(depth, -(-sk // bk))
        t.depth_a1 = t.depth_b1 = depth
        t.step_k_a = t.step_k_b = max(1, depth // 2)
        t.step_m = int(mm_cfg.step_m) or 1
        t.step_n = int(mm_cfg.step_n) or 1
        t.db_l0a = t.db_l0b = 2
        t.db_l0c = 1
    for f in ("single_core_m", "single_core_n", "single_core_k"):
        if int(getattr(mm_cfg, f)) > 0:
            setattr(t, f, int(getattr(mm_cfg, f)))
    if mm_cfg.iterate_order != IterateOrder.UNDEF:
        t.iterate_order = int(mm_cfg.iterate_order)
    t.is_bias = int(bias_type is not None)
    return t


NAMES = ("MatmulConfig get_normal_config get_mdl_config get_special_mdl_config get_basic_config "
         "get_special_basic_config get_ib_share_norm_config get_mm_config get_matmul_api_tiling MatmulShapeParams "
         "MatmulQuantParams MatmulBatchParams MatmulFuncParams MatmulApiStaticTiling").split()

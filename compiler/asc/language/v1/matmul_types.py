"""Compile-time descriptions of a Matmul (pyasc ``asc.adv``): ``MatmulType`` per operand, ``MatmulConfig``,
the host-filled ``TCubeTiling`` struct, and the enums they use."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..core import dtype as dt
from .enums import TPosition
from .struct import Field, Struct


class CubeFormat(enum.IntEnum):
    ND = 0
    NZ = 1


class LayoutMode(enum.IntEnum):
    NONE = 0
    NORMAL = 1
    BSNGD = 2
    SBNGD = 3
    BNGS1S2 = 4


class IterateOrder(enum.IntEnum):
    ORDER_M = 0
    ORDER_N = 1
    UNDEF = 2


@dataclass(frozen=True)
class MatmulType:
    """Where an operand lives (``TPosition``), its format and dtype, whether it is transposed, its layout."""
    position: TPosition
    format: CubeFormat
    dtype: object
    is_trans: bool = False
    layout: LayoutMode = LayoutMode.NONE


_FIELDS = ("used_core_num m n k_a k_b single_core_m single_core_n single_core_k base_m base_n base_k depth_a1 "
           "depth_b1 step_m step_n is_bias trans_length iterate_order share_mode share_l1_size share_l0c_size "
           "share_ub_size batch_m batch_n single_batch_m single_batch_n step_k_a step_k_b depth_a_l1_cache_ub "
           "depth_b_l1_cache_ub db_l0a db_l0b db_l0c a_layout_info_b a_layout_info_s a_layout_info_n "
           "a_layout_info_g a_layout_info_d b_layout_info_b b_layout_info_s b_layout_info_n b_layout_info_g "
           "b_layout_info_d c_layout_info_b c_layout_info_s1 c_layout_info_n c_layout_info_g c_layout_info_s2 "
           "batch_num").split()

TCubeTiling = type("TCubeTiling", (Struct,), {
    "__doc__": "The cube tiling (``TCubeTiling``, int32 fields): filled on the host by "
               "``asc.lib.host.MultiCoreMatmulTiling.get_tiling`` or by hand, read (and assigned) in the kernel.",
    "__module__": __name__,
    **{f: Field(dt.int32, 0) for f in _FIELDS}})

FIELD_NAMES = tuple(_FIELDS)

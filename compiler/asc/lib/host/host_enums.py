"""The enums of pyasc's host tiling API (CANN's values), and the platform handle the tiling objects take."""
from __future__ import annotations

import enum

from ...runtime import config
from ...runtime.platforms import hardware


class CubeFormat(enum.IntEnum):
    ND = 0
    NZ = 1
    ZN = 2
    ZZ = 3
    NN = 4
    ND_ALIGN = 5
    SCALAR = 6
    VECTOR = 7
    ROW_MAJOR = 8
    COLUMN_MAJOR = 9


class DataType(enum.IntEnum):
    DT_FLOAT = 0
    DT_FLOAT16 = 1
    DT_INT8 = 2
    DT_INT32 = 3
    DT_UINT8 = 4
    DT_INT16 = 6
    DT_UINT16 = 7
    DT_UINT32 = 8
    DT_INT64 = 9
    DT_UINT64 = 10
    DT_DOUBLE = 11
    DT_BOOL = 12
    DT_STRING = 13
    DT_COMPLEX64 = 16
    DT_COMPLEX128 = 17
    DT_QINT8 = 18
    DT_QINT16 = 19
    DT_QINT32 = 20
    DT_QUINT8 = 21
    DT_QUINT16 = 22
    DT_STRING_REF = 24
    DT_DUAL = 25
    DT_VARIANT = 26
    DT_BF16 = 27
    DT_BFLOAT16 = 27
    DT_UNDEFINED = 28
    DT_INT4 = 29
    DT_UINT1 = 30
    DT_INT2 = 31
    DT_MAX = 34


# element bytes of the types a cube operand may have (DT_INT4: half a byte, counted as 1 for capacities)
OPERAND_BYTES = {DataType.DT_FLOAT: 4, DataType.DT_FLOAT16: 2, DataType.DT_BF16: 2, DataType.DT_INT8: 1,
                 DataType.DT_INT4: 1}
RESULT_BYTES = {DataType.DT_FLOAT: 4, DataType.DT_FLOAT16: 2, DataType.DT_BF16: 2, DataType.DT_INT32: 4,
                DataType.DT_INT8: 1}


class MatrixTraverse(enum.IntEnum):
    NOSET = 0
    FIRSTM = 1
    FIRSTN = 2


class MatrixMadType(enum.IntEnum):
    NORMAL = 0
    HF32 = 1
    MXMODE = 2


class DequantType(enum.IntEnum):
    SCALAR = 0
    TENSOR = 1


class ScheduleType(enum.IntEnum):
    INNER_PRODUCT = 0
    OUTER_PRODUCT = 1


class MatmulConfigParams:
    """``MatmulConfigParams(mm_config_type, enable_l1_cache_ub, schedule_type, traverse, en_vec_nd2nz)``."""

    def __init__(self, mm_config_type=1, enable_l1_cache_ub=False, schedule_type=ScheduleType.INNER_PRODUCT,
                 traverse=MatrixTraverse.NOSET, en_vec_nd2nz=False):
        self.mm_config_type, self.enable_l1_cache_ub = int(mm_config_type), bool(enable_l1_cache_ub)
        self.schedule_type, self.traverse = ScheduleType(schedule_type), MatrixTraverse(traverse)
        self.en_vec_nd2nz = bool(en_vec_nd2nz)


class PlatformAscendC:
    """A platform (``get_ascendc_platform()``, ``PlatformAscendCManager.get_instance([soc_version])``), as the
    matmul tilings take it. pyasc binds none of Ascend C's PlatformAscendC queries (``GetCoreNumAiv``, ...):
    asking one is an AttributeError that names what to use instead."""

    def __init__(self, platform):
        self.platform = platform
        self.hw = hardware(platform)

    def __getattr__(self, name):
        raise AttributeError(f"'PlatformAscendC' object has no attribute '{name}': pyasc binds none of Ascend C's "
                             "PlatformAscendC queries (core counts, memory sizes); keep the figures in a table "
                             "keyed by asc.lib.runtime.get_soc_version()")

    def __repr__(self):
        return f"PlatformAscendC({self.platform.value})"


class PlatformAscendCManager:
    """``PlatformAscendCManager.get_instance()``: the selected platform; ``get_instance(soc_version)``: a
    named one (one instance per platform, as CANN's singleton)."""
    _instances = {}

    def __init__(self, *args, **kwargs):
        raise TypeError("PlatformAscendCManager is not constructed: call PlatformAscendCManager.get_instance()")

    @staticmethod
    def get_instance(soc_version=None):
        if soc_version is None:
            platform = config.current_platform()
        else:
            try:
                platform = config.Platform(str(soc_version))
            except ValueError:
                known = ", ".join(p.value for p in config.Platform)
                raise ValueError(f"PlatformAscendCManager.get_instance: unknown soc_version {soc_version!r} "
                                 f"(known: {known})") from None
        inst = PlatformAscendCManager._instances.get(platform)
        if inst is None:
            inst = PlatformAscendCManager._instances[platform] = PlatformAscendC(platform)
        return inst


def get_ascendc_platform():
    return PlatformAscendCManager.get_instance()

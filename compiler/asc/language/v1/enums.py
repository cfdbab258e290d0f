"""v1 enums and constants: pipes, hardware events, tensor positions, platform properties."""
from __future__ import annotations

import enum


class PipeID(enum.IntEnum):
    PIPE_S = 0
    PIPE_V = 1
    PIPE_M = 2
    PIPE_MTE1 = 3
    PIPE_MTE2 = 4
    PIPE_MTE3 = 5
    PIPE_ALL = 6
    PIPE_MTE4 = 7
    PIPE_MTE5 = 8
    PIPE_V2 = 9
    PIPE_FIX = 10

    @property
    def pipe(self):
        return self.name[5:]


_EVENTS = ("MTE2_MTE1 MTE1_MTE2 MTE1_M M_MTE1 MTE2_V V_MTE2 MTE3_V V_MTE3 M_V V_M V_V MTE3_MTE1 MTE1_MTE3 "
           "MTE1_V MTE2_M M_MTE2 V_MTE1 M_FIX FIX_M MTE3_MTE2 MTE2_MTE3 S_V V_S S_MTE2 MTE2_S S_MTE3 MTE3_S "
           "MTE2_FIX FIX_MTE2 FIX_S M_S FIX_MTE3 MTE1_FIX FIX_MTE1 FIX_FIX").split()

HardEvent = enum.IntEnum("HardEvent", [(n, i) for i, n in enumerate(_EVENTS)])
HardEvent.__module__ = __name__


def event_pipes(event):
    """(source pipe, destination pipe) of a HardEvent: ``MTE2_V`` is set by MTE2 and waited for by V."""
    src, dst = HardEvent(event).name.split("_")
    return src, dst


class TPosition(enum.IntEnum):
    GM = 0
    A1 = 1
    A2 = 2
    B1 = 3
    B2 = 4
    C1 = 5
    C2 = 6
    CO1 = 7
    CO2 = 8
    VECIN = 9
    VECOUT = 10
    VECCALC = 11
    LCM = 12
    SPM = 13
    SHM = 14
    TSCM = 15
    MAX = 16


# The memory of each position (CO2 is the UB side of the cube output).
MEMORY_OF = {"VECIN": "UB", "VECOUT": "UB", "VECCALC": "UB", "CO2": "UB", "LCM": "UB", "A1": "L1", "B1": "L1",
             "C1": "L1", "TSCM": "L1", "A2": "L0A", "B2": "L0B", "CO1": "L0C", "GM": "GM"}


def memory_of(pos):
    name = TPosition(pos).name
    if name not in MEMORY_OF:
        from ..core.errors import error
        raise error(ValueError, f"TPosition.{name} has no memory on this engine",
                    "use VECIN, VECOUT or VECCALC for vector kernels")
    return MEMORY_OF[name]


# asc.property(...) keys and values (bytes)
DEFAULT_C0_SIZE = "DEFAULT_C0_SIZE"
ONE_BLK_SIZE = "ONE_BLK_SIZE"
TOTAL_L0C_SIZE = "TOTAL_L0C_SIZE"
TOTAL_L1_SIZE = "TOTAL_L1_SIZE"
TOTAL_UB_SIZE = "TOTAL_UB_SIZE"
DEFAULT_BLOCK_SIZE = "DEFAULT_BLOCK_SIZE"
MAX_REPEAT_TIMES = "MAX_REPEAT_TIMES"
_FIXED = {DEFAULT_C0_SIZE: 32, ONE_BLK_SIZE: 32, DEFAULT_BLOCK_SIZE: 256, MAX_REPEAT_TIMES: 255}


def property(prop, hw=None):   # noqa: A001  (pyasc's name)
    """A platform constant (``asc.property(asc.TOTAL_L1_SIZE)``): sizes come from the selected platform."""
    if prop in _FIXED:
        return _FIXED[prop]
    if hw is None:
        from ...ir.pipe_ops import current_block
        blk = current_block()
        hw = blk.hw if blk is not None else None
    sizes = {TOTAL_L0C_SIZE: "l0c_bytes", TOTAL_L1_SIZE: "l1_bytes", TOTAL_UB_SIZE: "ub_bytes"}
    if prop not in sizes or hw is None:
        from ..core.errors import error
        raise error(ValueError, f"asc.property({prop!r}) is not known here",
                    "use DEFAULT_C0_SIZE, ONE_BLK_SIZE, TOTAL_L1_SIZE, TOTAL_L0C_SIZE or TOTAL_UB_SIZE in a kernel")
    return int(getattr(hw, sizes[prop]))


class Hardware(enum.IntEnum):
    """The physical memories (``LocalMemAllocator(hard)``)."""
    GM = 0
    UB = 1
    L1 = 2
    L0A = 3
    L0B = 4
    L0C = 5
    BIAS = 6
    FIXBUF = 7
    MAX = 8


class MemDsbT(enum.IntEnum):
    """``data_sync_barrier``'s memory scope."""
    ALL = 0
    DDR = 1
    UB = 2
    SEQ = 3


class CacheLine(enum.IntEnum):
    SINGLE_CACHE_LINE = 0
    ENTIRE_DATA_CACHE = 1


class DcciDst(enum.IntEnum):
    CACHELINE_ALL = 0
    CACHELINE_UB = 1
    CACHELINE_OUT = 2
    CACHELINE_ATOMIC = 3


class CacheMode(enum.IntEnum):
    """``GlobalTensor.set_l2_cache_hint``'s L2 policy."""
    CACHE_MODE_NORMAL = 0
    CACHE_MODE_DISABLE = 1
    CACHE_MODE_LAST = 2
    CACHE_MODE_PERSISTENT = 4


class CacheRwMode(enum.IntEnum):
    READ = 1
    WRITE = 2
    RW = 3


# -- the vector instructions' modes (numbered as pyasc numbers them) -------------------------------------
class MaskMode(enum.IntEnum):
    NORMAL = 0
    COUNTER = 1


class CMPMODE(enum.IntEnum):
    LT = 0
    GT = 1
    EQ = 2
    LE = 3
    GE = 4
    NE = 5


class SelMode(enum.IntEnum):
    VSEL_CMPMASK_SPR = 0
    VSEL_TENSOR_SCALAR_MODE = 1
    VSEL_TENSOR_TENSOR_MODE = 2


class ReduceOrder(enum.IntEnum):
    ORDER_VALUE_INDEX = 0
    ORDER_INDEX_VALUE = 1
    ORDER_ONLY_VALUE = 2
    ORDER_ONLY_INDEX = 3


class RoundMode(enum.IntEnum):
    CAST_NONE = 0
    CAST_RINT = 1
    CAST_FLOOR = 2
    CAST_CEIL = 3
    CAST_ROUND = 4
    CAST_TRUNC = 5
    CAST_ODD = 6


class GatherMaskMode(enum.IntEnum):
    DEFAULT = 0


class TransposeType(enum.IntEnum):
    TRANSPOSE_TYPE_NONE = 0
    TRANSPOSE_NZ2ND_0213 = 1
    TRANSPOSE_NZ2NZ_0213 = 2
    TRANSPOSE_NZ2NZ_012_WITH_N = 3
    TRANSPOSE_NZ2ND_012_WITH_N = 4
    TRANSPOSE_NZ2ND_012_WITHOUT_N = 5
    TRANSPOSE_NZ2NZ_012_WITHOUT_N = 6
    TRANSPOSE_ND2ND_ONLY = 7
    TRANSPOSE_ND_UB_GM = 8
    TRANSPOSE_GRAD_ND_UB_GM = 9
    TRANSPOSE_ND2ND_B16 = 10
    TRANSPOSE_NCHW2NHWC = 11
    TRANSPOSE_NHWC2NCHW = 12


class AtomicDtype(enum.IntEnum):
    ATOMIC_NONE = 0
    ATOMIC_F32 = 1
    ATOMIC_F16 = 2
    ATOMIC_S16 = 3
    ATOMIC_S32 = 4
    ATOMIC_S8 = 5
    ATOMIC_BF16 = 6


class AtomicOp(enum.IntEnum):
    ATOMIC_SUM = 0


# -- the modes of parameter records (numbered as pyasc numbers them) ------------------------------------
class BlockMode(enum.IntEnum):
    BLOCK_MODE_NORMAL = 0
    BLOCK_MODE_MATRIX = 1
    BLOCK_MODE_VECTOR = 2
    BLOCK_MODE_SMALL_CHANNEL = 3
    BLOCK_MODE_DEPTHWISE = 4


class DeqScale(enum.IntEnum):
    DEQ_NONE = 0
    DEQ = 1
    VDEQ = 2
    DEQ8 = 3
    VDEQ8 = 4
    DEQ16 = 5
    VDEQ16 = 6


class pad_t(enum.IntEnum):   # noqa: N801  (pyasc's name)
    PAD_NONE = 0
    PAD_MODE1 = 1
    PAD_MODE2 = 2
    PAD_MODE3 = 3
    PAD_MODE4 = 4
    PAD_MODE5 = 5
    PAD_MODE6 = 6
    PAD_MODE7 = 7
    PAD_MODE8 = 8


class DataFormat(enum.IntEnum):
    """A tensor's layout as ``ShapeInfo`` records it."""
    ND = 0
    NZ = 1
    NCHW = 2
    NC1HWC0 = 3
    NHWC = 4


class SoftmaxMode(enum.IntEnum):
    SOFTMAX_NORMAL = 0
    SOFTMAX_OUTPUT_WITHOUT_BRC = 1


class AippInputFormat(enum.IntEnum):
    """The image formats of the AIPP unit (whose instructions this engine refuses)."""
    YUV420SP_U8 = 0
    XRGB8888_U8 = 1
    RGB888_U8 = 4
    YUV400_U8 = 9

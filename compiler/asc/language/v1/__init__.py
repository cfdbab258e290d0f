"""pyasc's v1 language (``asc.GlobalTensor``, ``asc.data_copy``, ``asc.set_flag``, ``asc.TQue``, ...):
Ascend C instructions in Python, each one a ``PipeOp`` on its pipe (``asc.ir.pipe_ops``)."""
from __future__ import annotations

from .enums import (CacheMode, CacheRwMode, Hardware, HardEvent, PipeID, TPosition, property, DEFAULT_C0_SIZE, ONE_BLK_SIZE,  # noqa: F401
                    TOTAL_L0C_SIZE, TOTAL_L1_SIZE, TOTAL_UB_SIZE)
from .tensors import GlobalTensor, LocalTensor, LocalTensorAuto, ShapeInfo, array  # noqa: F401
from .params import DataCopyParams, BinaryRepeatParams, UnaryRepeatParams  # noqa: F401
from .ops import (data_copy, set_flag, wait_flag, pipe_barrier, add, sub, mul, div, max, min, exp, sqrt,  # noqa: F401
                  abs, relu, ln, reciprocal, rsqrt, adds, muls, leaky_relu, maxs, mins, axpy, duplicate,
                  bilinear_interpolation)
from .fwk import TPipe, TQue, TQueBind, TBuf, TBufPool, PipeHangError, get_tpipe_ptr  # noqa: F401
from .allocator import LocalMemAllocator  # noqa: F401
from .system import *  # noqa: F401,F403  (system.NAMES)
from . import system as _system
from .struct import Struct, Field, StructField  # noqa: F401
from .matmul_types import CubeFormat, LayoutMode, IterateOrder  # noqa: F401
from .cores import ascend_is_aic, ascend_is_aiv  # noqa: F401
from .cube import *  # noqa: F401,F403
from .cube import EXPORTS as _CUBE_EXPORTS
from .cube_extra import load_data_with_sparse, mmad_with_sparse  # noqa: F401  (and the further load / copy forms)
from .cube_params import (LoadData2dTransposeParamsV2, LoadData3DParamsV2, DataCopyCO12DstParams,  # noqa: F401
                          Nz2NdParamsFull, LoadData2DParamsV2)
from .matmul_config import BatchMode, BatchOutMode, IterateMode, MatmulConfigMode, ScheduleType  # noqa: F401
from .names import UPSTREAM_NAMES, UPSTREAM_ADV_NAMES, not_supported  # noqa: F401

EXPORTS = ("CacheMode CacheRwMode Hardware HardEvent PipeID TPosition property DEFAULT_C0_SIZE ONE_BLK_SIZE TOTAL_L0C_SIZE TOTAL_L1_SIZE "
           "TOTAL_UB_SIZE GlobalTensor LocalTensor LocalTensorAuto ShapeInfo array DataCopyParams "
           "BinaryRepeatParams UnaryRepeatParams data_copy set_flag wait_flag pipe_barrier add sub mul div max "
           "min exp sqrt abs relu ln reciprocal rsqrt adds muls leaky_relu maxs mins axpy duplicate "
           "bilinear_interpolation TPipe TQue TQueBind TBuf TBufPool LocalMemAllocator get_tpipe_ptr Struct Field StructField CubeFormat LayoutMode IterateOrder "
           "ascend_is_aic ascend_is_aiv").split() + _system.NAMES + _CUBE_EXPORTS + [
    "LoadData2dTransposeParamsV2", "LoadData3DParamsV2", "LoadData2DParamsV2", "DataCopyCO12DstParams", "Nz2NdParamsFull",
    "set_fix_pipe_pre_quant_flag", "load_data_with_sparse", "mmad_with_sparse", "BatchMode", "BatchOutMode", "IterateMode", "MatmulConfigMode", "ScheduleType"]
__all__ = list(EXPORTS)

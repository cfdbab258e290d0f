"""``asc``: data types, kernel parameter kinds and the JIT of the asc language (pyasc compatible).

Kernels run on the embedded simulator selected with
``asc.runtime.config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)``.
"""
__version__ = "0.1.0"

from .language.core import (DataType, void, int8, int16, int32, int64, uint8, uint16, uint32, uint64,  # noqa: E402
                            float16, bfloat16, float32, float64, half, float_, double, int_, ConstExpr,
                            GlobalAddress, ceildiv, range, static_range, number)
from .runtime.options import CodegenOptions, CompileOptions, LaunchOptions  # noqa: E402
from .runtime.jit import jit, JITFunction  # noqa: E402
from .language.tile import tile as _tile_api  # noqa: E402,F401  (attaches Tile methods)
from .runtime import config  # noqa: E402,F401
from .runtime.tracebacks import install_excepthook as _install_excepthook  # noqa: E402
# launch warnings: one category per kind, for warnings filters (``-W error::asc.KernelWarning``)
from .ir.kernel_warnings import (KernelWarning, UninitializedReadWarning, UndefinedStoreWarning,  # noqa: E402
                                 UncoveredOutputWarning, PastEndWarning, FlagWarning, DmaOrderWarning,
                                 NonFiniteScalarWarning, LiteralConversionWarning, ParallelCarryWarning,
                                 UnmodelledHardwareWarning)

_install_excepthook()


def get_block_idx():
    blk = _current_block()
    if blk is not None:
        _scalar_code()
        return blk.block_idx
    from .language.tile.prog_model_ops import block_idx
    return block_idx()


def get_block_num():
    blk = _current_block()
    if blk is not None:
        _scalar_code()
        return blk.core_num
    from .language.tile.prog_model_ops import block_num
    return block_num()


# pyasc's v1 API (Ascend C style): GlobalTensor, LocalTensor, data_copy, set_flag / wait_flag, TPipe / TQue ...
from .ir.pipe_ops import current_block as _current_block, scalar_code as _scalar_code  # noqa: E402
from .language import v1 as _v1  # noqa: E402
from .language.v1 import *  # noqa: E402,F401,F403
from . import adv  # noqa: E402,F401
from .language import core as _core  # noqa: E402

# Upstream code imports the v1 names from asc.language.core too (GlobalTensor, TPosition, ...).
for _name in _v1.EXPORTS:
    if not hasattr(_core, _name):
        setattr(_core, _name, getattr(_v1, _name))
from .ir import kernel_warnings as _kernel_warnings  # noqa: E402
import sys as _sys  # noqa: E402

_kernel_warnings.apply_startup_options(_sys.warnoptions)


def __getattr__(name):
    if name in _v1.UPSTREAM_NAMES:
        raise _v1.not_supported(f"asc.{name}")
    raise AttributeError(f"module 'asc' has no attribute '{name}'")


get_block_idx.__module__ = get_block_num.__module__ = "asc.language.core"

__all__ = ["DataType", "void", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "bfloat16", "float32", "float64", "half", "float_", "double", "int_", "ConstExpr",
           "GlobalAddress", "ceildiv", "range", "static_range", "number", "jit", "CodegenOptions",
           "CompileOptions", "LaunchOptions", "get_block_idx", "get_block_num"] + list(_v1.EXPORTS) + ["adv"] + \
    [k.__name__ for k in _kernel_warnings.KINDS]

"""``asc.experimental.asctile``: pyasc's August 2026 tile API (as in the ``pyasc-dev`` wheel).

The same ops as ``asc2``, spelled the August way only (``global_tensor``, ``copy_in``, ``copy_out``,
``TensorLocation``, ``range(..., gm_barrier=False)``, ``matmul_acc(acc, a, b)``); built from the
dialect table in ``asc.language.dialect``. Kernels decorated with ``asctile.jit`` are August kernels.
"""
from asc.language.dialect import AUGUST as _AUGUST, namespace as _namespace
from asc.runtime.config import Backend, KernelType, Platform, set_platform
from asc.runtime.options import CompileOptions
from asc.lib import profiling, runtime
from .jit import jit
from . import interpreter, language  # upstream's submodules, public names of the package

globals().update(_namespace((_AUGUST,)))

__all__ = sorted(_namespace((_AUGUST,))) + ["Backend", "CompileOptions", "KernelType", "Platform", "jit",
                                            "profiling", "runtime", "set_platform"]

"""``asc2``: the tile-level kernel API of pyasc v2, run on the embedded simulator.

Both generations of the API are here: the April 2026 names (``tensor`` / ``load`` / ``store`` /
``TileLocation`` / ``range(parallel=)``) and the August 2026 ones (``global_tensor`` / ``copy_in`` /
``copy_out`` / ``TensorLocation`` / ``range(gm_barrier=)`` / accumulator-first ``matmul_acc``). The
namespace is built from the dialect table in ``asc.language.dialect``; ``asc.experimental.asctile``
is the August-only spelling of the same table.
"""
from asc.language.dialect import APRIL as _APRIL, AUGUST as _AUGUST, namespace as _namespace
from .jit import jit

globals().update(_namespace((_APRIL, _AUGUST)))

__all__ = sorted(_namespace((_APRIL, _AUGUST))) + ["jit"]

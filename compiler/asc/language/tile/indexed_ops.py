"""``gather`` / ``scatter`` (pyasc-dev): sub-tensors of a global tensor read / written at positions an
index tile gives. Not supported on this engine yet: the index-driven global-memory access would bypass
the bounds and race sanitizers every other access goes through, so both are rejected at the user's line
with an error naming the limitation (never a silent no-op)."""
from __future__ import annotations

from ..core.errors import error


def _unsupported(name, fix):
    raise error(RuntimeError, f"{name} is not supported on this engine: index-driven global-memory access is "
                "not simulated yet", fix)


def gather(src, offsets, dim, index, check_bounds=True, num_indices=None, pad_value=None):
    """Not supported on this engine (see the module)."""
    _unsupported("gather", "load the rows one by one with @copy_in(src, [row, 0], [1, cols]) in a loop over "
                 "the indices read with @copy_in(index_gm, [i])")


def scatter(src, dim, index, dst, offsets, check_bounds=True, num_indices=None):
    """Not supported on this engine (see the module)."""
    _unsupported("scatter", "store the rows one by one with @copy_out(row_tile, dst, [row, 0]) in a loop")

"""BroadcastTo of a [1, 64] row to [rows, 64] (``y = row + zeros``) where the host splits the work over a
column axis that has a single tile: every one of the 8 blocks writes the whole output, the same values over
each other. Upstream runs the blocks in turn (the result is the same whichever wins); the row tile is
ragged (clipped)."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
ROWS = (1, 33, 100)
TILE_ROWS = 16


@asctile.jit
def expand_kernel(row_ptr, zero_ptr, y_ptr, rows, tile_rows: asctile.ConstExpr[int]):
    row = asctile.global_tensor(row_ptr, [1, 64])
    zeros = asctile.global_tensor(zero_ptr, [tile_rows, 64])
    y = asctile.global_tensor(y_ptr, [rows, 64])
    r = asctile.copy_in(row, [0, 0], [1, 64])
    z = asctile.copy_in(zeros, [0, 0], [tile_rows, 64])
    for t in asctile.range(asctile.ceildiv(rows, tile_rows)):
        asctile.copy_out(z + r, y, [t * tile_rows, 0])


def run():
    rng = np.random.default_rng(213)
    pairs = {}
    row = rng.standard_normal((1, 64)).astype(np.float32)
    zeros = np.zeros((TILE_ROWS, 64), np.float32)
    for rows in ROWS:
        y = np.zeros((rows, 64), np.float32)
        expand_kernel[8](row, zeros, y, rows, TILE_ROWS)
        pairs[f"rows{rows}"] = (y, np.broadcast_to(row, (rows, 64)))
    return checked(pairs)

"""Column sums (ReduceSum over axis 0) of a tall tensor: each block owns 8-column strips (32 bytes of float32)
and carries a running sum over row tiles; the last row tile is ragged (``real_shape``, pad 0). 8 cores over
4 or 12 strips: some blocks have no strip, some have two."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-5}
SHAPES = ((4097, 32), (1000, 96), (7, 32))
TILE_ROWS = 256


@asctile.jit
def col_sum_kernel(x_ptr, y_ptr, rows, cols: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [1, cols])
    for s in asctile.range(asctile.block_idx(), cols // 8, asctile.block_num()):
        acc = asctile.reduce_sum(asctile.copy_in(x, [0, s * 8], [tile_rows, 8],
                                                 real_shape=[min(tile_rows, rows), 8]), 0, keep_dims=True)
        for t in asctile.range(1, asctile.ceildiv(rows, tile_rows)):
            r0 = t * tile_rows
            a = asctile.copy_in(x, [r0, s * 8], [tile_rows, 8], real_shape=[min(tile_rows, rows - r0), 8])
            acc = acc + asctile.reduce_sum(a, 0, keep_dims=True)
        asctile.copy_out(acc, y, [0, s * 8])


def run():
    rng = np.random.default_rng(208)
    pairs = {}
    for rows, cols in SHAPES:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = np.zeros((1, cols), np.float32)
        col_sum_kernel[8](x, y, rows, cols, min(TILE_ROWS, rows))
        pairs[f"{rows}x{cols}"] = (y, x.sum(axis=0, keepdims=True))
    return checked(pairs, TOLERANCE)

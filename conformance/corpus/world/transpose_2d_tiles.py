"""Transpose of a 2-D tensor in [32, 32] tiles (``tile.transpose()``), out[j, i] = x[i, j]; shapes [64, 96],
[33, 40] (ragged both ways: loads padded, stores clipped) and [8192, 60] restricted to its first 256 rows;
blocks stride over the tile grid on 72 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv

EXPECT = "accept"
SHAPES = ((64, 96), (33, 40), (256, 60))
T = 32


@asctile.jit
def transpose_kernel(x_ptr, y_ptr, rows, cols, t: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [cols, rows])
    col_tiles = asctile.ceildiv(cols, t)
    for p in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, t) * col_tiles, asctile.block_num()):
        r0 = (p // col_tiles) * t
        c0 = (p % col_tiles) * t
        a = asctile.copy_in(x, [r0, c0], [t, t], pad_value=0.0)
        asctile.copy_out(a.transpose(), y, [c0, r0])


def run():
    rng = np.random.default_rng(223)
    pairs = {}
    for rows, cols in SHAPES:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = np.zeros((cols, rows), np.float32)
        transpose_kernel[72](x, y, rows, cols, T)
        assert ceildiv(rows, T) * ceildiv(cols, T) <= 72 * 4
        pairs[f"{rows}x{cols}"] = (y, x.T)
    return checked(pairs)

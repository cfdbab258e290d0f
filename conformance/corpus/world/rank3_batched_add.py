"""Rank-3 global tensors [batch, rows, cols] and rank-3 copy windows: one block per batch item and row tile,
ragged row counts."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
SHAPES = ((2, 8, 32), (3, 5, 64), (4, 17, 16))


@asctile.jit
def batched_add(x_ptr, y_ptr, z_ptr, batch, rows, cols: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [batch, rows, cols])
    y = asctile.global_tensor(y_ptr, [batch, rows, cols])
    z = asctile.global_tensor(z_ptr, [batch, rows, cols])
    row_tiles = asctile.ceildiv(rows, tile_rows)
    for i in asctile.range(asctile.block_idx(), batch * row_tiles, asctile.block_num()):
        b = i // row_tiles
        r = (i % row_tiles) * tile_rows
        a = asctile.copy_in(x, [b, r, 0], [1, tile_rows, cols])
        c = asctile.copy_in(y, [b, r, 0], [1, tile_rows, cols])
        asctile.copy_out(a + c, z, [b, r, 0])


def run():
    rng = np.random.default_rng(3)
    out = {}
    for shape in SHAPES:
        x = rng.random(shape, dtype=np.float32)
        y = rng.random(shape, dtype=np.float32)
        z = np.zeros_like(x)
        batched_add[4](x, y, z, shape[0], shape[1], shape[2], 4)
        out["x".join(map(str, shape))] = z
    return out

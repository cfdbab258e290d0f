"""Row softmax composed from exp / reduce_max / reduce_sum, rows per tile from a UB budget, blocks striding
over row tiles; ragged row counts (the last tile's real rows are ``min(rows_per_tile, rows - r0)``)."""
import numpy as np

from asc.experimental import asctile

from _tiling import pick_blocks, pick_rows

EXPECT = "accept"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-4}
SHAPES = ((8, 64), (13, 128), (100, 32), (1, 256))


@asctile.jit
def softmax_kernel(x_ptr, y_ptr, rows, cols: asctile.ConstExpr[int], rows_per_tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [rows, cols])
    num_tiles = asctile.ceildiv(rows, rows_per_tile)
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num()):
        r0 = t * rows_per_tile
        real = [min(rows_per_tile, rows - r0), cols]
        a = asctile.copy_in(x, [r0, 0], [rows_per_tile, cols], real_shape=real, pad_value=0.0)
        e = asctile.exp(a - asctile.reduce_max(a, 1, keep_dims=True))
        asctile.copy_out(e / asctile.reduce_sum(e, 1, keep_dims=True), y, [r0, 0], real_shape=real)


def run():
    rng = np.random.default_rng(11)
    out = {}
    for rows, cols in SHAPES:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        y = np.zeros_like(x)
        rpt = min(8, pick_rows(rows, cols, x.itemsize, live_tiles=4))
        softmax_kernel[pick_blocks(-(-rows // rpt))](x, y, rows, cols, rpt)
        out[f"{rows}x{cols}"] = y
    return out

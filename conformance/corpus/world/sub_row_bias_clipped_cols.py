"""``y = x - bias`` with a row bias broadcast over the rows, as an ops-math Sub test ported to asctile: tiles
are [rows_per_tile, 64k] windows (the column tile rounded up to 32 bytes), so on [3, 1021] and [8192, 60]
every load and store runs past the end of each row: upstream clips the columns (a load pads them, a store
drops them, never spilling into the next row). Rows per tile from the UB budget, blocks striding over row
tiles on 20 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv, ub_bytes

EXPECT = "accept"
SHAPES = ((3, 1021), (8192, 60), (1, 77))


@asctile.jit
def sub_bias_kernel(x_ptr, b_ptr, y_ptr, rows, cols: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int],
                    tile_cols: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    b = asctile.global_tensor(b_ptr, [cols])
    y = asctile.global_tensor(y_ptr, [rows, cols])
    bias = asctile.copy_in(b, [0], [tile_cols], pad_value=0.0)
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tile_rows), asctile.block_num()):
        a = asctile.copy_in(x, [t * tile_rows, 0], [tile_rows, tile_cols], pad_value=0.0)
        asctile.copy_out(a - bias, y, [t * tile_rows, 0])


def run():
    rng = np.random.default_rng(202)
    pairs = {}
    for rows, cols in SHAPES:
        x = rng.standard_normal((rows, cols)).astype(np.float32)
        b = rng.standard_normal(cols).astype(np.float32)
        y = np.zeros((rows + 1, cols), np.float32)  # one row past the tensor: must stay 0
        tile_cols = ceildiv(cols, 8) * 8
        tile_rows = max(1, min(rows, ub_bytes() // (2 * 2 * tile_cols * 4), 64))
        sub_bias_kernel[20](x, b, y, rows, cols, tile_rows, tile_cols)
        pairs[f"{rows}x{cols}"] = (y, np.concatenate([x - b, np.zeros((1, cols), np.float32)]))
    return checked(pairs)

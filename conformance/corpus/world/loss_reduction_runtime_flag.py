"""An L1-loss style row reduction whose ``reduction`` attribute ("sum" = 0, "mean" = 1) arrives as a runtime
int, selected with a conditional expression over tiles (``total / cols if reduction == 1 else total``): a
runtime condition, so each branch is its own region and only the taken one runs. [33, 64] and [1000, 32]
rows over 16-row tiles (the last ragged), 20 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-5}
SHAPES = ((33, 64), (1000, 32))
TILE_ROWS = 16


@asctile.jit
def row_loss_kernel(d_ptr, y_ptr, rows, cols: asctile.ConstExpr[int], reduction, tile_rows: asctile.ConstExpr[int]):
    d = asctile.global_tensor(d_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [rows])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tile_rows), asctile.block_num()):
        a = asctile.copy_in(d, [t * tile_rows, 0], [tile_rows, cols], pad_value=0.0)
        total = asctile.reduce_sum(a, 1)
        out = total / cols if reduction == 1 else total
        asctile.copy_out(out, y, [t * tile_rows])


def run():
    rng = np.random.default_rng(234)
    pairs = {}
    for rows, cols in SHAPES:
        d = np.abs(rng.standard_normal((rows, cols))).astype(np.float32)
        for reduction, name in ((0, "sum"), (1, "mean")):
            y = np.zeros(rows, np.float32)
            row_loss_kernel[20](d, y, rows, cols, reduction, TILE_ROWS)
            want = d.sum(axis=1) / (cols if reduction == 1 else 1)
            pairs[f"{name}_{rows}x{cols}"] = (y, want)
    return checked(pairs, TOLERANCE)

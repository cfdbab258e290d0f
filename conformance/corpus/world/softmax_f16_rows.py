"""Softmax along the last axis of float16 tensors, computed in float32 (``.to``) and composed from
``reduce_max`` / ``exp`` / ``reduce_sum``: the column tile is rounded up to 32 bytes and padded with a very
negative value (it vanishes under ``exp``), rows per tile from the UB budget, the last row tile ragged.
Shapes from the Softmax regression suite: [1, 1, 77] (as [1, 77]), [33, 1000], [7, 31]."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv, ub_bytes

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 5e-3}
SHAPES = ((1, 77), (33, 1000), (7, 31))
NEG = -60000.0


@asctile.jit
def softmax_kernel(x_ptr, y_ptr, rows, cols: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int],
                   tile_cols: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [rows, cols])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tile_rows), asctile.block_num()):
        a = asctile.copy_in(x, [t * tile_rows, 0], [tile_rows, tile_cols], pad_value=NEG).to(asctile.float32)
        e = asctile.exp(a - asctile.reduce_max(a, 1, keep_dims=True))
        asctile.copy_out((e / asctile.reduce_sum(e, 1, keep_dims=True)).to(asctile.float16), y, [t * tile_rows, 0])


def run():
    rng = np.random.default_rng(209)
    pairs = {}
    for rows, cols in SHAPES:
        x = (rng.standard_normal((rows, cols)) * 3).astype(np.float16)
        y = np.zeros_like(x)
        tile_cols = ceildiv(cols, 16) * 16
        # live: the float16 load, its float32 copy, e, the quotient, its float16 copy (~4 float32 tiles)
        tile_rows = max(1, min(rows, 8, ub_bytes() // (4 * 4 * tile_cols)))
        softmax_kernel[48](x, y, rows, cols, tile_rows, tile_cols)
        xf = x.astype(np.float32)
        e = np.exp(xf - xf.max(axis=1, keepdims=True))
        pairs[f"{rows}x{cols}"] = (y, (e / e.sum(axis=1, keepdims=True)).astype(np.float16))
    return checked(pairs, TOLERANCE)

"""Row sums with each block owning a contiguous range of rows: ``start = block_idx * per_block`` and
``end = min(start + per_block, rows)`` (the builtin ``min`` over runtime scalars), ragged row counts."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-5}
SHAPES = ((16, 64), (13, 32), (5, 128))


@asctile.jit
def row_sums(x_ptr, out_ptr, rows, cols: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    out = asctile.global_tensor(out_ptr, [rows, 1])
    per_block = asctile.ceildiv(rows, asctile.block_num())
    start = asctile.block_idx() * per_block
    end = min(start + per_block, rows)
    for r in asctile.range(start, end):
        a = asctile.copy_in(x, [r, 0], [1, cols])
        asctile.copy_out(asctile.reduce_sum(a, 1, keep_dims=True), out, [r, 0])


def run():
    rng = np.random.default_rng(13)
    res = {}
    for rows, cols in SHAPES:
        x = rng.random((rows, cols), dtype=np.float32)
        out = np.zeros((rows, 1), np.float32)
        row_sums[4](x, out, rows, cols)
        res[f"{rows}x{cols}"] = out
    return res

"""Embedding lookup / Gather along axis 0 as a per-row loop: ``out[i] = table[index[i]]``, each index read
with a scalar ``copy_in`` and its [1, 64] row copied; blocks own contiguous index ranges
(``ceildiv(n, block_num)``) and the last ones run past the index tensor (scalar reads outside give 0, the row
stores outside write nothing). Rows of 60 float32 in 64-wide windows (columns clipped)."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
CASES = ((1000, 60, 33), (50, 60, 7), (8192, 60, 100))  # (table rows, columns, indices)
CORES = 24


@asctile.jit
def gather_kernel(table_ptr, idx_ptr, out_ptr, rows, cols: asctile.ConstExpr[int], n):
    table = asctile.global_tensor(table_ptr, [rows, cols])
    idx = asctile.global_tensor(idx_ptr, [n])
    out = asctile.global_tensor(out_ptr, [n, cols])
    per_block = asctile.ceildiv(n, asctile.block_num())
    for i in range(per_block):
        r = asctile.block_idx() * per_block + i
        row = asctile.copy_in(table, [asctile.copy_in(idx, [r]), 0], [1, 64])
        asctile.copy_out(row, out, [r, 0])


def run():
    rng = np.random.default_rng(222)
    pairs = {}
    for rows, cols, n in CASES:
        table = rng.standard_normal((rows, cols)).astype(np.float32)
        idx = rng.integers(0, rows, n).astype(np.int32)
        out = np.zeros((n, cols), np.float32)
        gather_kernel[CORES](table, idx, out, rows, cols, n)
        pairs[f"{rows}_{n}"] = (out, table[idx])
    return checked(pairs)

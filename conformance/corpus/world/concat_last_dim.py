"""Concat along the last axis done by windows: ``out[:, :32] = a`` and ``out[:, 32:96] = b`` with one
``copy_out`` per input at column offsets; the row tile is ragged (33 and 1000 rows over 16-row tiles,
clipped), 24 cores striding over row tiles."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
ROWS = (1, 33, 1000)
TILE_ROWS = 16


@asctile.jit
def concat_kernel(a_ptr, b_ptr, out_ptr, rows, ca: asctile.ConstExpr[int], cb: asctile.ConstExpr[int],
                  tile_rows: asctile.ConstExpr[int]):
    a = asctile.global_tensor(a_ptr, [rows, ca])
    b = asctile.global_tensor(b_ptr, [rows, cb])
    out = asctile.global_tensor(out_ptr, [rows, ca + cb])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tile_rows), asctile.block_num()):
        r0 = t * tile_rows
        asctile.copy_out(asctile.copy_in(a, [r0, 0], [tile_rows, ca]), out, [r0, 0])
        asctile.copy_out(asctile.copy_in(b, [r0, 0], [tile_rows, cb]), out, [r0, ca])


def run():
    rng = np.random.default_rng(210)
    pairs = {}
    for rows in ROWS:
        a = rng.standard_normal((rows, 32)).astype(np.float32)
        b = rng.standard_normal((rows, 64)).astype(np.float32)
        out = np.full((rows, 96), -1.0, np.float32)
        concat_kernel[24](a, b, out, rows, 32, 64, TILE_ROWS)
        pairs[f"rows{rows}"] = (out, np.concatenate([a, b], axis=1))
    return checked(pairs)

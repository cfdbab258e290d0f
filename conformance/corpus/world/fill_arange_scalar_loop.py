"""Fill (``full`` with a runtime value) and Arange written as a per-element loop of scalar stores
(``out[i] = start + i * step``, int32), both over ragged lengths on 8 cores; the fill's last window is
trimmed with ``real_shape``, the arange's last block loops past the end (its stores there write nothing)."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
SIZES = (1, 31, 1000)
TILE = 64


@asctile.jit
def fill_arange_kernel(fill_ptr, ar_ptr, n, value, start, step, tile: asctile.ConstExpr[int]):
    fill = asctile.global_tensor(fill_ptr, [n])
    ar = asctile.global_tensor(ar_ptr, [n])
    ones = asctile.full([tile], value, asctile.float32)
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        asctile.copy_out(ones, fill, [t * tile], real_shape=[min(tile, n - t * tile)])
    per_block = asctile.ceildiv(n, asctile.block_num())
    for i in range(per_block):
        k = asctile.block_idx() * per_block + i
        asctile.copy_out(start + k * step, ar, [k])


def run():
    pairs = {}
    for n in SIZES:
        fill = np.zeros(n, np.float32)
        ar = np.zeros(n, np.int32)
        fill_arange_kernel[8](fill, ar, n, 2.5, -3, 7, TILE)
        pairs[f"fill_{n}"] = (fill, np.full(n, 2.5, np.float32))
        pairs[f"arange_{n}"] = (ar, np.arange(n, dtype=np.int32) * 7 - 3)
    return checked(pairs, {"atol": 0.0, "rtol": 0.0})

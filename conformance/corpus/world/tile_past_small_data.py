"""A tile sized from the UB budget alone (``ub_size // (live tiles * 2) // itemsize``, not capped by the data,
as many host tiling helpers do) over tiny tensors (1, 7, 33 elements): the 10 K-element windows lie almost
wholly past the end (clipped), so what the kernel touches is bounded by the data, not the tile."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ub_bytes

EXPECT = "accept"
SIZES = (1, 7, 33)


@asctile.jit
def sub_exp_kernel(x_ptr, y_ptr, z_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        a = asctile.copy_in(x, [t * tile], [tile])
        b = asctile.copy_in(y, [t * tile], [tile])
        asctile.copy_out(asctile.exp(a - b), z, [t * tile])


def run():
    rng = np.random.default_rng(229)
    pairs = {}
    tile = ub_bytes() // (3 * 2) // 4 // 8 * 8
    for n in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        z = np.zeros_like(x)
        sub_exp_kernel[8](x, y, z, n, tile)
        pairs[f"n{n}"] = (z, np.exp(x - y))
    return checked(pairs, {"atol": 1e-6, "rtol": 1e-5})

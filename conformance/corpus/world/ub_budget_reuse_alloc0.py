"""Add tiled for a 192 KiB UB budget (the 910B figure host code hard-codes): three live tiles of 64 KiB, with
``@asctile.jit(reuse_alloc=0)`` (every tile its own buffer): 192 KiB of the 248 KiB UB of the platform. The
lengths leave a ragged last tile (``real_shape``); 8 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
BUDGET = 192 * 1024
SIZES = (16384, 100000)


@asctile.jit(reuse_alloc=0)
def add_kernel(x_ptr, y_ptr, z_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        real = [min(tile, n - t * tile)]
        s = asctile.copy_in(x, [t * tile], [tile], real_shape=real) + asctile.copy_in(y, [t * tile], [tile],
                                                                                        real_shape=real)
        asctile.copy_out(s, z, [t * tile], real_shape=real)


def run():
    rng = np.random.default_rng(228)
    pairs = {}
    tile = BUDGET // 3 // 4
    for n in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        z = np.zeros_like(x)
        add_kernel[8](x, y, z, n, tile)
        pairs[f"n{n}"] = (z, x + y)
    return checked(pairs)

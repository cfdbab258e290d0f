"""One elementwise kernel launched "dynamic" (runtime length) and "static" (``asctile.ConstExpr(length)`` at the
call site, the parameter unannotated), tile and block counts from a UB budget, ragged lengths guarded with
``min`` in the index arithmetic."""
import numpy as np

from asc.experimental import asctile

from _tiling import pick_blocks, pick_tile

EXPECT = "accept"
SIZES = (32, 1000, 4096, 4099, 70001)


@asctile.jit
def add_kernel(x_ptr, y_ptr, z_ptr, length, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [length])
    y = asctile.global_tensor(y_ptr, [length])
    z = asctile.global_tensor(z_ptr, [length])
    num_tiles = asctile.ceildiv(length, tile)
    per_block = asctile.ceildiv(num_tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, min(first + per_block, num_tiles)):
        a = asctile.copy_in(x, [t * tile], [tile])
        b = asctile.copy_in(y, [t * tile], [tile])
        asctile.copy_out(a + b, z, [t * tile])


def launch(x, y, static):
    z = np.zeros_like(x)
    tile = pick_tile(x.size, x.itemsize, live_tiles=3 * 2)
    blocks = pick_blocks(-(-x.size // tile))
    length = asctile.ConstExpr(x.size) if static else x.size
    add_kernel[blocks](x, y, z, length, tile)
    return z


def run():
    rng = np.random.default_rng(7)
    out = {}
    for n in SIZES:
        x = rng.random(n, dtype=np.float32)
        y = rng.random(n, dtype=np.float32)
        out[f"dynamic_{n}"] = launch(x, y, static=False)
        out[f"static_{n}"] = launch(x, y, static=True)
    return out

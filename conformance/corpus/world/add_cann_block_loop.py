"""Elementwise add tiled the CANN way: each block owns ``ceildiv(n, block_num)`` elements and walks
``block_loop_num = ceildiv(ceildiv(n, block_num), tile)`` tiles of them, with no guard against the end. On
the last blocks whole windows lie past the end of the tensor (upstream clips every window: nothing is
written there); the output buffer is longer than the tensor, and its tail must stay untouched."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv, tile_from_budget

EXPECT = "accept"
# CANN add regression lengths; blocks as the suites launch them
SIZES = ((1, 8), (7, 8), (31, 20), (33, 48), (1000, 24), (4097, 72), (65535, 16))
TAIL = 16  # output elements past the tensor: must keep their sentinel


@asctile.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    per_block = asctile.ceildiv(n, asctile.block_num())
    block_loop_num = asctile.ceildiv(per_block, tile)
    base = asctile.block_idx() * per_block
    for i in asctile.range(block_loop_num):
        off = base + i * tile
        a = asctile.copy_in(x, [off], [tile])
        b = asctile.copy_in(y, [off], [tile])
        asctile.copy_out(a + b, z, [off])


def run():
    rng = np.random.default_rng(101)
    pairs = {}
    for n, blocks in SIZES:
        for dtype in (np.float32, np.float16):
            x = rng.uniform(-4, 4, n).astype(dtype)
            y = rng.uniform(-4, 4, n).astype(dtype)
            z = np.full(n + TAIL, -7, dtype)
            tile = tile_from_budget(ceildiv(n, blocks), x.itemsize, live_tiles=3)
            add_kernel[blocks](x, y, z, n, tile)
            want = np.concatenate([x + y, np.full(TAIL, -7, dtype)])
            pairs[f"{np.dtype(dtype).name}_{n}x{blocks}"] = (z, want)
    return checked(pairs)

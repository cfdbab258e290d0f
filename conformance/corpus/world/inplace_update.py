"""An inplace output: the kernel reads and writes the same tensor (x += x / 4), each block its own tiles, for
several lengths including ragged ones."""
import numpy as np

from asc.experimental import asctile

from _tiling import pick_blocks, pick_tile

EXPECT = "accept"
SIZES = (256, 1000, 8192, 3)


@asctile.jit
def inplace_kernel(x_ptr, length, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [length])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(length, tile), asctile.block_num()):
        a = asctile.copy_in(x, [t * tile], [tile])
        asctile.copy_out(a + a / 4.0, x, [t * tile])


def run():
    rng = np.random.default_rng(9)
    out = {}
    for n in SIZES:
        x = rng.random(n, dtype=np.float32)
        tile = pick_tile(n, x.itemsize, live_tiles=2, cap=1024)
        inplace_kernel[pick_blocks(-(-n // tile))](x, n, tile)
        out[str(n)] = x
    return out

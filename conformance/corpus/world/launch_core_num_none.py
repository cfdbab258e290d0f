"""``kernel[None]`` and ``kernel[None, None]``: all cores of the platform (LaunchOptions.core_num is Optional);
every block handles ``ceildiv(tiles, block_num)`` tiles, the last ones guarded by the loop's stop."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def scale_kernel(x_ptr, y_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    tiles = asctile.ceildiv(n, tile)
    per_block = asctile.ceildiv(tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, min(first + per_block, tiles)):
        a = asctile.copy_in(x, [t * tile], [tile])
        asctile.copy_out(a + a, y, [t * tile])


def run():
    x = np.arange(4096, dtype=np.float32)
    y1, y2 = np.zeros_like(x), np.zeros_like(x)
    scale_kernel[None](x, y1, x.size, 256)
    scale_kernel[None, None](x, y2, x.size, 256)
    return {"none": y1, "none_stream": y2}

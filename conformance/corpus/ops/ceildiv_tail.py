"""asctile.ceildiv of runtime values as a loop bound; the last tile is partial (real_shape limits the store)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def tail_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int,
                tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    tiles = asctile.ceildiv(size, tile)
    for t in asctile.range(asctile.block_idx(), tiles, asctile.block_num()):
        x = asctile.copy_in(x_gm, [t * tile], [tile], pad_value=0.0)
        asctile.copy_out(x - 0.5, out_gm, [t * tile])


def run():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    tail_kernel[4](x, out, x.size, 128)
    return {"out": out}

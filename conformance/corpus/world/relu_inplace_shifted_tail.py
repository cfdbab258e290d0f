"""In-place Relu (``x = relu(x)``) with the last tile shifted back to end at the last element: the shifted tile
overlaps the one before it, and when another block owns that one, one block stores over elements the other
block reads in the same launch. Relu is idempotent, so either order gives the same result (upstream runs
the blocks in turn); this engine reports the read / write overlap between blocks."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "overwrites elements block"


@asctile.jit
def relu_inplace_kernel(x_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        off = min(t * tile, n - tile)
        asctile.copy_out(asctile.relu(asctile.copy_in(x, [off], [tile])), x, [off])


def run():
    x = np.random.default_rng(231).standard_normal(1000).astype(np.float32)
    relu_inplace_kernel[8](x, 1000, 64)
    return {"x": x}

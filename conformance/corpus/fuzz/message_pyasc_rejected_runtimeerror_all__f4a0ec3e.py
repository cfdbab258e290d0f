"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's 'RuntimeError: All reduction dimensions must be between 0 and 0' is not in ours: "ValueError: 'real_shape' cannot be used when storing a scalar value"
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: All reduction dimensions must be between _ and _), here rejected (ValueError: _ cannot be used when storing a scalar value)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.02, 'rtol': 0.02}
SPEC = {'dtype': 'float16', 'shape': (263,), 'tile': 208, 'length': 'runtime', 'loop': 'contiguous_min', 'edge': 'real_shape', 'expr': ('asctile.maximum', ('reduce', 'reduce_sum', '-1', ('y',)), ('reduce', 'reduce_sum', 'last', ('y',))), 'launch': '[n]', 'blocks': 3}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0])
    y = asctile.global_tensor(y_ptr, [d0])
    z = asctile.global_tensor(z_ptr, [d0])
    num_tiles = asctile.ceildiv(d0, tile)
    per_block = asctile.ceildiv(num_tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, min(first + per_block, num_tiles)):
        off = t * tile
        real = [min(tile, d0 - off)]
        a = asctile.copy_in(x, [off], [tile], real_shape=real)
        b = asctile.copy_in(y, [off], [tile], real_shape=real)
        asctile.copy_out(asctile.maximum(asctile.reduce_sum(b, -1, keep_dims=True), asctile.reduce_sum(b, 0, keep_dims=True)), z, [off], real_shape=real)


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((263,)) + 0.5).astype(np.float16)
    y = (rng.random((263,)) + 0.5).astype(np.float16)
    z = np.zeros_like(x)
    kernel[3](x, y, z, 263, 208)
    return {"z": z}

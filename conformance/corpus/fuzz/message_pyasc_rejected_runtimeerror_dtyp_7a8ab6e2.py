"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's "RuntimeError: 'input' dtype must be one of int32, int64, float32, got float16" is not in ours: 'RuntimeError: Last dimension of tile must be aligned by 32 bytes, got 1 x 2 bytes'
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: _ dtype must be one of int_, int_, float_,), here rejected (RuntimeError: Last dimension of tile must be aligned by _)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.02, 'rtol': 0.02}
SPEC = {'dtype': 'float16', 'shape': (1, 64), 'tile': 4, 'length': 'runtime', 'loop': 'strided', 'edge': 'clip', 'expr': ('reduce', 'reduce_sum', 'last', ('x',)), 'launch': '[n]', 'blocks': 3}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0, d1: asctile.ConstExpr[int], tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0, d1])
    y = asctile.global_tensor(y_ptr, [d0, d1])
    z = asctile.global_tensor(z_ptr, [d0, d1])
    num_tiles = asctile.ceildiv(d0, tile)
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num()):
        off = t * tile
        a = asctile.copy_in(x, [off, 0], [tile, d1])
        b = asctile.copy_in(y, [off, 0], [tile, d1])
        asctile.copy_out(asctile.reduce_sum(a, 1, keep_dims=True), z, [off, 0])


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((1, 64)) + 0.5).astype(np.float16)
    y = (rng.random((1, 64)) + 0.5).astype(np.float16)
    z = np.zeros_like(x)
    kernel[3](x, y, z, 1, 64, 4)
    return {"z": z}

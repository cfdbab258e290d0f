"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's 'RuntimeError: All reduction dimensions must be between 0 and 1' is not in ours: 'RuntimeError: Last dimension of tile must be aligned by 32 bytes, got 1 x 4 bytes'
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: All reduction dimensions must be between _ and _), here rejected (RuntimeError: Last dimension of tile must be aligned by _)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.0001, 'rtol': 0.0001}
SPEC = {'dtype': 'float32', 'shape': (10, 32), 'tile': 2, 'length': 'call_site', 'loop': 'strided', 'edge': 'real_shape', 'expr': ('reduce', 'reduce_max', '-1', ('asctile.minimum', ('const', 0.5), ('x',))), 'launch': '[n, None]', 'blocks': 4}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0, d1: asctile.ConstExpr[int], tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0, d1])
    y = asctile.global_tensor(y_ptr, [d0, d1])
    z = asctile.global_tensor(z_ptr, [d0, d1])
    num_tiles = asctile.ceildiv(d0, tile)
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num()):
        off = t * tile
        real = [min(tile, d0 - off), d1]
        a = asctile.copy_in(x, [off, 0], [tile, d1], real_shape=real)
        b = asctile.copy_in(y, [off, 0], [tile, d1], real_shape=real)
        asctile.copy_out(asctile.reduce_max(asctile.minimum(0.5, a), -1, keep_dims=True), z, [off, 0], real_shape=real)


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((10, 32)) + 0.5).astype(np.float32)
    y = (rng.random((10, 32)) + 0.5).astype(np.float32)
    z = np.zeros_like(x)
    kernel[4, None](x, y, z, asctile.ConstExpr(10), 32, 2)
    return {"z": z}

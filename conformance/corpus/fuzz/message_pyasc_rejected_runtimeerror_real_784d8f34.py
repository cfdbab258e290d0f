"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's 'RuntimeError: real_shape[16] (which is (PlainValue(dtype=int32, handle=...), 1, 16)) exceeds tensor dimension #1 (which is (4, 1, 1))' is not in ours: 'ValueError: Core number should be large than 0'
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: real_shape_ which is PlainValuedtype=int_, handle=..., _ exceeds tensor dimension), here rejected (RuntimeError: Last dimension of tile must be aligned by _)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.02, 'rtol': 0.02}
SPEC = {'dtype': 'float16', 'shape': (12, 1, 16), 'tile': 4, 'length': 'annotated', 'loop': 'contiguous_min', 'edge': 'real_shape', 'expr': ('reduce', 'reduce_max', 'last', ('x',)), 'launch': '[None]', 'blocks': 1}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0: asctile.ConstExpr[int], d1: asctile.ConstExpr[int], d2: asctile.ConstExpr[int], tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0, d1, d2])
    y = asctile.global_tensor(y_ptr, [d0, d1, d2])
    z = asctile.global_tensor(z_ptr, [d0, d1, d2])
    num_tiles = asctile.ceildiv(d0, tile)
    per_block = asctile.ceildiv(num_tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, min(first + per_block, num_tiles)):
        off = t * tile
        real = [min(tile, d0 - off), d1, d2]
        a = asctile.copy_in(x, [off, 0, 0], [tile, d1, d2], real_shape=real)
        b = asctile.copy_in(y, [off, 0, 0], [tile, d1, d2], real_shape=real)
        asctile.copy_out(asctile.reduce_max(a, 2, keep_dims=True), z, [off, 0, 0], real_shape=real)


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((12, 1, 16)) + 0.5).astype(np.float16)
    y = (rng.random((12, 1, 16)) + 0.5).astype(np.float16)
    z = np.zeros_like(x)
    kernel[None](x, y, z, 12, 1, 16, 4)
    return {"z": z}

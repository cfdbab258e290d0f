"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's 'RuntimeError: All reduction dimensions must be between 0 and 0' is not in ours: "load of tensor 'x_ptr' (shape [32]) at offsets [[32, 48]] with tile shape [16] starts past the end of the tensor: no element of the window is inside it, so o..."
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: All reduction dimensions must be between _ and _), here rejected (scalar store to tensor _ outside the tensor: offsets _],)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.0001, 'rtol': 0.0001}
SPEC = {'dtype': 'float32', 'shape': (32,), 'tile': 16, 'length': 'runtime', 'loop': 'contiguous', 'edge': 'clip', 'expr': ('reduce', 'reduce_sum', '-1', ('+', ('const', 2.0), ('x',))), 'launch': '[n]', 'blocks': 4}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0])
    y = asctile.global_tensor(y_ptr, [d0])
    z = asctile.global_tensor(z_ptr, [d0])
    num_tiles = asctile.ceildiv(d0, tile)
    per_block = asctile.ceildiv(num_tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, first + per_block):
        off = t * tile
        a = asctile.copy_in(x, [off], [tile])
        b = asctile.copy_in(y, [off], [tile])
        asctile.copy_out(asctile.reduce_sum((2.0 + a), -1, keep_dims=True), z, [off])


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((32,)) + 0.5).astype(np.float32)
    y = (rng.random((32,)) + 0.5).astype(np.float32)
    z = np.zeros_like(x)
    kernel[4](x, y, z, 32, 16)
    return {"z": z}

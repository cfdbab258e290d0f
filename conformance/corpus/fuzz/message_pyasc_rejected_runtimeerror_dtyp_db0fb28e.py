"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's "RuntimeError: 'input' dtype must be one of int32, int64, float32, got float16" is not in ours: "ValueError: 'real_shape' cannot be used when storing a scalar value"
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: _ dtype must be one of int_, int_, float_,), here rejected (ValueError: _ cannot be used when storing a scalar value)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.02, 'rtol': 0.02}
SPEC = {'dtype': 'float16', 'shape': (112,), 'tile': 112, 'length': 'annotated', 'loop': 'strided', 'edge': 'real_shape', 'expr': ('reduce', 'reduce_sum', 'last', ('x',)), 'launch': '[n, None]', 'blocks': 1}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0: asctile.ConstExpr[int], tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0])
    y = asctile.global_tensor(y_ptr, [d0])
    z = asctile.global_tensor(z_ptr, [d0])
    num_tiles = asctile.ceildiv(d0, tile)
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num()):
        off = t * tile
        real = [min(tile, d0 - off)]
        a = asctile.copy_in(x, [off], [tile], real_shape=real)
        b = asctile.copy_in(y, [off], [tile], real_shape=real)
        asctile.copy_out(asctile.reduce_sum(a, 0, keep_dims=True), z, [off], real_shape=real)


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((112,)) + 0.5).astype(np.float16)
    y = (rng.random((112,)) + 0.5).astype(np.float16)
    z = np.zeros_like(x)
    kernel[1, None](x, y, z, 112, 112)
    return {"z": z}

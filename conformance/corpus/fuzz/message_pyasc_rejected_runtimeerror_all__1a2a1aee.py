"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's 'RuntimeError: All reduction dimensions must be between 0 and 0' is not in ours: 'ValueError: Core number should be large than 0'
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: All reduction dimensions must be between _ and _), here rejected (ValueError: Core number should be large than _)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.0001, 'rtol': 0.0001}
SPEC = {'dtype': 'float32', 'shape': (197,), 'tile': 104, 'length': 'annotated', 'loop': 'strided', 'edge': 'clip', 'expr': ('asctile.maximum', ('reduce', 'reduce_sum', '-1', ('y',)), ('reduce', 'reduce_sum', 'last', ('y',))), 'launch': '[None]', 'blocks': 3}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0: asctile.ConstExpr[int], tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0])
    y = asctile.global_tensor(y_ptr, [d0])
    z = asctile.global_tensor(z_ptr, [d0])
    num_tiles = asctile.ceildiv(d0, tile)
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num()):
        off = t * tile
        a = asctile.copy_in(x, [off], [tile])
        b = asctile.copy_in(y, [off], [tile])
        asctile.copy_out(asctile.maximum(asctile.reduce_sum(b, -1, keep_dims=True), asctile.reduce_sum(b, 0, keep_dims=True)), z, [off])


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((197,)) + 0.5).astype(np.float32)
    y = (rng.random((197,)) + 0.5).astype(np.float32)
    z = np.zeros_like(x)
    kernel[None](x, y, z, 197, 104)
    return {"z": z}

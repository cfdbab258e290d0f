"""Found by the differential fuzzer: message disagreement (pyasc-dev rejected, this engine rejected).

pyasc's 'RuntimeError: real_shape[16] (which is (PlainValue(dtype=int32, handle=...), 1, 16)) exceeds tensor dimension #1 (which is (3, 1, 1))' is not in ours: "TypeError: argument 'd0' is passed as ConstExpr but the parameter is not annotated asc.ConstExpr"
"""
import numpy as np

from asc.experimental import asctile

FUZZ_SIGNATURE = 'message: pyasc rejected (RuntimeError: real_shape_ _, _, _)) exceeds tensor dimension #_ _)), here rejected (TypeError: argument _ is passed as ConstExpr but the parameter)'
EXPECT = 'reject'
TOLERANCE = {'atol': 0.0001, 'rtol': 0.0001}
SPEC = {'dtype': 'float32', 'shape': (7, 1, 16), 'tile': 3, 'length': 'call_site', 'loop': 'contiguous', 'edge': 'real_shape', 'expr': ('reduce', 'reduce_max', 'last', ('x',)), 'launch': '[n, None]', 'blocks': 2}


@asctile.jit
def kernel(x_ptr, y_ptr, z_ptr, d0, d1: asctile.ConstExpr[int], d2: asctile.ConstExpr[int], tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [d0, d1, d2])
    y = asctile.global_tensor(y_ptr, [d0, d1, d2])
    z = asctile.global_tensor(z_ptr, [d0, d1, d2])
    num_tiles = asctile.ceildiv(d0, tile)
    per_block = asctile.ceildiv(num_tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, first + per_block):
        off = t * tile
        real = [min(tile, d0 - off), d1, d2]
        a = asctile.copy_in(x, [off, 0, 0], [tile, d1, d2], real_shape=real)
        b = asctile.copy_in(y, [off, 0, 0], [tile, d1, d2], real_shape=real)
        asctile.copy_out(asctile.reduce_max(a, 2, keep_dims=True), z, [off, 0, 0], real_shape=real)


def run():
    rng = np.random.default_rng(0)
    x = (rng.random((7, 1, 16)) + 0.5).astype(np.float32)
    y = (rng.random((7, 1, 16)) + 0.5).astype(np.float32)
    z = np.zeros_like(x)
    kernel[2, None](x, y, z, asctile.ConstExpr(7), 1, 16, 3)
    return {"z": z}

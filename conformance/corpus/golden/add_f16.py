"""August-dialect port of golden/kernels/add_f16.py: x + y over flat vectors, block-strided tiles."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "add"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [{"id": "1x128", "shape": [1, 128]}, {"id": "4x2048", "shape": [4, 2048]}, {"id": "10007", "shape": [10007]}]
TILE_SIZE = 2048
CORE_NUM = 32


@asctile.jit(always_compile=True)
def add_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
               size: int, num_tiles: int, tile_size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    y_gm = asctile.global_tensor(y_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size])
        y = asctile.copy_in(y_gm, [offset], [tile_size])
        asctile.copy_out(x + y, out_gm, [offset])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    y = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x, y)


def launch(x, y):
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    add_kernel[min(CORE_NUM, num_tiles)](x, y, out, x.size, num_tiles, TILE_SIZE)
    return out


def reference(x, y):
    return (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)

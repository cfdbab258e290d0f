"""August-dialect port of golden/kernels/add_bf16.py: elementwise sum, z = x + y, bfloat16."""
import numpy as np

from asc.experimental import asctile



def bf16():
    from ml_dtypes import bfloat16  # numpy has no bfloat16 of its own
    return bfloat16


EXPECT = "accept"
OP = "add"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 1e-2, "rtol": 7.8125e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
TILE_SIZE = 2048
CORE_NUM = 32


@asctile.jit(always_compile=True)
def add_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int,
               num_tiles: int, tile_size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    y_gm = asctile.global_tensor(y_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size])
        y = asctile.copy_in(y_gm, [offset], [tile_size])
        asctile.copy_out(x + y, out_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = (gen.random(case["shape"], dtype=np.float32) * 10 - 5).astype(bf16())
    y = (gen.random(case["shape"], dtype=np.float32) * 10 - 5).astype(bf16())
    return (x, y)


def launch(x, y):
    if x.shape != y.shape:
        raise ValueError(f"x {tuple(x.shape)} and y {tuple(y.shape)} differ in shape")
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    add_kernel[min(CORE_NUM, num_tiles)](x, y, out, x.size, num_tiles, TILE_SIZE)
    return out


def reference(x, y):
    return x + y

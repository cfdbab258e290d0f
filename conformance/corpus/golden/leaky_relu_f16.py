"""August-dialect port of golden/kernels/leaky_relu_f16.py: where(x >= 0, x, alpha * x)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "leaky_relu"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [{"id": "1x128", "shape": [1, 128]}, {"id": "10007", "shape": [10007]}]
TILE_SIZE = 2048
CORE_NUM = 32
ALPHA = 0.01


@asctile.jit(always_compile=True)
def leaky_relu_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                      alpha: float, tile_size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size])
        asctile.copy_out(asctile.where(x >= 0, x, x * alpha), out_gm, [offset])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16), ALPHA)


def launch(x, alpha):
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    leaky_relu_kernel[min(CORE_NUM, num_tiles)](x, out, x.size, num_tiles, float(alpha), TILE_SIZE)
    return out


def reference(x, alpha):
    x32 = x.astype(np.float32)
    return np.where(x32 >= 0, x32, x32 * np.float32(alpha)).astype(np.float16)

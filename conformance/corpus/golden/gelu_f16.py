"""August-dialect port of golden/kernels/gelu_f16.py: exact (erf) GELU computed in float32."""
import math

import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "gelu"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [{"id": "1x128", "shape": [1, 128]}, {"id": "10007", "shape": [10007]}]
TILE_SIZE = 2048
CORE_NUM = 32
SQRT_HALF = math.sqrt(0.5)


@asctile.jit(always_compile=True)
def gelu_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                tile_size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.float32)
        y = x * (asctile.erf(x * SQRT_HALF) + 1.0) * 0.5
        asctile.copy_out(y.to(asctile.float16), out_gm, [offset])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16),)


def launch(x):
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    gelu_kernel[min(CORE_NUM, num_tiles)](x, out, x.size, num_tiles, TILE_SIZE)
    return out


_verf = np.vectorize(math.erf, otypes=[np.float64])


def reference(x):
    x64 = x.astype(np.float64)
    return (0.5 * x64 * (1.0 + _verf(x64 * SQRT_HALF))).astype(np.float16)

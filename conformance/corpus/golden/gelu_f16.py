"""August-dialect port of golden/kernels/gelu_f16.py: exact (erf) GELU computed in float32."""
import math

import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "gelu"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [{"id": "1x128", "shape": [1, 128]}, {"id": "10007", "shape": [10007]},
         {"id": "100003", "shape": [100003]}]
MAX_TILE = 4096
MIN_TILE = 1024
TILE_ALIGN = 256
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}
TILES_A_BLOCK = {"Ascend910B1": 1, "Ascend950PR_9599": 2}
SQRT_HALF = math.sqrt(0.5)


@asctile.jit(always_compile=True, reuse_alloc=2)
def gelu_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                tile_size: asctile.ConstExpr[int], unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.float32)
        y = x * (asctile.erf(x * SQRT_HALF) + 1.0) * 0.5
        asctile.copy_out(y.to(asctile.float16), out_gm, [offset])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16),)


def launch_grid(n):
    """(blocks, tile, unroll) as golden/kernels/gelu_f16.py: every vector core, MIN_TILE to MAX_TILE elements a tile,
    at least one tile a block on Ascend910B1 and two on Ascend950PR_9599."""
    soc = get_soc_version().value
    cores, min_tiles = AIV_CORES[soc], TILES_A_BLOCK[soc]
    per_block = max(min_tiles, -(-n // (cores * MAX_TILE)))
    tile = min(MAX_TILE, max(MIN_TILE, -(-n // (cores * per_block * TILE_ALIGN)) * TILE_ALIGN))
    return min(cores, -(-n // tile)), tile, min_tiles


def launch(x):
    out = np.zeros_like(x)
    blocks, tile, unroll = launch_grid(x.size)
    gelu_kernel[blocks](x, out, x.size, -(-x.size // tile), tile, unroll)
    return out


_verf = np.vectorize(math.erf, otypes=[np.float64])


def reference(x):
    x64 = x.astype(np.float64)
    return (0.5 * x64 * (1.0 + _verf(x64 * SQRT_HALF))).astype(np.float16)

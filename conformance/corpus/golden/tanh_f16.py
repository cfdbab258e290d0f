"""August-dialect port of golden/kernels/tanh_f16.py: elementwise hyperbolic tangent, y = tanh(x), float16 (float32 arithmetic)."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "tanh"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
MAX_TILE = {"Ascend910B1": 16384, "Ascend950PR_9599": 4096}   # elements a tile at most, as the golden
TILE_ALIGN = 256
MIN_TILE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asctile.jit(always_compile=True, reuse_alloc=2)
def tanh_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                tile_size: asctile.ConstExpr[int],
                unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.float32)
        asctile.copy_out(asctile.tanh(x).to(asctile.float16), out_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = (gen.standard_normal(case["shape"], dtype=np.float32) * 2).astype(np.float16)
    return (x,)


def unroll_factor():
    """The tile loop's unroll factor on the selected platform, as golden/kernels/tanh_f16.py launches."""
    return UNROLL[get_soc_version().value]


def core_num():
    """Every vector core of the selected platform, as golden/kernels/tanh_f16.py launches."""
    return AIV_CORES[get_soc_version().value]


def tile_size(n, cores):
    """The golden's tile: n spread evenly over the blocks in whole bursts, MIN_TILE to the platform's MAX_TILE."""
    limit = MAX_TILE[get_soc_version().value]
    per_block = -(-n // (cores * limit))
    tile = -(-n // (cores * per_block * TILE_ALIGN)) * TILE_ALIGN
    return min(limit, max(MIN_TILE, tile))


def launch(x):
    out = np.zeros_like(x)
    tile = tile_size(x.size, core_num())
    num_tiles = -(-x.size // tile)
    tanh_kernel[min(core_num(), num_tiles)](x, out, x.size, num_tiles, tile, unroll_factor())
    return out


def reference(x):
    return np.tanh(x.astype(np.float32)).astype(np.float16)

"""August-dialect port of golden/kernels/addcdiv_f16.py: addcdiv, out = input + value * tensor1 / tensor2, float16 (float32 arithmetic)."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version
from asc.runtime.launcher import get_platform_info

EXPECT = "accept"
OP = "addcdiv"
DTYPE = "float16"
TOLERANCE = {"atol": 2e-3, "rtol": 2e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
VALUE = 0.5
LIVE_BYTES = 10         # UB bytes an element of a tile: two float32 tiles and one float16 tile live at once
TILE_ALIGN = 256        # elements of a 512-byte DMA burst (Ascend910B1)
MIN_TILE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asctile.jit(always_compile=True, reuse_alloc=2)
def addcdiv_kernel(in_ptr: asctile.GlobalAddress, t1_ptr: asctile.GlobalAddress, t2_ptr: asctile.GlobalAddress,
                   out_ptr: asctile.GlobalAddress, size: int, num_tiles: int, value: float,
                   tile_size: asctile.ConstExpr[int],
                   unroll: asctile.ConstExpr[int]):
    in_gm = asctile.global_tensor(in_ptr, [size])
    t1_gm = asctile.global_tensor(t1_ptr, [size])
    t2_gm = asctile.global_tensor(t2_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        t1 = asctile.copy_in(t1_gm, [offset], [tile_size]).to(asctile.float32)
        t2 = asctile.copy_in(t2_gm, [offset], [tile_size]).to(asctile.float32)
        q = t1 / t2 * value
        x = asctile.copy_in(in_gm, [offset], [tile_size]).to(asctile.float32)
        asctile.copy_out((x + q).to(asctile.float16), out_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    shape = case["shape"]
    x = gen.standard_normal(shape, dtype=np.float32).astype(np.float16)
    t1 = gen.standard_normal(shape, dtype=np.float32).astype(np.float16)
    mag = gen.random(shape, dtype=np.float32) * 2 + 0.5
    sign = np.where(gen.random(shape) < 0.5, -1.0, 1.0)
    return (x, t1, (mag * sign).astype(np.float16), VALUE)


def unroll_factor():
    """The tile loop's unroll factor on the selected platform, as golden/kernels/addcdiv_f16.py launches."""
    return UNROLL[get_soc_version().value]


def core_num():
    """Every vector core of the selected platform, as golden/kernels/addcdiv_f16.py launches."""
    return AIV_CORES[get_soc_version().value]


def max_tile():
    """The largest tile the selected platform's UB holds, as golden/kernels/addcdiv_f16.py sizes it."""
    ub = get_platform_info(get_soc_version()).ub_size
    return ub // (LIVE_BYTES * unroll_factor()) // TILE_ALIGN * TILE_ALIGN


def tile_size(n, cores):
    """The golden's tile: n spread evenly over the blocks in whole bursts, MIN_TILE to max_tile()."""
    limit = max_tile()
    per_block = -(-n // (cores * limit))
    tile = -(-n // (cores * per_block * TILE_ALIGN)) * TILE_ALIGN
    return min(limit, max(MIN_TILE, tile))


def launch(x, t1, t2, value):
    if not x.shape == t1.shape == t2.shape:
        raise ValueError(f"shapes differ: {tuple(x.shape)}, {tuple(t1.shape)}, {tuple(t2.shape)}")
    out = np.zeros_like(x)
    tile = tile_size(x.size, core_num())
    num_tiles = -(-x.size // tile)
    addcdiv_kernel[min(core_num(), num_tiles)](x, t1, t2, out, x.size, num_tiles, float(value), tile,
                                               unroll_factor())
    return out


def reference(x, t1, t2, value):
    f32 = np.float32
    return (x.astype(f32) + np.float32(value) * t1.astype(f32) / t2.astype(f32)).astype(np.float16)

"""August-dialect port of golden/kernels/select_f16.py: select with a mask input, out = where(mask, x, y), float16 data, int8 mask."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "select"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
TILE_SIZE = 2048
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asctile.jit(always_compile=True)
def select_kernel(mask_ptr: asctile.GlobalAddress, x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress,
                  out_ptr: asctile.GlobalAddress, size: int, num_tiles: int, tile_size: asctile.ConstExpr[int],
                  unroll: asctile.ConstExpr[int]):
    mask_gm = asctile.global_tensor(mask_ptr, [size])
    x_gm = asctile.global_tensor(x_ptr, [size])
    y_gm = asctile.global_tensor(y_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        keep = asctile.copy_in(mask_gm, [offset], [tile_size]).to(asctile.int16).to(asctile.float16) != 0.0
        x = asctile.copy_in(x_gm, [offset], [tile_size])
        y = asctile.copy_in(y_gm, [offset], [tile_size])
        asctile.copy_out(asctile.where(keep, x, y), out_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    shape = case["shape"]
    mask = (gen.random(shape) < 0.5).astype(np.int8)
    x = gen.standard_normal(shape, dtype=np.float32).astype(np.float16)
    y = gen.standard_normal(shape, dtype=np.float32).astype(np.float16)
    return (mask, x, y)


def unroll_factor():
    """The tile loop's unroll factor on the selected platform, as golden/kernels/select_f16.py launches."""
    return UNROLL[get_soc_version().value]


def core_num():
    """Every vector core of the selected platform, as golden/kernels/select_f16.py launches."""
    return AIV_CORES[get_soc_version().value]


def launch(mask, x, y):
    if not mask.shape == x.shape == y.shape:
        raise ValueError(f"shapes differ: {tuple(mask.shape)}, {tuple(x.shape)}, {tuple(y.shape)}")
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    select_kernel[min(core_num(), num_tiles)](mask, x, y, out, x.size, num_tiles, TILE_SIZE, unroll_factor())
    return out


def reference(mask, x, y):
    return np.where(mask != 0, x, y)

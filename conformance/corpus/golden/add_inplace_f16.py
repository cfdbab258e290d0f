"""August-dialect port of golden/kernels/add_inplace_f16.py: in-place add, x += y, float16."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "add_inplace"
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
TILE_SIZE = 2048
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asctile.jit(always_compile=True)
def add_inplace_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                       tile_size: asctile.ConstExpr[int],
                       unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    y_gm = asctile.global_tensor(y_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size])
        y = asctile.copy_in(y_gm, [offset], [tile_size])
        asctile.copy_out(x + y, x_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = (gen.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    y = (gen.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x, y)


def add_inplace_(x, y):
    """x += y on the device, in place; x must be contiguous."""
    if x.shape != y.shape:
        raise ValueError(f"x {tuple(x.shape)} and y {tuple(y.shape)} differ in shape")
    if not x.flags.c_contiguous:
        raise ValueError("x must be contiguous: the kernel writes into its buffer")
    num_tiles = -(-x.size // TILE_SIZE)
    add_inplace_kernel[min(core_num(), num_tiles)](x, y, x.size, num_tiles, TILE_SIZE, unroll_factor())
    return x


def unroll_factor():
    """The tile loop's unroll factor on the selected platform, as golden/kernels/add_inplace_f16.py launches."""
    return UNROLL[get_soc_version().value]


def core_num():
    """Every vector core of the selected platform, as golden/kernels/add_inplace_f16.py launches."""
    return AIV_CORES[get_soc_version().value]


def launch(x, y):
    return add_inplace_(x.copy(), y)


def reference(x, y):
    return x + y

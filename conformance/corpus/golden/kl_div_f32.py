"""August-dialect port of golden/kernels/kl_div_f32.py: pointwise Kullback-Leibler divergence, out = target * (log(target) - input), float32."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "kl_div"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-5}
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


@asctile.jit(always_compile=True)
def kl_div_kernel(in_ptr: asctile.GlobalAddress, target_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                  size: int, num_tiles: int, tile_size: asctile.ConstExpr[int]):
    in_gm = asctile.global_tensor(in_ptr, [size])
    target_gm = asctile.global_tensor(target_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asctile.copy_in(in_gm, [offset], [tile_size])
        target = asctile.copy_in(target_gm, [offset], [tile_size])
        asctile.copy_out(target * (asctile.log(target) - x), out_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = -gen.random(case["shape"], dtype=np.float32) * 5
    target = gen.random(case["shape"], dtype=np.float32) * 0.99 + 0.01
    return (x, target)


def core_num():
    """Every vector core of the selected platform, as golden/kernels/kl_div_f32.py launches."""
    return AIV_CORES[get_soc_version().value]


def launch(x, target):
    if x.shape != target.shape:
        raise ValueError(f"input {tuple(x.shape)} and target {tuple(target.shape)} differ in shape")
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    kl_div_kernel[min(core_num(), num_tiles)](x, target, out, x.size, num_tiles, TILE_SIZE)
    return out


def reference(x, target):
    return (target * (np.log(target) - x)).astype(np.float32)  # kl_div, reduction="none"

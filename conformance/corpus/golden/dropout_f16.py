"""August-dialect port of golden/kernels/dropout_f16.py: dropout apply with a dense mask, out = x * mask / keep_prob, float16."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version

EXPECT = "accept"
OP = "dropout"
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
KEEP_PROB = 0.8
TILE_SIZE = 2048
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asctile.jit(always_compile=True)
def dropout_kernel(x_ptr: asctile.GlobalAddress, mask_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                   size: int, num_tiles: int, scale: float, tile_size: asctile.ConstExpr[int],
                   unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    mask_gm = asctile.global_tensor(mask_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.float32)
        mask = asctile.copy_in(mask_gm, [offset], [tile_size]).to(asctile.float32)
        asctile.copy_out((x * mask * scale).to(asctile.float16), out_gm, [offset])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = (gen.standard_normal(case["shape"], dtype=np.float32) * 2).astype(np.float16)
    mask = (gen.random(case["shape"], dtype=np.float32) < KEEP_PROB).astype(np.float16)
    return (x, mask, KEEP_PROB)


def unroll_factor():
    """The tile loop's unroll factor on the selected platform, as golden/kernels/dropout_f16.py launches."""
    return UNROLL[get_soc_version().value]


def core_num():
    """Every vector core of the selected platform, as golden/kernels/dropout_f16.py launches."""
    return AIV_CORES[get_soc_version().value]


def launch(x, mask, keep_prob):
    if x.shape != mask.shape:
        raise ValueError(f"x {tuple(x.shape)} and mask {tuple(mask.shape)} differ in shape")
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"keep_prob must be in (0, 1], got {keep_prob}")
    out = np.zeros_like(x)
    num_tiles = -(-x.size // TILE_SIZE)
    dropout_kernel[min(core_num(), num_tiles)](x, mask, out, x.size, num_tiles, float(1.0 / keep_prob), TILE_SIZE,
                                               unroll_factor())
    return out


def reference(x, mask, keep_prob):
    return (x.astype(np.float32) * mask.astype(np.float32) / keep_prob).astype(np.float16)

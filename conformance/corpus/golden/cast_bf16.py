"""August-dialect port of golden/kernels/cast_bf16.py: dtype conversion on the vector unit, cell bfloat16 (float32 -> bfloat16, bfloat16 -> float32, float16 -> bfloat16 and bfloat16 -> float16)."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version



def bf16():
    from ml_dtypes import bfloat16  # numpy has no bfloat16 of its own
    return bfloat16


EXPECT = "accept"
OP = "cast"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x128_bf16_to_f16", "shape": [1, 128], "src": "bfloat16", "dst": "float16"},
    {"id": "2500x24_f32_to_bf16", "shape": [2500, 24], "src": "float32", "dst": "bfloat16"},
    {"id": "32x4096_bf16_to_f32", "shape": [32, 4096], "src": "bfloat16", "dst": "float32"},
    {"id": "100003_f16_to_bf16", "shape": [100003], "src": "float16", "dst": "bfloat16"},
    {"id": "7000x1x128_f32_to_bf16", "shape": [7000, 1, 128], "src": "float32", "dst": "bfloat16", "full_only": True},
]
SEED = 2026
TILE_SIZE = 2048
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop
def np_dtype(name):
    return bf16() if name == "bfloat16" else np.dtype(name)


@asctile.jit(always_compile=True)
def cast_to_float16_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                           tile_size: asctile.ConstExpr[int],
                           unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        asctile.copy_out(asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.float16), out_gm, [offset])


@asctile.jit(always_compile=True)
def cast_to_bfloat16_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                            tile_size: asctile.ConstExpr[int],
                            unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        asctile.copy_out(asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.bfloat16), out_gm, [offset])


@asctile.jit(always_compile=True)
def cast_to_float32_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int, num_tiles: int,
                           tile_size: asctile.ConstExpr[int],
                           unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        asctile.copy_out(asctile.copy_in(x_gm, [offset], [tile_size]).to(asctile.float32), out_gm, [offset])
KERNELS = {"float16": cast_to_float16_kernel, "bfloat16": cast_to_bfloat16_kernel, "float32": cast_to_float32_kernel}


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = gen.standard_normal(case["shape"], dtype=np.float32) * 2
    # the destination dtype travels as an empty tensor of that dtype (inputs are tensors and numbers)
    return (x.astype(np_dtype(case["src"])), np.empty(0, dtype=np_dtype(case["dst"])))


def unroll_factor():
    """The tile loop's unroll factor on the selected platform, as golden/kernels/cast_bf16.py launches."""
    return UNROLL[get_soc_version().value]


def core_num():
    """Every vector core of the selected platform, as golden/kernels/cast_bf16.py launches."""
    return AIV_CORES[get_soc_version().value]


def launch(x, like):
    out = np.zeros(x.shape, dtype=like.dtype)
    num_tiles = -(-x.size // TILE_SIZE)
    KERNELS[np.dtype(like.dtype).name][min(core_num(), num_tiles)](x, out, x.size, num_tiles, TILE_SIZE,
                                                                   unroll_factor())
    return out


def reference(x, like):
    return x.astype(like.dtype)

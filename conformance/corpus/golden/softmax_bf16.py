"""August-dialect port of golden/kernels/softmax_bf16.py: softmax over the last axis, bfloat16 (float32 arithmetic)."""
import numpy as np

from asc.experimental import asctile
from asc.lib.runtime import get_soc_version



def bf16():
    from ml_dtypes import bfloat16  # numpy has no bfloat16 of its own
    return bfloat16


EXPECT = "accept"
OP = "softmax"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 1e-4, "rtol": 7.8125e-3}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "64x1024", "shape": [64, 1024]},
    {"id": "2500x64", "shape": [2500, 64]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}
ALIGN = 16                 # 32 bytes of bfloat16: the row is the tile's last dimension
MAX_TILE_BYTES = 16 * 1024  # bfloat16 bytes per [group_rows, cols] tile


@asctile.jit(always_compile=True, reuse_alloc=2)
def softmax_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int,
                   num_cols: asctile.ConstExpr[int], group_rows: asctile.ConstExpr[int],
                   unroll: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, num_cols])
    for row0 in asctile.range(asctile.block_idx() * group_rows, num_rows, asctile.block_num() * group_rows,
                              unroll_factor=unroll):
        rows = asctile.copy_in(x_gm, [row0, 0], [group_rows, num_cols]).to(asctile.float32)
        asctile.copy_out(asctile.softmax(rows).to(asctile.bfloat16), out_gm, [row0, 0])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = (gen.random(case["shape"], dtype=np.float32) * 10 - 5).astype(bf16())
    return (x,)


def _group_rows(num_rows, row_bytes):
    limit = max(1, min(-(-num_rows // AIV_CORES[get_soc_version().value]), MAX_TILE_BYTES // row_bytes))
    return max(d for d in range(1, limit + 1) if num_rows % d == 0)


def launch(x):
    num_cols = x.shape[-1]
    row_bytes = num_cols * x.itemsize
    if num_cols % ALIGN or row_bytes > MAX_TILE_BYTES:
        raise ValueError(f"rows of {num_cols} columns must be a multiple of {ALIGN} and fit "
                         f"{MAX_TILE_BYTES} bytes (a whole row is one tile)")
    num_rows = x.size // num_cols
    group_rows = _group_rows(num_rows, row_bytes)
    num_groups = num_rows // group_rows
    out = np.zeros_like(x)
    soc = get_soc_version().value
    softmax_kernel[min(AIV_CORES[soc], num_groups)](x, out, num_rows, num_cols, group_rows, UNROLL[soc])
    return out


def reference(x):
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)

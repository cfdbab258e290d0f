"""August-dialect port of golden/kernels/reduce_sum_bf16.py: sum over the last axis, bfloat16 in and out (float32 accumulation)."""
import numpy as np

from asc.experimental import asctile



def bf16():
    from ml_dtypes import bfloat16  # numpy has no bfloat16 of its own
    return bfloat16


EXPECT = "accept"
OP = "reduce_sum"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 5e-2, "rtol": 7.8125e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "7x1000", "shape": [7, 1000]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100x1623", "shape": [100, 1623]},
    {"id": "7000x128", "shape": [7000, 128], "full_only": True},
]
SEED = 2026
CORE_NUM = 32
OUT_PAD = 16
ALIGN = 16
MAX_TILE_COLS = 8192


@asctile.jit(always_compile=True)
def reduce_sum_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int,
                      tile_cols: asctile.ConstExpr[int], out_pad: asctile.ConstExpr[int]):
    out_gm = asctile.global_tensor(out_ptr, [num_rows, out_pad])
    for r in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        row_gm = asctile.global_tensor(x_ptr + r * num_cols, [num_cols])
        s = asctile.reduce_sum(asctile.copy_in(row_gm, [0], [tile_cols], pad_value=0).to(asctile.float32))
        asctile.copy_out(asctile.full([1, out_pad], s, dtype=asctile.bfloat16), out_gm, [r, 0])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = (gen.random(case["shape"], dtype=np.float32) * 10 - 5).astype(bf16())
    return (x,)


def launch(x):
    num_rows, num_cols = x.shape
    tile_cols = -(-num_cols // ALIGN) * ALIGN
    if tile_cols > MAX_TILE_COLS:
        raise ValueError(f"rows of {num_cols} columns do not fit one UB tile (max {MAX_TILE_COLS})")
    out = np.zeros((num_rows, OUT_PAD), dtype=bf16())
    reduce_sum_kernel[min(CORE_NUM, num_rows)](x, out, num_rows, num_cols, tile_cols, OUT_PAD)
    return out[:, 0].copy()


def reference(x):
    return x.astype(np.float64).sum(axis=1).astype(bf16())

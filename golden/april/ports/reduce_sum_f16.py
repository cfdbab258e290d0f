"""The August 2026 translation of ``golden/april/reduce_sum_f16.py``, spelling for spelling.

``tests/golden/test_dialects.py`` runs both on every quick case and requires identical outputs and
modelled ticks: the two dialects lower to the same ops. The cell's golden (``golden/kernels/reduce_sum_f16.py``)
has since moved to a faster schedule the April API cannot express (see its docstring), so the exact
translation lives here.
"""
import numpy as np

import asc
import asc2

OP = "reduce_sum"
DTYPE = "float16"
TOLERANCE = {"atol": 2.0, "rtol": 5e-2}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "1x128", "shape": [1, 128]},
    {"id": "7x1000", "shape": [7, 1000]},
]

SEED = 2026
CORE_NUM = 32
OUT_PAD = 16            # 16 x float16 = 32 bytes, the minimum store
ALIGN = 16              # row tiles must be a multiple of 32 bytes = 16 float16
MAX_TILE_COLS = 8192    # a whole row per tile (UB budget)


@asc2.jit(always_compile=True)
def reduce_sum_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int,
                      tile_cols: asc2.ConstExpr[int], out_pad: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.global_tensor(out_ptr, [num_rows, out_pad])
    for r in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        row = asc2.copy_in(x_gm, [r, 0], [1, tile_cols], pad_value=0)
        s = asc2.reduce_sum(row.to(asc2.float32))
        asc2.copy_out(asc2.full([1, out_pad], s, dtype=asc2.float16), out_gm, [r, 0])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x,)


def launch(x):
    num_rows, num_cols = x.shape
    tile_cols = asc.ceildiv(num_cols, ALIGN) * ALIGN
    if tile_cols > MAX_TILE_COLS:
        raise ValueError(f"rows of {num_cols} columns do not fit one UB tile (max {MAX_TILE_COLS})")
    out = np.zeros((num_rows, OUT_PAD), dtype=np.float16)
    reduce_sum_kernel[min(CORE_NUM, num_rows)](x, out, num_rows, num_cols, tile_cols, OUT_PAD)
    return out[:, 0].copy()


def reference(x):
    return x.astype(np.float64).sum(axis=1).astype(np.float16)

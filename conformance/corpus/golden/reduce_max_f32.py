"""August-dialect port of golden/kernels/reduce_max_f32.py: one row per step, padded with the identity of max."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "reduce_max"
DTYPE = "float32"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [{"id": "4x100", "shape": [4, 100]}, {"id": "37x1000", "shape": [37, 1000]}]
CORE_NUM = 32
OUT_PAD = 8           # 32 bytes: the minimum store
ALIGN = 8             # row tiles are a multiple of 32 bytes


@asctile.jit(always_compile=True)
def reduce_max_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int,
                      tile_cols: asctile.ConstExpr[int], out_pad: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, out_pad])
    for r in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        row = asctile.copy_in(x_gm, [r, 0], [1, tile_cols], pad_value=float("-inf"))
        v = asctile.reduce_max(row)
        asctile.copy_out(asctile.full([1, out_pad], v, dtype=asctile.float32), out_gm, [r, 0])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return (rng.random(case["shape"], dtype=np.float32) * 10 - 5,)


def launch(x):
    num_rows, num_cols = x.shape
    tile_cols = -(-num_cols // ALIGN) * ALIGN
    out = np.zeros((num_rows, OUT_PAD), dtype=x.dtype)
    reduce_max_kernel[min(CORE_NUM, num_rows)](x, out, num_rows, num_cols, tile_cols, OUT_PAD)
    return out[:, 0].copy()


def reference(x):
    return x.max(axis=1)

"""August-dialect port of golden/kernels/reduce_sum_f32.py: tiles of rows (real_shape), padded with the identity of sum."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "reduce_sum"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-4}
CASES = [{"id": "4x100", "shape": [4, 100]}, {"id": "37x1000", "shape": [37, 1000]},
         {"id": "40x8192", "shape": [40, 8192]}]
CORE_NUM = 32
TILE_ELEMENTS = 8192
OUT_PAD = 8           # 32 bytes: the minimum store
ALIGN = 8             # row tiles are a multiple of 32 bytes


@asctile.jit(always_compile=True)
def reduce_sum_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int,
                      tile_rows: asctile.ConstExpr[int], tile_cols: asctile.ConstExpr[int],
                      out_pad: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    if out_pad == 1:
        out_gm = asctile.global_tensor(out_ptr, [num_rows])
    else:
        out_gm = asctile.global_tensor(out_ptr, [num_rows, out_pad])
    for r in asctile.range(asctile.block_idx() * tile_rows, num_rows, asctile.block_num() * tile_rows,
                           unroll_factor=2):
        block = asctile.copy_in(x_gm, [r, 0], [tile_rows, tile_cols], real_shape=[tile_rows, num_cols],
                                pad_value=0)
        v = asctile.reduce_sum(block, 1)
        if out_pad == 1:
            asctile.copy_out(v, out_gm, [r])
        else:
            asctile.copy_out(v.reshape(1, 1).broadcast_to(1, out_pad), out_gm, [r, 0])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return (rng.random(case["shape"], dtype=np.float32) * 10 - 5,)


def launch(x):
    num_rows, num_cols = x.shape
    tile_cols = -(-num_cols // ALIGN) * ALIGN
    per_core = max(min(num_rows, 2), -(-num_rows // CORE_NUM))
    tile_rows = -(-per_core // -(-per_core // max(1, TILE_ELEMENTS // tile_cols)))
    row_tiles = -(-num_rows // tile_rows)
    out_pad = OUT_PAD if tile_rows == 1 and row_tiles > 1 else 1
    out = np.zeros((num_rows, out_pad), dtype=x.dtype)
    reduce_sum_kernel[min(CORE_NUM, row_tiles)](x, out, num_rows, num_cols, tile_rows, tile_cols, out_pad)
    return out[:, 0].copy()


def reference(x):
    return x.astype(np.float64).sum(axis=1).astype(np.float32)

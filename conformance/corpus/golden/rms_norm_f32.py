"""August-dialect port of golden/kernels/rms_norm_f32.py: a whole-row kernel (any width,
real_shape) and a split-row one (carried sum).

Both kernels use reuse_alloc=2: pyasc-dev's default allocation (a buffer per tile of every unrolled
copy) counts more UB than there is for their nested unrolled loops.
"""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "rms_norm"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [{"id": "8x256", "shape": [8, 256]}, {"id": "5x1055", "shape": [5, 1055]},
         {"id": "5x3000", "shape": [5, 3000]}]
EPS = 1e-6
CORE_NUM = 32
ALIGN = 8
FULL_ROW_MAX_COLS = 2048
SPLIT_TILE_COLS = 2048


@asctile.jit(always_compile=True, reuse_alloc=2)
def rms_norm_full_row_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress,
                             out_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int, inv_cols: float,
                             epsilon: float, tile_cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    gamma_gm = asctile.global_tensor(gamma_ptr, [1, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, num_cols])
    row_shape = [1, num_cols]
    gamma = asctile.copy_in(gamma_gm, [0, 0], [1, tile_cols], real_shape=row_shape, pad_value=0)
    for row in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        x = asctile.copy_in(x_gm, [row, 0], [1, tile_cols], real_shape=row_shape, pad_value=0)
        inv_rms = 1.0 / asctile.sqrt(asctile.reduce_sum(x * x) * inv_cols + epsilon)
        asctile.copy_out((x * inv_rms * gamma), out_gm, [row, 0], real_shape=row_shape)


@asctile.jit(always_compile=True, reuse_alloc=2)
def rms_norm_split_d_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress,
                            out_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int, num_tiles: int,
                            inv_cols: float, epsilon: float, tile_cols: asctile.ConstExpr[int]):
    gamma_gm = asctile.global_tensor(gamma_ptr, [num_cols])
    for row in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        x_gm = asctile.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asctile.global_tensor(out_ptr + row * num_cols, [num_cols])
        acc = asctile.zeros([tile_cols], dtype=asctile.float32)
        for t in asctile.range(num_tiles, unroll_factor=2):
            x = asctile.copy_in(x_gm, [t * tile_cols], [tile_cols], pad_value=0)
            acc = acc + x * x
        inv_rms = 1.0 / asctile.sqrt(asctile.reduce_sum(acc) * inv_cols + epsilon)
        for t in asctile.range(num_tiles, unroll_factor=2):
            col = t * tile_cols
            x = asctile.copy_in(x_gm, [col], [tile_cols])
            gamma = asctile.copy_in(gamma_gm, [col], [tile_cols])
            asctile.copy_out((x * inv_rms * gamma), out_gm, [col])


def make_inputs(case):
    num_rows, num_cols = case["shape"]
    rng = np.random.default_rng(2026)
    x = rng.standard_normal((num_rows, num_cols), dtype=np.float32).astype(np.float32)
    gamma = (rng.standard_normal(num_cols, dtype=np.float32) * 0.5 + 1.0).astype(np.float32)
    return (x, gamma, EPS)


def launch(x, gamma, eps):
    num_rows, num_cols = x.shape
    out = np.zeros_like(x)
    if num_cols <= FULL_ROW_MAX_COLS:
        tile_cols = -(-num_cols // ALIGN) * ALIGN
        rms_norm_full_row_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, num_cols, 1.0 / num_cols,
                                                          float(eps), tile_cols)
    else:
        tile_cols = min(SPLIT_TILE_COLS, -(-num_cols // ALIGN) * ALIGN)
        num_tiles = -(-num_cols // tile_cols)
        rms_norm_split_d_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, num_cols, num_tiles,
                                                         1.0 / num_cols, float(eps), tile_cols)
    return out


def reference(x, gamma, eps):
    x64 = x.astype(np.float64)
    inv = 1.0 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps)
    return (x64 * inv * gamma.astype(np.float64)).astype(x.dtype)

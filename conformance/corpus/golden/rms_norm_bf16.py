"""August-dialect port of golden/kernels/rms_norm_bf16.py: RMS normalisation over the last axis with a weight, bfloat16 (float32 statistics).

Both kernels use reuse_alloc=2: pyasc-dev's default allocation (a buffer per tile of every unrolled
copy) counts more UB than there is for split_d's nested unrolled loops and row_tiles' 8192-element tiles.
"""
import math

import numpy as np

from asc.experimental import asctile



def bf16():
    from ml_dtypes import bfloat16  # numpy has no bfloat16 of its own
    return bfloat16


EXPECT = "accept"
OP = "rms_norm"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 1.5625e-2, "rtol": 7.8125e-3}
CASES = [
    {"id": "8x256_full_row", "shape": [8, 256], "kernel": "row_tiles"},
    {"id": "8x1055_split_d", "shape": [8, 1055], "kernel": "row_tiles"},
    {"id": "2500x24_split_d", "shape": [2500, 24], "kernel": "row_tiles"},
    {"id": "64x100003_split_d", "shape": [64, 100003], "kernel": "split_d", "full_only": True},
]
SEED = 2026
EPS = 1e-6
CORE_NUM = 32
ALIGN = 16
ROW_TILE_MAX_COLS = 4096
TILE_ELEMENTS = 8192
SPLIT_TILE_COLS = 4096


@asctile.jit(always_compile=True, reuse_alloc=2)
def rms_norm_row_tiles_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                              num_rows: int, num_cols: int, row_tiles: int, tile_epsilon: float, gamma_scale: float,
                              tile_rows: asctile.ConstExpr[int], tile_cols: asctile.ConstExpr[int],
                              padded: asctile.ConstExpr[bool]):
    gamma = asctile.copy_in(asctile.global_tensor(gamma_ptr, [num_cols]), [0], [tile_cols], real_shape=[num_cols])
    gamma = gamma.to(asctile.float32)
    if padded:
        gamma = gamma * gamma_scale
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, num_cols])
    for i in asctile.range(asctile.block_idx(), row_tiles, asctile.block_num()):
        r = i * tile_rows
        x = asctile.copy_in(x_gm, [r, 0], [tile_rows, tile_cols], real_shape=[tile_rows, num_cols]).to(asctile.float32)
        y = asctile.rms_norm(x, gamma, tile_epsilon)
        asctile.copy_out(y.to(asctile.bfloat16), out_gm, [r, 0], real_shape=[tile_rows, num_cols])


@asctile.jit(always_compile=True, reuse_alloc=2)
def rms_norm_split_d_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                            num_rows: int, num_cols: int, num_tiles: int, epsilon: float,
                            tile_cols: asctile.ConstExpr[int]):
    gamma_gm = asctile.global_tensor(gamma_ptr, [num_cols])
    for row in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        x_gm = asctile.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asctile.global_tensor(out_ptr + row * num_cols, [num_cols])
        acc = asctile.zeros([tile_cols], dtype=asctile.float32)
        for t in asctile.range(num_tiles, unroll_factor=2):
            x = asctile.copy_in(x_gm, [t * tile_cols], [tile_cols], pad_value=0).to(asctile.float32)
            acc = acc + x * x
        inv_rms = 1.0 / asctile.sqrt(asctile.reduce_sum(acc) / num_cols + epsilon)
        for t in asctile.range(num_tiles, unroll_factor=2):
            col = t * tile_cols
            x = asctile.copy_in(x_gm, [col], [tile_cols]).to(asctile.float32)
            gamma = asctile.copy_in(gamma_gm, [col], [tile_cols]).to(asctile.float32)
            asctile.copy_out((x * inv_rms * gamma).to(asctile.bfloat16), out_gm, [col])


def make_inputs(case):
    num_rows, num_cols = case["shape"]
    gen = np.random.default_rng(SEED)
    x = gen.standard_normal((num_rows, num_cols), dtype=np.float32).astype(bf16())
    gamma = (gen.standard_normal((num_cols,), dtype=np.float32) * 0.5 + 1.0).astype(bf16())
    return (x, gamma, EPS)


def select_kernel(num_rows, num_cols):
    """The dispatcher: "row_tiles" when a row fits one UB tile row, else "split_d"."""
    return "row_tiles" if num_cols <= ROW_TILE_MAX_COLS else "split_d"


def row_tiling(num_rows, tile_cols):
    per_core = -(-num_rows // CORE_NUM)
    tiles_per_core = -(-per_core // max(1, TILE_ELEMENTS // tile_cols))
    tile_rows = -(-per_core // tiles_per_core)
    return tile_rows, -(-num_rows // tile_rows)


def rms_norm_launch(x, gamma, eps=EPS):
    if x.ndim != 2 or gamma.shape != (x.shape[1],):
        raise ValueError(f"expected x [rows, cols] and gamma [cols], got {tuple(x.shape)} and {tuple(gamma.shape)}")
    num_rows, num_cols = x.shape
    if num_rows * num_cols >= 2 ** 31:
        raise ValueError(f"{num_rows} x {num_cols} elements exceed the kernel's int32 offsets")
    out = np.zeros_like(x)
    if select_kernel(num_rows, num_cols) == "row_tiles":
        tile_cols = -(-num_cols // ALIGN) * ALIGN
        tile_rows, row_tiles = row_tiling(num_rows, tile_cols)
        scale = num_cols / tile_cols
        rms_norm_row_tiles_kernel[min(CORE_NUM, row_tiles)](x, gamma, out, num_rows, num_cols, row_tiles,
                                                            float(eps) * scale, math.sqrt(scale), tile_rows,
                                                            tile_cols, tile_cols != num_cols)
    else:
        tile_cols = min(SPLIT_TILE_COLS, -(-num_cols // ALIGN) * ALIGN)
        num_tiles = -(-num_cols // tile_cols)
        rms_norm_split_d_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, num_cols, num_tiles, float(eps),
                                                         tile_cols)
    return out


def launch(x, gamma, eps):
    return rms_norm_launch(x, gamma, eps)


def reference(x, gamma, eps):
    x32 = x.astype(np.float32)
    mean_sq = np.mean(x32 * x32, axis=-1, keepdims=True)
    return (x32 / np.sqrt(mean_sq + eps) * gamma.astype(np.float32)).astype(x.dtype)

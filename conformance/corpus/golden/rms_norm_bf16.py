"""August-dialect port of golden/kernels/rms_norm_bf16.py: RMS normalisation over the last axis with a weight, bfloat16 (float32 statistics).

Both kernels use reuse_alloc=2: pyasc-dev's default allocation (a buffer per tile of every unrolled
copy) counts more UB than there is for their nested unrolled loops.
"""
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
    {"id": "8x256_full_row", "shape": [8, 256], "kernel": "full_row"},
    {"id": "8x1055_split_d", "shape": [8, 1055], "kernel": "split_d"},
    {"id": "2500x24_split_d", "shape": [2500, 24], "kernel": "split_d"},
    {"id": "64x100003_split_d", "shape": [64, 100003], "kernel": "split_d", "full_only": True},
]
SEED = 2026
EPS = 1e-6
CORE_NUM = 32
ALIGN = 16
FULL_ROW_MAX_COLS = 4096
SPLIT_TILE_COLS = 1024


@asctile.jit(always_compile=True, reuse_alloc=2)
def rms_norm_full_row_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                             num_rows: int, epsilon: float, num_cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    gamma_gm = asctile.global_tensor(gamma_ptr, [1, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, num_cols])
    gamma = asctile.copy_in(gamma_gm, [0, 0], [1, num_cols]).to(asctile.float32)
    for row in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        x = asctile.copy_in(x_gm, [row, 0], [1, num_cols]).to(asctile.float32)
        inv_rms = 1.0 / asctile.sqrt(asctile.reduce_sum(x * x) / num_cols + epsilon)
        asctile.copy_out((x * inv_rms * gamma).to(asctile.bfloat16), out_gm, [row, 0])


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
    """The dispatcher: "full_row" when the row is one aligned UB tile, else "split_d"."""
    return "full_row" if num_cols % ALIGN == 0 and num_cols <= FULL_ROW_MAX_COLS else "split_d"


def rms_norm_launch(x, gamma, eps=EPS):
    if x.ndim != 2 or gamma.shape != (x.shape[1],):
        raise ValueError(f"expected x [rows, cols] and gamma [cols], got {tuple(x.shape)} and {tuple(gamma.shape)}")
    num_rows, num_cols = x.shape
    if num_rows * num_cols >= 2 ** 31:
        raise ValueError(f"{num_rows} x {num_cols} elements exceed the kernel's int32 offsets")
    out = np.zeros_like(x)
    if select_kernel(num_rows, num_cols) == "full_row":
        rms_norm_full_row_kernel[min(CORE_NUM, num_rows)](x, gamma, out, num_rows, float(eps), num_cols)
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

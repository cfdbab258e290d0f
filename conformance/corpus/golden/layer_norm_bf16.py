"""August-dialect port of golden/kernels/layer_norm_bf16.py: layer normalisation over the last axis with gamma and beta, bfloat16 (float32 statistics)."""
import numpy as np

from asc.experimental import asctile



def bf16():
    from ml_dtypes import bfloat16  # numpy has no bfloat16 of its own
    return bfloat16


EXPECT = "accept"
OP = "layer_norm"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 1.5625e-2, "rtol": 7.8125e-3}
CASES = [
    {"id": "8x256", "shape": [8, 256]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "100x1623", "shape": [100, 1623]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]
SEED = 2026
EPS = 1e-5
ALIGN = 16
MAX_COLS = 4096
CORE_NUM = 32


@asctile.jit(always_compile=True)
def layer_norm_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress, beta_ptr: asctile.GlobalAddress,
                      out_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int, epsilon: float,
                      tile_cols: asctile.ConstExpr[int]):
    gamma = asctile.copy_in(asctile.global_tensor(gamma_ptr, [num_cols]), [0], [tile_cols], pad_value=0).to(asctile.float32)
    beta = asctile.copy_in(asctile.global_tensor(beta_ptr, [num_cols]), [0], [tile_cols], pad_value=0).to(asctile.float32)
    pad = tile_cols - num_cols
    for row in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        x_gm = asctile.global_tensor(x_ptr + row * num_cols, [num_cols])
        out_gm = asctile.global_tensor(out_ptr + row * num_cols, [num_cols])
        x = asctile.copy_in(x_gm, [0], [tile_cols], pad_value=0).to(asctile.float32)
        mean = asctile.reduce_sum(x) / num_cols
        d = x - mean
        var = (asctile.reduce_sum(d * d) - mean * mean * pad) / num_cols
        y = d * (1.0 / asctile.sqrt(var + epsilon)) * gamma + beta
        asctile.copy_out(y.to(asctile.bfloat16), out_gm, [0])


def make_inputs(case):
    shape = case["shape"]
    gen = np.random.default_rng(SEED)
    x = (gen.standard_normal(shape, dtype=np.float32) + 0.5).astype(bf16())
    gamma = (gen.standard_normal((shape[-1],), dtype=np.float32) * 0.5 + 1.0).astype(bf16())
    beta = (gen.standard_normal((shape[-1],), dtype=np.float32) * 0.5).astype(bf16())
    return (x, gamma, beta, EPS)


def launch(x, gamma, beta, eps):
    num_cols = x.shape[-1]
    if gamma.shape != (num_cols,) or beta.shape != (num_cols,):
        raise ValueError(f"gamma and beta must be [{num_cols}], got {tuple(gamma.shape)} and {tuple(beta.shape)}")
    if num_cols > MAX_COLS:
        raise ValueError(f"rows of {num_cols} columns exceed the full-row kernel's {MAX_COLS}")
    if x.size >= 2 ** 31:
        raise ValueError(f"{x.size} elements exceed the kernel's int32 offsets")
    num_rows = x.size // num_cols
    tile_cols = -(-num_cols // ALIGN) * ALIGN
    out = np.zeros_like(x)
    layer_norm_kernel[min(CORE_NUM, num_rows)](x, gamma, beta, out, num_rows, num_cols,
                                               float(eps), tile_cols)
    return out


def reference(x, gamma, beta, eps):
    x32 = x.astype(np.float32)
    mean = x32.mean(axis=-1, keepdims=True)
    var = ((x32 - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (x32 - mean) / np.sqrt(var + eps) * gamma.astype(np.float32) + beta.astype(np.float32)
    return y.astype(x.dtype)

"""August-dialect port of golden/kernels/batch_norm_f32.py: batch normalisation in training mode (batch statistics), NCHW, float32."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "batch_norm"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-4}
CASES = [
    {"id": "2x16x8x8", "shape": [2, 16, 8, 8]},
    {"id": "4x24x25x25", "shape": [4, 24, 25, 25]},
    {"id": "8x32x1623x1", "shape": [8, 32, 1623, 1]},
    {"id": "16x64x32x32", "shape": [16, 64, 32, 32], "full_only": True},
]
SEED = 2026
EPS = 1e-5
ALIGN = 8          # 32 bytes of float32
MAX_TILE = 2048
MAX_RESIDENT = 16384
CORE_NUM = 32


@asctile.jit(always_compile=True)
def batch_norm_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress, beta_ptr: asctile.GlobalAddress,
                      y_ptr: asctile.GlobalAddress, batch: int, channels: int, plane: int, num_tiles: int,
                      epsilon: float, tile: asctile.ConstExpr[int]):
    gamma_gm = asctile.global_tensor(gamma_ptr, [channels])
    beta_gm = asctile.global_tensor(beta_ptr, [channels])
    count = batch * plane
    for c in asctile.range(asctile.block_idx(), channels, asctile.block_num()):
        acc = asctile.zeros([tile], dtype=asctile.float32)
        acc_sq = asctile.zeros([tile], dtype=asctile.float32)
        for nn in asctile.range(batch):
            x_gm = asctile.global_tensor(x_ptr + (nn * channels + c) * plane, [plane])
            for t in asctile.range(num_tiles, unroll_factor=2):
                x = asctile.copy_in(x_gm, [t * tile], [tile], pad_value=0)
                acc = acc + x
                acc_sq = acc_sq + x * x
        mean = asctile.reduce_sum(acc) / count
        var = asctile.reduce_sum(acc_sq) / count - mean * mean
        scale = asctile.copy_in(gamma_gm, [c]) / asctile.sqrt(var + epsilon)
        shift = asctile.copy_in(beta_gm, [c]) - mean * scale
        for nn in asctile.range(batch):
            x_gm = asctile.global_tensor(x_ptr + (nn * channels + c) * plane, [plane])
            y_gm = asctile.global_tensor(y_ptr + (nn * channels + c) * plane, [plane])
            for t in asctile.range(num_tiles, unroll_factor=2):
                x = asctile.copy_in(x_gm, [t * tile], [tile])
                asctile.copy_out(x * scale + shift, y_gm, [t * tile])


@asctile.jit(always_compile=True, reuse_alloc=2)
def batch_norm_resident_kernel(x_ptr: asctile.GlobalAddress, gamma_ptr: asctile.GlobalAddress,
                               beta_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, channels: int, plane: int,
                               inv_count: float, epsilon: float, batch: asctile.ConstExpr[int],
                               tile_cols: asctile.ConstExpr[int]):
    gamma_gm = asctile.global_tensor(gamma_ptr, [channels])
    beta_gm = asctile.global_tensor(beta_ptr, [channels])
    x_gm = asctile.global_tensor(x_ptr, [batch, channels * plane])
    y_gm = asctile.global_tensor(y_ptr, [batch, channels * plane])
    for c in asctile.range(asctile.block_idx(), channels, asctile.block_num()):
        col = c * plane
        x = asctile.copy_in(x_gm, [0, col], [batch, tile_cols], real_shape=[batch, plane])
        mean = asctile.reduce_sum(x) * inv_count
        var = asctile.reduce_sum(x * x) * inv_count - mean * mean
        scale = asctile.copy_in(gamma_gm, [c]) / asctile.sqrt(var + epsilon)
        shift = asctile.copy_in(beta_gm, [c]) - mean * scale
        asctile.copy_out(x * scale + shift, y_gm, [0, col], real_shape=[batch, plane])


def make_inputs(case):
    shape = case["shape"]
    gen = np.random.default_rng(SEED)
    x = gen.standard_normal(shape, dtype=np.float32) * 2 + 1
    gamma = gen.standard_normal((shape[1],), dtype=np.float32) * 0.5 + 1
    beta = gen.standard_normal((shape[1],), dtype=np.float32) * 0.5
    return (x, gamma, beta, EPS)


def launch(x, gamma, beta, eps):
    if x.ndim != 4 or gamma.shape != (x.shape[1],) or beta.shape != (x.shape[1],):
        raise ValueError(f"expected x [N, C, H, W] and gamma, beta [C], got {tuple(x.shape)}, "
                         f"{tuple(gamma.shape)}, {tuple(beta.shape)}")
    if x.size >= 2 ** 31:
        raise ValueError(f"{x.size} elements exceed the kernel's int32 offsets")
    batch, channels, h, w = x.shape
    plane = h * w
    tile = min(MAX_TILE, -(-plane // ALIGN) * ALIGN)
    num_tiles = -(-plane // tile)
    y = np.zeros_like(x)
    tile_cols = -(-plane // ALIGN) * ALIGN
    if batch * tile_cols <= MAX_RESIDENT:
        batch_norm_resident_kernel[min(CORE_NUM, channels)](x, gamma, beta, y, channels, plane, 1.0 / (batch * plane),
                                                            float(eps), batch, tile_cols)
        return y
    batch_norm_kernel[min(CORE_NUM, channels)](x, gamma, beta, y, batch,
                                               channels, plane, num_tiles, float(eps), tile)
    return y


def reference(x, gamma, beta, eps):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=(0, 2, 3), keepdims=True)
    var = x64.var(axis=(0, 2, 3), keepdims=True)  # biased, as batch_norm in training mode
    y = (x64 - mean) / np.sqrt(var + eps) * gamma.reshape(1, -1, 1, 1) + beta.reshape(1, -1, 1, 1)
    return y.astype(np.float32)

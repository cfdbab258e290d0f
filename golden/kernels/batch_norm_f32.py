#!/usr/bin/env python3
"""Golden kernel: batch normalisation in training mode (batch statistics), NCHW, float32.

Operation
    x [N, C, H, W], gamma and beta [C], float32; per channel c the mean and the biased variance
    are taken over the N * H * W elements of that channel, and
        y[n, c] = (x[n, c] - mean_c) / sqrt(var_c + eps) * gamma_c + beta_c,   eps = 1e-5
    (``torch.nn.functional.batch_norm(x, None, None, gamma, beta, training=True)``).

Cell metadata (mirrors capabilities.yaml, batch_norm/float32/<platform>; do not drift)
    shapes      [2, 16, 8, 8], [4, 24, 25, 25], [8, 32, 1623, 1], [16, 64, 32, 32] (``full_only``):
                all four take the resident kernel (N x plane rounded up to 8: 128, 2528, 12992,
                16384 elements).
    tolerance   atol 1e-4, rtol 1e-4.
    regime      one channel per step, two kernels chosen on the host:
                resident (``batch_norm_resident_kernel``, N x tile_cols <= MAX_RESIDENT = 16384, with
                tile_cols = H * W rounded up to 8): the channel's N planes come in one 2-D window
                [N, tile_cols] of x viewed as [N, C * H * W] (column c * H * W, row stride C * H * W)
                and stay in UB: sum and sum of squares reduced from the tile, then y = x * scale +
                shift stored by one 2-D copy_out. One load and one store a channel.
                streamed (``batch_norm_kernel``, larger channels): each (n, c) plane is streamed in
                1-D tiles of tile = min(2048, H * W rounded up to 8). Pass 1 accumulates x and x^2
                elementwise into two float32 tiles over every plane of the channel (reduced once);
                pass 2 reloads the planes and writes y.
                Both use the per-channel scalars scale = gamma_c / sqrt(var_c + eps) and
                shift = beta_c - mean_c * scale.
    tail        H * W = 625 and 1623 are not multiples of 8: resident: real_shape [N, H * W] reads
                only the channel's columns (zeros pad the tile and add nothing to either sum) and
                writes only them; streamed: each plane is its own 1-D global tensor
                (``x_ptr + (n * C + c) * H * W``), so a tile's copy_in reads only that plane and its
                copy_out writes only the plane.
    partitioning
                channel c goes to block c % block_num, launched on min(CORE_NUM, C) blocks; 24
                channels leave 8 of 32 blocks idle, 64 give two channels to each block.

Non-obvious constraints
    * August 2026 dialect. All loops are the builtin ``range`` with the default ``gm_barrier=False``;
      the streamed pass-1 loops carry the two accumulators from trip to trip (legal: the barrier
      orders only global-memory stores before the next trip's loads, and pass 1 stores nothing).
      Pass 2 (and the resident kernel) only reads x and writes y, which never alias.
    * gamma_c and beta_c are scalar reads (``copy_in`` without a shape). The resident kernel takes
      1 / (N * H * W) from the host: a scalar float division costs the scalar unit ~250 ticks on C310.
    * var = E[x^2] - mean^2 in float32: for these inputs (mean ~1, std ~2) the cancellation costs
      about two bits, far inside the tolerance; a two-pass variance would read x a third time.
    * The resident kernel is compiled with ``reuse_alloc=2`` (x, x * x and y share buffers as they
      die): its largest tile of 16384 float32 (64 KiB) stays within C220's 192 KiB.
    * N is a ConstExpr of the resident kernel (the tile's row count); C, H * W are runtime ints.
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    The per-channel sums over up to 16384 elements carry float32 rounding of ~1e-6 relative (with
    tile-wise partial sums), the variance loses ~2 bits to cancellation, and y adds two float32
    operations: errors stay below ~1e-5 for |y| up to ~5; 1e-4 / 1e-4 leaves margin for a different
    reduction order on hardware.

Inputs: torch CPU tensors, seed 2026: x ~ N(1, 2^2), gamma ~ N(1, 0.5^2), beta ~ N(0, 0.5^2).
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

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


@asc2.jit(always_compile=True)
def batch_norm_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, beta_ptr: asc2.GlobalAddress,
                      y_ptr: asc2.GlobalAddress, batch: int, channels: int, plane: int, num_tiles: int,
                      epsilon: float, tile: asc2.ConstExpr[int]):
    gamma_gm = asc2.global_tensor(gamma_ptr, [channels])
    beta_gm = asc2.global_tensor(beta_ptr, [channels])
    count = batch * plane
    for c in range(asc2.block_idx(), channels, asc2.block_num()):
        acc = asc2.zeros([tile], dtype=asc2.float32)
        acc_sq = asc2.zeros([tile], dtype=asc2.float32)
        for nn in range(batch):
            x_gm = asc2.global_tensor(x_ptr + (nn * channels + c) * plane, [plane])
            for t in range(num_tiles, unroll_factor=2):
                x = asc2.copy_in(x_gm, [t * tile], [tile], pad_value=0)
                acc = acc + x
                acc_sq = acc_sq + x * x
        mean = asc2.reduce_sum(acc) / count
        var = asc2.reduce_sum(acc_sq) / count - mean * mean
        scale = asc2.copy_in(gamma_gm, [c]) / asc2.sqrt(var + epsilon)
        shift = asc2.copy_in(beta_gm, [c]) - mean * scale
        for nn in range(batch):
            x_gm = asc2.global_tensor(x_ptr + (nn * channels + c) * plane, [plane])
            y_gm = asc2.global_tensor(y_ptr + (nn * channels + c) * plane, [plane])
            for t in range(num_tiles, unroll_factor=2):
                x = asc2.copy_in(x_gm, [t * tile], [tile])
                asc2.copy_out(x * scale + shift, y_gm, [t * tile])


@asc2.jit(always_compile=True, reuse_alloc=2)
def batch_norm_resident_kernel(x_ptr: asc2.GlobalAddress, gamma_ptr: asc2.GlobalAddress, beta_ptr: asc2.GlobalAddress,
                               y_ptr: asc2.GlobalAddress, channels: int, plane: int, inv_count: float, epsilon: float,
                               batch: asc2.ConstExpr[int], tile_cols: asc2.ConstExpr[int]):
    gamma_gm = asc2.global_tensor(gamma_ptr, [channels])
    beta_gm = asc2.global_tensor(beta_ptr, [channels])
    x_gm = asc2.global_tensor(x_ptr, [batch, channels * plane])
    y_gm = asc2.global_tensor(y_ptr, [batch, channels * plane])
    for c in range(asc2.block_idx(), channels, asc2.block_num()):
        col = c * plane
        x = asc2.copy_in(x_gm, [0, col], [batch, tile_cols], real_shape=[batch, plane])
        mean = asc2.reduce_sum(x) * inv_count
        var = asc2.reduce_sum(x * x) * inv_count - mean * mean
        scale = asc2.copy_in(gamma_gm, [c]) / asc2.sqrt(var + epsilon)
        shift = asc2.copy_in(beta_gm, [c]) - mean * scale
        asc2.copy_out(x * scale + shift, y_gm, [0, col], real_shape=[batch, plane])


def make_inputs(case):
    shape = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn(shape, generator=gen, dtype=torch.float32) * 2 + 1
    gamma = torch.randn((shape[1],), generator=gen, dtype=torch.float32) * 0.5 + 1
    beta = torch.randn((shape[1],), generator=gen, dtype=torch.float32) * 0.5
    return (x, gamma, beta, EPS)


def launch(x, gamma, beta, eps):
    if x.dim() != 4 or gamma.shape != (x.shape[1],) or beta.shape != (x.shape[1],):
        raise ValueError(f"expected x [N, C, H, W] and gamma, beta [C], got {tuple(x.shape)}, "
                         f"{tuple(gamma.shape)}, {tuple(beta.shape)}")
    if x.numel() >= 2 ** 31:
        raise ValueError(f"{x.numel()} elements exceed the kernel's int32 offsets")
    batch, channels, h, w = x.shape
    plane = h * w
    tile = min(MAX_TILE, -(-plane // ALIGN) * ALIGN)
    num_tiles = -(-plane // tile)
    y = torch.zeros_like(x)
    tile_cols = -(-plane // ALIGN) * ALIGN
    if batch * tile_cols <= MAX_RESIDENT:
        batch_norm_resident_kernel[min(CORE_NUM, channels)](x.contiguous(), gamma.contiguous(), beta.contiguous(), y,
                                                            channels, plane, 1.0 / (batch * plane), float(eps),
                                                            batch, tile_cols)
        return y
    batch_norm_kernel[min(CORE_NUM, channels)](x.contiguous(), gamma.contiguous(), beta.contiguous(), y, batch,
                                               channels, plane, num_tiles, float(eps), tile)
    return y


def reference(x, gamma, beta, eps):
    return torch.nn.functional.batch_norm(x, None, None, gamma, beta, training=True, eps=eps)


def _f64(value):
    return torch.as_tensor(value).to(torch.float64).numpy()


def run_kernel(backend, platform):
    config.set_platform(backend, platform)
    for case in CASES:
        inputs = make_inputs(case)
        expected = reference(*inputs)
        outputs = launch(*inputs)
        if not isinstance(outputs, tuple):
            outputs, expected = (outputs,), (expected,)
        for k, (out, ref) in enumerate(zip(outputs, expected)):
            np.testing.assert_allclose(_f64(out), _f64(ref), atol=case.get("atol", TOLERANCE["atol"]),
                                       rtol=case.get("rtol", TOLERANCE["rtol"]),
                                       err_msg=f"{OP} {DTYPE} case {case['id']} output {k}")
        logging.info("[PASS] %s", case["id"])


def test_batch_norm_float32(backend, platform):
    run_kernel(backend, platform)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-r", type=str, default="Model", help="backend: a config.Backend member (Model or NPU)")
    parser.add_argument("-v", type=str, default="Ascend950PR_9599", help="platform: a config.Platform value")
    args = parser.parse_args()
    supported_backends = list(config.Backend.__members__)
    if args.r not in supported_backends:
        raise ValueError(f"Unsupported Backend! Supported: {supported_backends}")
    supported_platforms = [p.value for p in config.Platform]
    if args.v not in supported_platforms:
        raise ValueError(f"Unsupported Platform! Supported: {supported_platforms}")
    run_kernel(config.Backend[args.r], config.Platform(args.v))

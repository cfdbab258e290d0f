#!/usr/bin/env python3
"""Golden kernel: batched matrix multiply on the cube, K-tiled through L1, float16 in, float32 out.

Operation
    a [B, M, K] and b [B, K, N] float16, c [B, M, N] float32 with c[i] = a[i] @ b[i]. The output is
    cut into m_tile x n_tile tiles per batch; for each tile the [m_tile, K] slab of a and the
    [K, n_tile] slab of b are staged in L1 (``copy_in(..., location=TensorLocation.L1)``), then K is
    walked in k_tile steps: ``asc2.copy`` moves an [m_tile, k_tile] window into L0A and a
    [k_tile, n_tile] window into L0B, and ``matmul_acc(acc, a, b)`` accumulates into a float32 L0C
    tile created by ``zeros_acc``; the accumulator is stored through the fixpipe.

Cell metadata (mirrors capabilities.yaml, bmm/float16/<platform>; do not drift)
    shapes      [B, M, K, N] = [1, 16, 32, 16], [2, 32, 64, 32], [3, 48, 96, 48], [8, 128, 512, 128]
                (``full_only``).
    tolerance   atol 1e-2, rtol 1e-2.
    regime      m_tile = n_tile = the largest of 64 / 32 / 16 dividing M (resp. N); k_tile = the
                largest of 128 / 64 / 32 / 16 dividing K. [3, 48, 96, 48]: 16 x 16 tiles, 27 work
                items on 16 blocks (not a multiple), k_tile 32 (three accumulation steps);
                [8, 128, 512, 128]: 64 x 64 tiles, 32 items, k_tile 128 (four steps).
    tail        none inside a tile: M, N and K must be multiples of 16 (the cube's fractal); the
                work items need not divide evenly among the blocks.
    partitioning
                work item w = (batch, m tile, n tile) goes to block w % block_num
                (``range(block_idx, items, block_num)``), launched on min(MAX_CORES, items) blocks.

Non-obvious constraints
    * August 2026 dialect: ``global_tensor``, ``copy_in(..., location=asc2.TensorLocation.L1)``,
      ``asc2.copy(src, offsets, shape, location)``, accumulator-first ``matmul_acc(acc, a, b)``.
    * Both loops are the builtin ``range`` with the default ``gm_barrier=False``; the K loop has
      ``unroll_factor=2``. The K loop carries the accumulator: ``matmul_acc`` accumulates in place
      into the L0C tile (legal in an un-barriered loop; the loop stores nothing to global memory),
      and the unroll gives consecutive trips their own L0A / L0B windows. Work items are
      independent. The work loop is not unrolled: pyasc-dev's allocator gives each unrolled copy
      (and the remainder's) its own L1 slabs and L0 windows, which at [8, 128, 512, 128] would need
      384 KiB of L1 and 96 KiB of L0A on Ascend950PR_9599, and on Ascend910B1 (where its count puts
      the cube's buffers in the UB figure) 624 KiB against 192 KiB.
    * a, b and c are addressed as 2-D views ([B * M, K], [B * K, N], [B * M, N]) so that one tensor
      description serves every batch; a tile never crosses a batch boundary because the tiles
      divide M, K and N.
    * Budget at K = 512 (k_tile 64): two L1 slabs of 64 x 512 float16 = 64 KiB each (128 KiB of
      512 KiB); L0A / L0B windows of 8 KiB, two copies each from the K loop's unroll; L0C tile
      16 KiB. Ascend910B1's count: 176 KiB of 192 KiB.
    * MAX_CORES = 16 cube (AIC) cores of Ascend950PR_9599; Ascend910B1 has 24, so the same launch
      is valid there.
    * Inputs are torch CPU tensors (the cube path was reported to see zeros for numpy inputs on
      the C310 CANN simulator).

Tolerance
    Products of float16 values are exact in float32; each of the at most 512 partial sums adds a
    float32 rounding (~6e-8 relative), so with outputs up to ~130 the error stays below ~1e-3;
    1e-2 / 1e-2 is the registry's matmul tolerance.

Inputs: torch CPU tensors, seed 2026, uniform in [0, 1) generated as float32 and cast to float16;
reference ``torch.bmm(a.float(), b.float())``.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

OP = "bmm"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [
    {"id": "1x16x32x16", "shape": [1, 16, 32, 16]},
    {"id": "2x32x64x32", "shape": [2, 32, 64, 32]},
    {"id": "3x48x96x48", "shape": [3, 48, 96, 48]},
    {"id": "8x128x512x128", "shape": [8, 128, 512, 128], "full_only": True},
]

SEED = 2026
CUBE_BLOCK = 16
MAX_CORES = 16


@asc2.jit(always_compile=True)
def bmm_kernel(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
               batch: int, m: asc2.ConstExpr[int], k: asc2.ConstExpr[int], n: asc2.ConstExpr[int],
               m_tile: asc2.ConstExpr[int], n_tile: asc2.ConstExpr[int], k_tile: asc2.ConstExpr[int]):
    a_gm = asc2.global_tensor(a_ptr, [batch * m, k])
    b_gm = asc2.global_tensor(b_ptr, [batch * k, n])
    c_gm = asc2.global_tensor(c_ptr, [batch * m, n])
    m_tiles = m // m_tile
    n_tiles = n // n_tile
    items = batch * m_tiles * n_tiles
    for w in range(asc2.block_idx(), items, asc2.block_num()):
        bi = w // (m_tiles * n_tiles)
        rest = w % (m_tiles * n_tiles)
        row = bi * m + (rest // n_tiles) * m_tile
        col = (rest % n_tiles) * n_tile
        a_l1 = asc2.copy_in(a_gm, [row, 0], [m_tile, k], location=asc2.TensorLocation.L1)
        b_l1 = asc2.copy_in(b_gm, [bi * k, col], [k, n_tile], location=asc2.TensorLocation.L1)
        acc = asc2.zeros_acc([m_tile, n_tile], asc2.float32)
        for kk in range(k // k_tile, unroll_factor=2):
            a = asc2.copy(a_l1, [0, kk * k_tile], [m_tile, k_tile], asc2.TensorLocation.L0A)
            b = asc2.copy(b_l1, [kk * k_tile, 0], [k_tile, n_tile], asc2.TensorLocation.L0B)
            asc2.matmul_acc(acc, a, b)
        asc2.copy_out(acc, c_gm, [row, col])


def make_inputs(case):
    bsz, m, k, n = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    a = torch.rand((bsz, m, k), generator=gen, dtype=torch.float32).to(torch.float16)
    b = torch.rand((bsz, k, n), generator=gen, dtype=torch.float32).to(torch.float16)
    return (a, b)


def _largest(extent, choices):
    return next(t for t in choices if extent % t == 0)


def tiling(m, k, n):
    """(m_tile, n_tile, k_tile) for one batch of [m, k] @ [k, n]."""
    if m % CUBE_BLOCK or n % CUBE_BLOCK or k % CUBE_BLOCK:
        raise ValueError(f"M, K and N must be multiples of {CUBE_BLOCK}, got {m}, {k}, {n}")
    if k > 512:
        raise ValueError(f"K = {k} exceeds the L1 slab budget (K <= 512)")
    return _largest(m, (64, 32, 16)), _largest(n, (64, 32, 16)), _largest(k, (64, 32, 16))


def launch(a, b):
    if a.dim() != 3 or b.dim() != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"expected a [B, M, K] and b [B, K, N], got {tuple(a.shape)} and {tuple(b.shape)}")
    bsz, m, k = a.shape
    n = b.shape[2]
    m_tile, n_tile, k_tile = tiling(m, k, n)
    items = bsz * (m // m_tile) * (n // n_tile)
    c = torch.zeros((bsz, m, n), dtype=torch.float32)
    bmm_kernel[min(MAX_CORES, items)](a.contiguous(), b.contiguous(), c, bsz, m, k, n, m_tile, n_tile, k_tile)
    return c


def reference(a, b):
    return torch.bmm(a.to(torch.float32), b.to(torch.float32))


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


def test_bmm_float16(backend, platform):
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

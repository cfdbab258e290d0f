#!/usr/bin/env python3
"""Golden kernel: batched matrix multiply on the cube, float16 in, float32 out.

Operation
    a [B, M, K] and b [B, K, N] float16, c [B, M, N] float32 with c[i] = a[i] @ b[i]. The output is
    cut into m_tile x n_tile tiles per batch (a work item: batch, m tile, n tile). Two kernels and a
    host dispatcher:

    item     (``bmm_item_kernel``) -- one work item a block, launched on as many blocks as items: the
             [m_tile, K] window of a goes straight to L0A and the [K, n_tile] window of b to L0B
             (``copy_in(..., location=TensorLocation.L0A / L0B)``), one ``a @ b`` into L0C, stored
             through the fixpipe. Used when the items fit the MAX_CORES cube cores and an operand is
             at most ITEM_OPERAND_BYTES.
    k_tiled  (``bmm_k_tiled_kernel``) -- items spread over min(MAX_CORES, items) blocks; per item the
             [m_tile, K] slab of a is staged in L1, then K is walked in k_tile steps: ``asc2.copy``
             moves an [m_tile, k_tile] window of the slab into L0A, the [k_tile, n_tile] window of b
             comes from global memory into L0B, and ``matmul_acc(acc, a, b)`` accumulates into a
             float32 L0C tile created by ``zeros_acc``; the accumulator is stored through the fixpipe.

Cell metadata (mirrors capabilities.yaml, bmm/float16/<platform>; do not drift)
    shapes      [B, M, K, N] = [1, 16, 32, 16], [2, 32, 64, 32], [3, 48, 96, 48] (item: 1, 2 and 3
                items of 16 x 16, 32 x 32, 48 x 48), [8, 128, 512, 128] (``full_only``; k_tiled:
                64 x 128 tiles, 16 items on 16 blocks, k_tile 128, four accumulation steps).
    tolerance   atol 1e-2, rtol 1e-2.
    regime      item: m_tile / n_tile = the largest of 64 / 48 / 32 / 16 dividing M / N, the whole K in
                one matmul. k_tiled: m_tile = the largest of 64 / 32 / 16 dividing M, n_tile = of
                128 / 64 / 32 / 16 dividing N, k_tile = of 128 / 64 / 32 / 16 dividing K.
    tail        none inside a tile: M, N and K must be multiples of 16 (the cube's fractal); the
                k_tiled work items need not divide evenly among the blocks.
    partitioning
                item: item w on block w. k_tiled: item w goes to block w % block_num
                (``range(block_idx, items, block_num)``).

Non-obvious constraints
    * August 2026 dialect: ``global_tensor``, ``copy_in(..., location=asc2.TensorLocation.L1 / L0A /
      L0B)``, ``asc2.copy(src, offsets, shape, location)``, accumulator-first ``matmul_acc(acc, a, b)``.
    * Why an item kernel without a loop: at one item a block C220's first-run fetch of each code site
      (~400 ticks) dominates; without the loop the index arithmetic and the three tensor views are one
      run of scalar instructions, one fetch (b's row ``bi * k`` is computed in that run, not in the
      copy_in's arguments, which would make a second run between the two loads).
    * k_tiled's loops are the builtin ``range`` with the default ``gm_barrier=False``, not unrolled. The
      K loop carries the accumulator: ``matmul_acc`` accumulates in place into the L0C tile (legal in
      an un-barriered loop; the loop stores nothing to global memory). Unrolled (a second L0A / L0B
      window per trip, double buffering), pyasc-dev's compiler fails on Ascend910B1 with "operand #1
      does not dominate this use" once b is loaded into L0B inside the loop; k_tile 128 (four steps at
      K = 512) keeps the un-overlapped steps few. b is not staged in L1: its [512, 128] slab would take
      C220's UB figure (where pyasc-dev counts the cube's buffers) past 192 KiB.
    * a, b and c are addressed as 2-D views ([B * M, K], [B * K, N], [B * M, N]) so that one tensor
      description serves every batch; a tile never crosses a batch boundary because the tiles
      divide M, K and N.
    * Budget at [8, 128, 512, 128] (k_tiled, 64 x 128 tiles, k_tile 128): the L1 slab of a 64 KiB,
      L0A 16 KiB, L0B 32 KiB (staged through L1), L0C 32 KiB; Ascend910B1's count 176 KiB of 192 KiB.
      The item kernel at ITEM_OPERAND_BYTES = 32 KiB operands counts 144 KiB there.
    * K <= 512 for k_tiled (the L1 slab of a).
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
ITEM_OPERAND_BYTES = 32 * 1024   # an L0A / L0B operand of the one-item kernel (C220 counts its L1 staging in UB)


@asc2.jit(always_compile=True)
def bmm_k_tiled_kernel(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
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
        acc = asc2.zeros_acc([m_tile, n_tile], asc2.float32)
        for kk in range(k // k_tile):
            a = asc2.copy(a_l1, [0, kk * k_tile], [m_tile, k_tile], asc2.TensorLocation.L0A)
            b = asc2.copy_in(b_gm, [bi * k + kk * k_tile, col], [k_tile, n_tile], location=asc2.TensorLocation.L0B)
            asc2.matmul_acc(acc, a, b)
        asc2.copy_out(acc, c_gm, [row, col])


@asc2.jit(always_compile=True)
def bmm_item_kernel(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress,
                    batch: int, m: asc2.ConstExpr[int], k: asc2.ConstExpr[int], n: asc2.ConstExpr[int],
                    m_tile: asc2.ConstExpr[int], n_tile: asc2.ConstExpr[int]):
    # one work item a block, the whole K at once: no loop, and the index arithmetic and the tensor views
    # are one run of scalar instructions (one first-run fetch)
    a_gm = asc2.global_tensor(a_ptr, [batch * m, k])
    b_gm = asc2.global_tensor(b_ptr, [batch * k, n])
    c_gm = asc2.global_tensor(c_ptr, [batch * m, n])
    w = asc2.block_idx()
    bi = w // ((m // m_tile) * (n // n_tile))
    rest = w % ((m // m_tile) * (n // n_tile))
    row = bi * m + (rest // (n // n_tile)) * m_tile
    col = (rest % (n // n_tile)) * n_tile
    b_row = bi * k
    a = asc2.copy_in(a_gm, [row, 0], [m_tile, k], location=asc2.TensorLocation.L0A)
    b = asc2.copy_in(b_gm, [b_row, col], [k, n_tile], location=asc2.TensorLocation.L0B)
    asc2.copy_out(a @ b, c_gm, [row, col])


def make_inputs(case):
    bsz, m, k, n = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    a = torch.rand((bsz, m, k), generator=gen, dtype=torch.float32).to(torch.float16)
    b = torch.rand((bsz, k, n), generator=gen, dtype=torch.float32).to(torch.float16)
    return (a, b)


def _largest(extent, choices):
    return next(t for t in choices if extent % t == 0)


def item_tiles(m, k, n):
    """(m_tile, n_tile) of the one-item-a-block kernel, or None when the launch needs more blocks than
    MAX_CORES or an operand [tile, K] exceeds ITEM_OPERAND_BYTES."""
    m_tile, n_tile = _largest(m, (64, 48, 32, 16)), _largest(n, (64, 48, 32, 16))
    fits = max(m_tile, n_tile) * k * 2 <= ITEM_OPERAND_BYTES
    return (m_tile, n_tile) if fits and (m // m_tile) * (n // n_tile) <= MAX_CORES else None


def tiling(m, k, n):
    """(m_tile, n_tile, k_tile) of the K-tiled kernel for one batch of [m, k] @ [k, n]."""
    if k > 512:
        raise ValueError(f"K = {k} exceeds the L1 slab budget (K <= 512)")
    return _largest(m, (64, 32, 16)), _largest(n, (128, 64, 32, 16)), _largest(k, (128, 64, 32, 16))


def select_kernel(bsz, m, k, n):
    """The dispatcher: "item" when one work item a block covers the batch, else "k_tiled"."""
    tiles = item_tiles(m, k, n)
    return "item" if tiles and bsz * (m // tiles[0]) * (n // tiles[1]) <= MAX_CORES else "k_tiled"


def launch(a, b):
    if a.dim() != 3 or b.dim() != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"expected a [B, M, K] and b [B, K, N], got {tuple(a.shape)} and {tuple(b.shape)}")
    bsz, m, k = a.shape
    n = b.shape[2]
    if m % CUBE_BLOCK or n % CUBE_BLOCK or k % CUBE_BLOCK:
        raise ValueError(f"M, K and N must be multiples of {CUBE_BLOCK}, got {m}, {k}, {n}")
    c = torch.zeros((bsz, m, n), dtype=torch.float32)
    if select_kernel(bsz, m, k, n) == "item":
        m_tile, n_tile = item_tiles(m, k, n)
        items = bsz * (m // m_tile) * (n // n_tile)
        bmm_item_kernel[items](a.contiguous(), b.contiguous(), c, bsz, m, k, n, m_tile, n_tile)
        return c
    m_tile, n_tile, k_tile = tiling(m, k, n)
    items = bsz * (m // m_tile) * (n // n_tile)
    bmm_k_tiled_kernel[min(MAX_CORES, items)](a.contiguous(), b.contiguous(), c, bsz, m, k, n, m_tile, n_tile, k_tile)
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

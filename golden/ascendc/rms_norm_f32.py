#!/usr/bin/env python3
"""Ascend C reference: RMS normalisation over the last axis with a weight, float32, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/rms_norm_f32.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as ops-nn's RmsNorm split-D path: each row streamed in column tiles
twice, the first pass summing the squares (``Mul``, then ``WholeReduceSum`` folds per tile into one
partial a tile, folded again per row), the vector unit turning the sum into
1 / sqrt(mean + eps) in place (``Muls``, ``Adds``, ``Rsqrt`` of one element), read by the scalar unit; the
second pass scaling (``Muls``) and weighting (``Mul`` by gamma). One kernel serves every row length: a
row of at most TILE_COLS columns is one tile (the full-row case), a longer one several.

    host tiling  the rows split over the vector cores (the platform's AIV count), whole rows a core;
                 columns in tiles of TILE_COLS (the last holds the tail).
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECIN gamma, VECOUT y): copy_in /
                 compute / copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers'
                 reuse; squares, partial sums and the fold's levels in VECCALC ``TBuf``s; the row's
                 1 / sqrt(mean + eps) read by the scalar unit after a V -> S flag (and an S -> V flag
                 before the vector unit overwrites it).
    shapes       any row length: ``DataCopyPad`` loads a tile's columns onto whole 32-byte blocks
                 (zero-padded) and stores exactly its columns.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "rms_norm"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-4}
CASES = [
    {"id": "8x256_full_row", "shape": [8, 256], "kernel": "full_row"},
    {"id": "8x1055_full_row", "shape": [8, 1055], "kernel": "full_row"},
    {"id": "64x100003_split_d", "shape": [64, 100003], "kernel": "split_d", "full_only": True},
]

SEED = 2026
EPS = 1e-6
BUFFER_NUM = 2
TILE_COLS = 4096                # float32 columns a tile (16 KiB)
ITEMSIZE = 4
ALIGN = 32 // ITEMSIZE          # elements per 32-byte block
LANES = 256 // ITEMSIZE         # elements per vector repeat
MAX_TILES = LANES * LANES       # partial sums a row: two folds reduce them to one


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def rms_norm_kernel(x: asc.GlobalAddress, gamma: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, cols: int,
                    core_rows: int, tile_cols: int, eps: float, inv_cols: float):
    first = asc.get_block_idx() * core_rows
    my_rows = rows - first
    if my_rows > core_rows:
        my_rows = core_rows
    x_gm = asc.GlobalTensor()
    g_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    g_gm.set_global_buffer(gamma)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_g = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_cols * ITEMSIZE)
    pipe.init_buffer(in_g, BUFFER_NUM, tile_cols * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_cols * ITEMSIZE)
    sq_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(sq_buf, tile_cols * ITEMSIZE)
    part_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(part_buf, MAX_TILES * ITEMSIZE)
    fold_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(fold_buf, 2 * LANES * ITEMSIZE)
    sq = sq_buf.get(asc.float32)
    part = part_buf.get(asc.float32)
    level_1 = fold_buf.get(asc.float32)
    level_2 = level_1[LANES:]
    tiles = (cols + tile_cols - 1) // tile_cols
    for r in range(first, first + my_rows):
        for t in range(tiles):
            n = cols - t * tile_cols
            if n > tile_cols:
                n = tile_cols
            copy_in(x_gm, in_x, r * cols + t * tile_cols, n)
            x_t = in_x.deque(asc.float32)
            asc.mul(sq, x_t, x_t, n)
            in_x.free_tensor(x_t)
            sum_to(part[t:], sq, n, level_1, level_2)
        if tiles > 1:
            sum_to(part, part, tiles, level_1, level_2)
        asc.muls(part, part, inv_cols, 1)       # 1 / cols from the host (1.0 / cols of a device int is 0)
        asc.adds(part, part, eps, 1)
        asc.rsqrt(part, part, 1)
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
        rstd = part.get_value(0)
        asc.set_flag(asc.HardEvent.S_V, 0)
        asc.wait_flag(asc.HardEvent.S_V, 0)
        for t in range(tiles):
            n = cols - t * tile_cols
            if n > tile_cols:
                n = tile_cols
            copy_in(x_gm, in_x, r * cols + t * tile_cols, n)
            copy_in(g_gm, in_g, t * tile_cols, n)
            compute(in_x, in_g, out_y, rstd, n)
            copy_out(y_gm, out_y, r * cols + t * tile_cols, n)


@asc.jit
def copy_in(src_gm: asc.GlobalTensor, que: asc.TQue, offset: int, n: int):
    t = que.alloc_tensor(asc.float32)
    pad = (n + ALIGN - 1) // ALIGN * ALIGN - n
    asc.data_copy_pad(t, src_gm[offset:], asc.DataCopyExtParams(1, n * ITEMSIZE, 0, 0, 0),
                      asc.DataCopyPadExtParams(asc.float32, True, 0, pad, 0))
    que.enque(t)


@asc.jit
def compute(in_x: asc.TQue, in_g: asc.TQue, out_y: asc.TQue, rstd: float, n: int):
    x_t = in_x.deque(asc.float32)
    g_t = in_g.deque(asc.float32)
    y_t = out_y.alloc_tensor(asc.float32)
    asc.muls(y_t, x_t, rstd, n)
    asc.mul(y_t, y_t, g_t, n)
    out_y.enque(y_t)
    in_x.free_tensor(x_t)
    in_g.free_tensor(g_t)


@asc.jit
def copy_out(y_gm: asc.GlobalTensor, out_y: asc.TQue, offset: int, n: int):
    y_t = out_y.deque(asc.float32)
    asc.data_copy_pad(y_gm[offset:], y_t, asc.DataCopyExtParams(1, n * ITEMSIZE, 0, 0, 0))
    out_y.free_tensor(y_t)


@asc.jit
def sum_to(dst: asc.LocalTensor, src: asc.LocalTensor, n: int, level_1: asc.LocalTensor,
           level_2: asc.LocalTensor):
    """dst[0] = the sum of src's n elements: WholeReduceSum folds (a sum per repeat) down to one repeat."""
    level = 0
    while n > LANES:
        out = level_1 if level == 0 else level_2
        full = n // LANES
        tail = n - full * LANES
        if full > 0:
            asc.whole_reduce_sum(out, src, LANES, full, 1, 1, 8)
        if tail > 0:
            asc.whole_reduce_sum(out[full:], src[full * LANES:], tail, 1, 1, 1, 8)
        src = out
        n = (n + LANES - 1) // LANES
        level += 1
    asc.whole_reduce_sum(dst, src, n, 1, 1, 1, 8)


def tiling(rows, cols):
    """(cores, core_rows, tile_cols): whole rows a core, column tiles of at most TILE_COLS."""
    tile_cols = min(TILE_COLS, -(-cols // ALIGN) * ALIGN)
    if -(-cols // tile_cols) > MAX_TILES:
        raise ValueError(f"rows of {cols} columns need more than {MAX_TILES} tiles of {tile_cols}")
    if rows * cols >= 2 ** 31:
        raise ValueError(f"{rows} x {cols} elements exceed the kernel's int32 offsets")
    cores = min(platform_cores(AIV_CORES), rows)
    core_rows = -(-rows // cores)
    cores = -(-rows // core_rows)
    return cores, core_rows, tile_cols


def make_inputs(case):
    num_rows, num_cols = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn((num_rows, num_cols), generator=gen, dtype=torch.float32)
    gamma = torch.randn((num_cols,), generator=gen, dtype=torch.float32) * 0.5 + 1.0
    return (x, gamma, EPS)


def launch(x, gamma, eps):
    rows, cols = x.shape
    y = torch.zeros_like(x)
    cores, core_rows, tile_cols = tiling(rows, cols)
    rms_norm_kernel[cores](x.contiguous(), gamma.contiguous(), y, rows, cols, core_rows, tile_cols, float(eps),
                           1.0 / cols)
    return y


def reference(x, gamma, eps):
    x32 = x.to(torch.float32)
    mean_sq = torch.mean(x32 * x32, dim=-1, keepdim=True)
    return (x32 * torch.rsqrt(mean_sq + eps) * gamma.to(torch.float32)).to(x.dtype)


def run_kernel(backend, platform):
    config.set_platform(backend, platform)
    for case in CASES:
        inputs = make_inputs(case)
        expected = reference(*inputs)
        out = launch(*inputs)
        np.testing.assert_allclose(out.to(torch.float64).numpy(), expected.to(torch.float64).numpy(),
                                   atol=case.get("atol", TOLERANCE["atol"]), rtol=case.get("rtol", TOLERANCE["rtol"]),
                                   err_msg=f"{OP} {DTYPE} case {case['id']}")
        logging.info("[PASS] %s", case["id"])


def test_rms_norm_float32(backend, platform):
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

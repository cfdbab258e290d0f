#!/usr/bin/env python3
"""Ascend C reference: layer normalisation over the last axis with gamma and beta, float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/layer_norm_f16.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as ops-nn's LayerNorm for rows that fit the UB, in float32 (each
float16 row cast up with ``Cast``, the result cast back with ``CAST_RINT``, the host's round to nearest
even): per row, the sum from a ``WholeReduceSum`` fold scaled to -mean by the scalar unit, the centred row
(``Adds``), its squares (``Mul``) folded again for the variance, which the vector unit turns into
1 / sqrt(var + eps) in place (``Muls``, ``Adds``, ``Rsqrt`` of one element: the scalar unit has no square
root), then ``Muls``, ``Mul`` by gamma and ``Add`` of beta (gamma and beta cast once a core).

    host tiling  the rows (every leading dimension flattened) split over the vector cores (the
                 platform's AIV count), whole rows a core.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECOUT y): copy_in / compute / copy_out
                 per row, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse; the float32
                 row, gamma, beta, squares and the fold's levels in VECCALC ``TBuf``s; each statistic
                 read by the scalar unit after a V -> S flag (and an S -> V flag before the vector
                 unit overwrites it).
    shapes       rows of up to MAX_COLS columns: ``DataCopyPad`` loads a row onto whole 32-byte blocks
                 (zero-padded) and stores exactly its columns.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "layer_norm"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [
    {"id": "8x256", "shape": [8, 256]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "100x1623", "shape": [100, 1623]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
EPS = 1e-5
BUFFER_NUM = 2
MAX_COLS = 8192                 # a row: 16 KiB of float16, 32 KiB once cast to float32
ITEMSIZE = 2
ALIGN = 32 // ITEMSIZE          # float16 elements per 32-byte block
LANES = 64                      # float32 elements per vector repeat


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def layer_norm_kernel(x: asc.GlobalAddress, gamma: asc.GlobalAddress, beta: asc.GlobalAddress, y: asc.GlobalAddress,
                      rows: int, cols: int, core_rows: int, stride: int, eps: float, inv_cols: float):
    first = asc.get_block_idx() * core_rows
    my_rows = rows - first
    if my_rows > core_rows:
        my_rows = core_rows
    x_gm = asc.GlobalTensor()
    g_gm = asc.GlobalTensor()
    b_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    g_gm.set_global_buffer(gamma)
    b_gm.set_global_buffer(beta)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, stride * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, stride * ITEMSIZE)
    wide_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(wide_buf, 4 * stride * 4)          # x, its squares, gamma, beta in float32
    fold_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(fold_buf, 2 * LANES * 4 + 32)
    x32 = wide_buf.get(asc.float32)
    sq = x32[stride:]
    g32 = x32[2 * stride:]
    b32 = x32[3 * stride:]
    level_1 = fold_buf.get(asc.float32)
    level_2 = level_1[LANES:]
    stat = level_1[2 * LANES:]
    copy_in(g_gm, in_x, 0, cols)
    widen(in_x, g32, cols)
    copy_in(b_gm, in_x, 0, cols)
    widen(in_x, b32, cols)
    # 1 / cols from the host: pyasc's 1.0 / cols of a device int is an integer division (0)
    neg_inv_cols = 0.0 - inv_cols
    for r in range(first, first + my_rows):
        copy_in(x_gm, in_x, r * cols, cols)
        widen(in_x, x32, cols)
        sum_to(stat, x32, cols, level_1, level_2)
        asc.adds(x32, x32, read(stat) * neg_inv_cols, cols)     # x - mean
        asc.mul(sq, x32, x32, cols)
        sum_to(stat, sq, cols, level_1, level_2)
        asc.muls(stat, stat, inv_cols, 1)
        asc.adds(stat, stat, eps, 1)
        asc.rsqrt(stat, stat, 1)
        rstd = read(stat)
        asc.muls(x32, x32, rstd, cols)
        asc.mul(x32, x32, g32, cols)
        asc.add(x32, x32, b32, cols)
        y_t = out_y.alloc_tensor(y_gm.dtype)
        asc.cast(y_t, x32, asc.RoundMode.CAST_RINT, cols)
        out_y.enque(y_t)
        copy_out(y_gm, out_y, r * cols, cols)


@asc.jit
def copy_in(src_gm: asc.GlobalTensor, que: asc.TQue, offset: int, n: int):
    t = que.alloc_tensor(src_gm.dtype)
    pad = (n + ALIGN - 1) // ALIGN * ALIGN - n
    asc.data_copy_pad(t, src_gm[offset:], asc.DataCopyExtParams(1, n * ITEMSIZE, 0, 0, 0),
                      asc.DataCopyPadExtParams(src_gm.dtype, True, 0, pad, 0))
    que.enque(t)


@asc.jit
def widen(que: asc.TQue, dst: asc.LocalTensor, n: int):
    t = que.deque(asc.float16)
    asc.cast(dst, t, asc.RoundMode.CAST_NONE, n)
    que.free_tensor(t)


@asc.jit
def copy_out(y_gm: asc.GlobalTensor, out_y: asc.TQue, offset: int, n: int):
    y_t = out_y.deque(y_gm.dtype)
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


@asc.jit
def read(stat: asc.LocalTensor) -> float:
    """stat[0], read by the scalar unit between the vector unit's write and its next one."""
    asc.set_flag(asc.HardEvent.V_S, 0)
    asc.wait_flag(asc.HardEvent.V_S, 0)
    value = stat.get_value(0)
    asc.set_flag(asc.HardEvent.S_V, 0)
    asc.wait_flag(asc.HardEvent.S_V, 0)
    return value


def tiling(rows, cols):
    """(cores, core_rows, stride): whole rows a core, a row's UB stride in elements."""
    if cols > MAX_COLS:
        raise ValueError(f"rows of {cols} columns do not fit one UB tile (max {MAX_COLS})")
    cores = min(platform_cores(AIV_CORES), rows)
    core_rows = -(-rows // cores)
    cores = -(-rows // core_rows)
    return cores, core_rows, -(-cols // ALIGN) * ALIGN


def make_inputs(case):
    shape = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    x = (torch.randn(shape, generator=gen, dtype=torch.float32) + 0.5).to(torch.float16)
    gamma = (torch.randn((shape[-1],), generator=gen, dtype=torch.float32) * 0.5 + 1.0).to(torch.float16)
    beta = (torch.randn((shape[-1],), generator=gen, dtype=torch.float32) * 0.5).to(torch.float16)
    return (x, gamma, beta, EPS)


def launch(x, gamma, beta, eps):
    cols = x.shape[-1]
    rows = x.numel() // cols
    y = torch.zeros_like(x)
    cores, core_rows, stride = tiling(rows, cols)
    layer_norm_kernel[cores](x.contiguous(), gamma.contiguous(), beta.contiguous(), y, rows, cols, core_rows, stride,
                             float(eps), 1.0 / cols)
    return y


def reference(x, gamma, beta, eps):
    f32 = torch.float32
    y = torch.nn.functional.layer_norm(x.to(f32), (x.shape[-1],), gamma.to(f32), beta.to(f32), eps)
    return y.to(x.dtype)


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


def test_layer_norm_float16(backend, platform):
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

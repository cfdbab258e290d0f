#!/usr/bin/env python3
"""Ascend C reference: training-mode batch normalisation of [N, C, H, W] with gamma and beta, float32, in pyasc's
v1 API.

The hand-written counterpart of ``golden/kernels/batch_norm_f32.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs
and host reference), written as ops-nn's BatchNorm (training) for planes that fit the UB: per channel, three
passes over its N planes of H * W elements, each plane loaded by ``DataCopyPad``: the mean (``WholeReduceSum``
folds of each plane, a partial a plane, folded again, then ``Muls`` by -1 / count), the biased variance
(``Adds`` of -mean, ``Mul``, the same folds, then ``Muls``, ``Adds`` of eps and ``Rsqrt`` of the one element:
1 / sqrt(var + eps)), and y = x * scale + shift (``Muls``, ``Adds``) with scale = gamma / sqrt(var + eps) and
shift = beta - mean * scale computed by the scalar unit.

    host tiling  the channels split over the vector cores (the platform's AIV count), whole channels
                 a core; a plane (at most MAX_PLANE elements) is a tile.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECOUT y): the queues ordering
                 MTE2 -> V -> MTE3 and the buffers' reuse; the centred plane, the partials and the fold's
                 levels in VECCALC ``TBuf``s; each statistic read by the scalar unit after a V -> S flag
                 (and an S -> V flag before the vector unit overwrites it).
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

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
BUFFER_NUM = 2
MAX_PLANE = 4096                # float32 elements a plane (16 KiB)
ITEMSIZE = 4
ALIGN = 32 // ITEMSIZE          # elements per 32-byte block
LANES = 256 // ITEMSIZE         # elements per vector repeat
MAX_BATCH = LANES * LANES       # partials a channel: two folds reduce them to one


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def batch_norm_kernel(x: asc.GlobalAddress, gamma: asc.GlobalAddress, beta: asc.GlobalAddress, y: asc.GlobalAddress,
                      batch: int, channels: int, plane: int, stride: int, core_channels: int, eps: float,
                      inv_count: float):
    first = asc.get_block_idx() * core_channels
    my_channels = channels - first
    if my_channels > core_channels:
        my_channels = core_channels
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
    work_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(work_buf, stride * ITEMSIZE)
    part_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(part_buf, (batch + ALIGN - 1) // ALIGN * 32)
    fold_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(fold_buf, 2 * LANES * ITEMSIZE + 32)
    work = work_buf.get(asc.float32)
    part = part_buf.get(asc.float32)
    level_1 = fold_buf.get(asc.float32)
    level_2 = level_1[LANES:]
    stat = level_1[2 * LANES:]
    # 1 / (batch * plane) from the host: pyasc's 1.0 / count of a device int is an integer division (0)
    for c in range(first, first + my_channels):
        for n in range(batch):
            copy_in(x_gm, in_x, (n * channels + c) * plane, plane)
            x_t = in_x.deque(asc.float32)
            sum_to(part[n:], x_t, plane, level_1, level_2)
            in_x.free_tensor(x_t)
        sum_to(stat, part, batch, level_1, level_2)
        asc.muls(stat, stat, 0.0 - inv_count, 1)
        neg_mean = read(stat)
        for n in range(batch):
            copy_in(x_gm, in_x, (n * channels + c) * plane, plane)
            x_t = in_x.deque(asc.float32)
            asc.adds(work, x_t, neg_mean, plane)
            in_x.free_tensor(x_t)
            asc.mul(work, work, work, plane)
            sum_to(part[n:], work, plane, level_1, level_2)
        sum_to(stat, part, batch, level_1, level_2)
        asc.muls(stat, stat, inv_count, 1)
        asc.adds(stat, stat, eps, 1)
        asc.rsqrt(stat, stat, 1)
        scale = g_gm.get_value(c) * read(stat)
        shift = b_gm.get_value(c) + neg_mean * scale
        for n in range(batch):
            copy_in(x_gm, in_x, (n * channels + c) * plane, plane)
            x_t = in_x.deque(asc.float32)
            y_t = out_y.alloc_tensor(asc.float32)
            asc.muls(y_t, x_t, scale, plane)
            asc.adds(y_t, y_t, shift, plane)
            in_x.free_tensor(x_t)
            out_y.enque(y_t)
            y_t = out_y.deque(asc.float32)
            asc.data_copy_pad(y_gm[(n * channels + c) * plane:], y_t,
                              asc.DataCopyExtParams(1, plane * ITEMSIZE, 0, 0, 0))
            out_y.free_tensor(y_t)


@asc.jit
def copy_in(src_gm: asc.GlobalTensor, que: asc.TQue, offset: int, n: int):
    t = que.alloc_tensor(src_gm.dtype)
    pad = (n + ALIGN - 1) // ALIGN * ALIGN - n
    asc.data_copy_pad(t, src_gm[offset:], asc.DataCopyExtParams(1, n * ITEMSIZE, 0, 0, 0),
                      asc.DataCopyPadExtParams(src_gm.dtype, True, 0, pad, 0))
    que.enque(t)


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


def tiling(batch, channels, plane):
    """(cores, core_channels, stride): whole channels a core, a plane's UB stride in elements."""
    if plane > MAX_PLANE or batch > MAX_BATCH:
        raise ValueError(f"planes of {plane} elements (max {MAX_PLANE}) in batches of {batch} (max {MAX_BATCH})")
    cores = min(platform_cores(AIV_CORES), channels)
    core_channels = -(-channels // cores)
    return -(-channels // core_channels), core_channels, -(-plane // ALIGN) * ALIGN


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
    batch, channels, h, w = x.shape
    y = torch.zeros_like(x)
    cores, core_channels, stride = tiling(batch, channels, h * w)
    batch_norm_kernel[cores](x.contiguous(), gamma.contiguous(), beta.contiguous(), y, batch, channels, h * w, stride,
                             core_channels, float(eps), 1.0 / (batch * h * w))
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

#!/usr/bin/env python3
"""Ascend C reference: addcdiv x + value * t1 / t2, float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/addcdiv_f16.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes an elementwise operator:

    host tiling  the elements split into 32-byte units; each vector core (the platform's AIV count,
                 the platform's vector core count, ``AIV_CORES``, at least MIN_CORE_LEN elements each)
                 takes a contiguous run of whole units, walked in tiles of at most MAX_TILE elements,
                 at least two per core so the queues overlap loads, compute and stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (one VECIN per input, one VECOUT per output) and a
                 VECCALC ``TBuf`` per temporary:
                 copy_in / compute / copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the
                 buffers' reuse.
    compute      Div, Muls, Add in float16.
    tail         without ``DataCopyPad`` a copy moves whole 32-byte blocks, so the last n % ALIGN
                 elements go through one ALIGN-element window ending at the last element (it overlaps
                 the previous tile, whose elements get the same value again). The last core loads that
                 window first, before any store of its own (so an in-place launch reads original
                 values), and stores it last after a ``PIPE_MTE3`` barrier (two stores of the same bytes
                 on one DMA pipe must not be in flight together).
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "addcdiv"
DTYPE = "float16"
TOLERANCE = {"atol": 2e-3, "rtol": 2e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
VALUE = 0.5
BUFFER_NUM = 2
MAX_TILE = 8192          # elements per tile
ALIGN = 16               # elements per 32-byte block
MIN_CORE_LEN = 1024      # below this many elements per core another core costs more than it saves
ITEMSIZE = 2


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def addcdiv_kernel(x: asc.GlobalAddress, t1: asc.GlobalAddress, t2: asc.GlobalAddress, y_out: asc.GlobalAddress,
                   core_len: int, aligned_len: int, total_len: int, tile_len: int, value: float):
    start = asc.get_block_idx() * core_len
    length = aligned_len - start
    if length > core_len:
        length = core_len
    x_gm = asc.GlobalTensor()
    t1_gm = asc.GlobalTensor()
    t2_gm = asc.GlobalTensor()
    y_out_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    t1_gm.set_global_buffer(t1)
    t2_gm.set_global_buffer(t2)
    y_out_gm.set_global_buffer(y_out)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_t1 = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_t2 = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_t1, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_t2, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_len * ITEMSIZE)
    tail_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_t1 = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_t2 = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    pipe.init_buffer(tail_x, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_t1, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_t2, 1, ALIGN * ITEMSIZE)
    calc_q = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(calc_q, tile_len * ITEMSIZE)
    has_tail = total_len > aligned_len and start + length == aligned_len
    if has_tail:
        copy_in(x_gm, t1_gm, t2_gm, tail_x, tail_t1, tail_t2, total_len - ALIGN, ALIGN)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(x_gm, t1_gm, t2_gm, in_x, in_t1, in_t2, start + i * tile_len, count)
        compute(x_gm, in_x, in_t1, in_t2, out_y, calc_q, count, value)
        copy_out(y_out_gm, out_y, start + i * tile_len, count)
    if has_tail:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
        compute(x_gm, tail_x, tail_t1, tail_t2, out_y, calc_q, ALIGN, value)
        copy_out(y_out_gm, out_y, total_len - ALIGN, ALIGN)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, t1_gm: asc.GlobalTensor, t2_gm: asc.GlobalTensor, in_x: asc.TQue,
            in_t1: asc.TQue, in_t2: asc.TQue, offset: int, count: int):
    x = in_x.alloc_tensor(x_gm.dtype)
    t1 = in_t1.alloc_tensor(t1_gm.dtype)
    t2 = in_t2.alloc_tensor(t2_gm.dtype)
    asc.data_copy(x, x_gm[offset:], count)
    asc.data_copy(t1, t1_gm[offset:], count)
    asc.data_copy(t2, t2_gm[offset:], count)
    in_x.enque(x)
    in_t1.enque(t1)
    in_t2.enque(t2)


@asc.jit
def compute(like: asc.GlobalTensor, in_x: asc.TQue, in_t1: asc.TQue, in_t2: asc.TQue, out_y: asc.TQue,
            calc_q: asc.TBuf, count: int, value: float):
    dtype = like.dtype
    x = in_x.deque(dtype)
    t1 = in_t1.deque(dtype)
    t2 = in_t2.deque(dtype)
    y = out_y.alloc_tensor(dtype)
    q = calc_q.get(dtype)
    asc.div(q, t1, t2, count)
    asc.muls(q, q, value, count)
    asc.add(y, x, q, count)
    out_y.enque(y)
    in_x.free_tensor(x)
    in_t1.free_tensor(t1)
    in_t2.free_tensor(t2)


@asc.jit
def copy_out(y_out_gm: asc.GlobalTensor, out_y: asc.TQue, offset: int, count: int):
    y = out_y.deque(y_out_gm.dtype)
    asc.data_copy(y_out_gm[offset:], y, count)
    out_y.free_tensor(y)


def tiling(total_len):
    """(cores, core_len, aligned_len, tile_len): whole 32-byte units per core, two tiles per core at least."""
    if total_len < ALIGN:
        raise ValueError(f"this kernel needs at least {ALIGN} elements (one 32-byte block), got {total_len}")
    aligned_len = total_len // ALIGN * ALIGN
    units = aligned_len // ALIGN
    cores = min(platform_cores(AIV_CORES), -(-aligned_len // MIN_CORE_LEN))
    core_len = -(-units // cores) * ALIGN
    cores = -(-aligned_len // core_len)
    tile_len = min(MAX_TILE, -(-core_len // (2 * ALIGN)) * ALIGN)
    return cores, core_len, aligned_len, tile_len


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    shape = case["shape"]
    x = torch.randn(shape, generator=gen, dtype=torch.float32).to(torch.float16)
    t1 = torch.randn(shape, generator=gen, dtype=torch.float32).to(torch.float16)
    mag = torch.rand(shape, generator=gen, dtype=torch.float32) * 2 + 0.5
    sign = torch.where(torch.rand(shape, generator=gen) < 0.5, -1.0, 1.0)
    return (x, t1, (mag * sign).to(torch.float16), VALUE)


def launch(x, t1, t2, value):
    if len({tuple(t.shape) for t in (x, t1, t2,)}) != 1:
        raise ValueError(f"addcdiv needs inputs of one shape, got {[tuple(t.shape) for t in (x, t1, t2,)]}")
    x = x.contiguous()
    t1 = t1.contiguous()
    t2 = t2.contiguous()
    out = torch.zeros_like(x)
    cores, core_len, aligned_len, tile_len = tiling(x.numel())
    addcdiv_kernel[cores](x, t1, t2, out, core_len, aligned_len, x.numel(), tile_len, float(value))
    return out


def reference(x, t1, t2, value):
    f32 = torch.float32
    return torch.addcdiv(x.to(f32), t1.to(f32), t2.to(f32), value=value).to(torch.float16)


def run_kernel(backend, platform):
    config.set_platform(backend, platform)
    for case in CASES:
        inputs = make_inputs(case)
        expected = reference(*inputs)
        out = launch(*inputs)
        np.testing.assert_allclose(np.asarray(out, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                                   atol=case.get("atol", TOLERANCE["atol"]), rtol=case.get("rtol", TOLERANCE["rtol"]),
                                   err_msg=f"{OP} {DTYPE} case {case['id']}")
        logging.info("[PASS] %s", case["id"])


def test_addcdiv_float16(backend, platform):
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

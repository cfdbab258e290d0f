#!/usr/bin/env python3
"""Ascend C reference: pointwise KL divergence target * (log(target) - x), float32, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/kl_div_f32.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes an elementwise operator:

    host tiling  the elements split into 32-byte units; each vector core (the platform's AIV count,
                 the platform's vector core count, ``AIV_CORES``, at least MIN_CORE_LEN elements each)
                 takes a contiguous run of whole units, walked in tiles of at most MAX_TILE elements,
                 at least two per core so the queues overlap loads, compute and stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (one VECIN per input, one VECOUT per output) and a
                 VECCALC ``TBuf`` per temporary:
                 copy_in / compute / copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the
                 buffers' reuse.
    compute      Ln, Sub, Mul (reduction none; the targets are positive).
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

OP = "kl_div"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-5}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE = 4096          # elements per tile
ALIGN = 8               # elements per 32-byte block
MIN_CORE_LEN = 1024      # below this many elements per core another core costs more than it saves
ITEMSIZE = 4


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def kl_div_kernel(x: asc.GlobalAddress, target: asc.GlobalAddress, y_out: asc.GlobalAddress, core_len: int,
                  aligned_len: int, total_len: int, tile_len: int):
    start = asc.get_block_idx() * core_len
    length = aligned_len - start
    if length > core_len:
        length = core_len
    x_gm = asc.GlobalTensor()
    target_gm = asc.GlobalTensor()
    y_out_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    target_gm.set_global_buffer(target)
    y_out_gm.set_global_buffer(y_out)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_target = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_target, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_len * ITEMSIZE)
    tail_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_target = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    pipe.init_buffer(tail_x, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_target, 1, ALIGN * ITEMSIZE)
    calc_t = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(calc_t, tile_len * ITEMSIZE)
    has_tail = total_len > aligned_len and start + length == aligned_len
    if has_tail:
        copy_in(x_gm, target_gm, tail_x, tail_target, total_len - ALIGN, ALIGN)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(x_gm, target_gm, in_x, in_target, start + i * tile_len, count)
        compute(x_gm, in_x, in_target, out_y, calc_t, count)
        copy_out(y_out_gm, out_y, start + i * tile_len, count)
    if has_tail:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
        compute(x_gm, tail_x, tail_target, out_y, calc_t, ALIGN)
        copy_out(y_out_gm, out_y, total_len - ALIGN, ALIGN)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, target_gm: asc.GlobalTensor, in_x: asc.TQue, in_target: asc.TQue, offset: int,
            count: int):
    x = in_x.alloc_tensor(x_gm.dtype)
    target = in_target.alloc_tensor(target_gm.dtype)
    asc.data_copy(x, x_gm[offset:], count)
    asc.data_copy(target, target_gm[offset:], count)
    in_x.enque(x)
    in_target.enque(target)


@asc.jit
def compute(like: asc.GlobalTensor, in_x: asc.TQue, in_target: asc.TQue, out_y: asc.TQue, calc_t: asc.TBuf, count: int):
    dtype = like.dtype
    x = in_x.deque(dtype)
    target = in_target.deque(dtype)
    y = out_y.alloc_tensor(dtype)
    t = calc_t.get(dtype)
    asc.ln(t, target, count)
    asc.sub(t, t, x, count)
    asc.mul(y, target, t, count)
    out_y.enque(y)
    in_x.free_tensor(x)
    in_target.free_tensor(target)


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
    x = -torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 5
    target = torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 0.99 + 0.01
    return (x, target)


def launch(x, target):
    if len({tuple(t.shape) for t in (x, target,)}) != 1:
        raise ValueError(f"kl_div needs inputs of one shape, got {[tuple(t.shape) for t in (x, target,)]}")
    x = x.contiguous()
    target = target.contiguous()
    out = torch.zeros_like(x)
    cores, core_len, aligned_len, tile_len = tiling(x.numel())
    kl_div_kernel[cores](x, target, out, core_len, aligned_len, x.numel(), tile_len)
    return out


def reference(x, target):
    return torch.nn.functional.kl_div(x, target, reduction="none")


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


def test_kl_div_float32(backend, platform):
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

#!/usr/bin/env python3
"""Ascend C reference: dropout with a given keep mask, x * mask / keep_prob, float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/dropout_f16.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes an elementwise operator:

    host tiling  the elements split into 32-byte units; each vector core (the platform's AIV count,
                 the platform's vector core count, ``AIV_CORES``, at least MIN_CORE_LEN elements each)
                 takes a contiguous run of whole units, walked in tiles of at most MAX_TILE elements,
                 at least two per core so the queues overlap loads, compute and stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (one VECIN per input, one VECOUT per output):
                 copy_in / compute / copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the
                 buffers' reuse.
    compute      Mul by the 0/1 mask, Muls by 1 / keep_prob.
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

OP = "dropout"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
KEEP_PROB = 0.8
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
def dropout_kernel(x: asc.GlobalAddress, mask: asc.GlobalAddress, y_out: asc.GlobalAddress, core_len: int,
                   aligned_len: int, total_len: int, tile_len: int, scale: float):
    start = asc.get_block_idx() * core_len
    length = aligned_len - start
    if length > core_len:
        length = core_len
    x_gm = asc.GlobalTensor()
    mask_gm = asc.GlobalTensor()
    y_out_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    mask_gm.set_global_buffer(mask)
    y_out_gm.set_global_buffer(y_out)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_mask = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_mask, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_len * ITEMSIZE)
    tail_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_mask = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    pipe.init_buffer(tail_x, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_mask, 1, ALIGN * ITEMSIZE)
    has_tail = total_len > aligned_len and start + length == aligned_len
    if has_tail:
        copy_in(x_gm, mask_gm, tail_x, tail_mask, total_len - ALIGN, ALIGN)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(x_gm, mask_gm, in_x, in_mask, start + i * tile_len, count)
        compute(x_gm, in_x, in_mask, out_y, count, scale)
        copy_out(y_out_gm, out_y, start + i * tile_len, count)
    if has_tail:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
        compute(x_gm, tail_x, tail_mask, out_y, ALIGN, scale)
        copy_out(y_out_gm, out_y, total_len - ALIGN, ALIGN)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, mask_gm: asc.GlobalTensor, in_x: asc.TQue, in_mask: asc.TQue, offset: int,
            count: int):
    x = in_x.alloc_tensor(x_gm.dtype)
    mask = in_mask.alloc_tensor(mask_gm.dtype)
    asc.data_copy(x, x_gm[offset:], count)
    asc.data_copy(mask, mask_gm[offset:], count)
    in_x.enque(x)
    in_mask.enque(mask)


@asc.jit
def compute(like: asc.GlobalTensor, in_x: asc.TQue, in_mask: asc.TQue, out_y: asc.TQue, count: int, scale: float):
    dtype = like.dtype
    x = in_x.deque(dtype)
    mask = in_mask.deque(dtype)
    y = out_y.alloc_tensor(dtype)
    asc.mul(y, x, mask, count)
    asc.muls(y, y, scale, count)
    out_y.enque(y)
    in_x.free_tensor(x)
    in_mask.free_tensor(mask)


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
    x = (torch.randn(case["shape"], generator=gen, dtype=torch.float32) * 2).to(torch.float16)
    mask = (torch.rand(case["shape"], generator=gen, dtype=torch.float32) < KEEP_PROB).to(torch.float16)
    return (x, mask, KEEP_PROB)


def launch(x, mask, keep_prob):
    if len({tuple(t.shape) for t in (x, mask,)}) != 1:
        raise ValueError(f"dropout needs inputs of one shape, got {[tuple(t.shape) for t in (x, mask,)]}")
    x = x.contiguous()
    mask = mask.contiguous()
    out = torch.zeros_like(x)
    cores, core_len, aligned_len, tile_len = tiling(x.numel())
    dropout_kernel[cores](x, mask, out, core_len, aligned_len, x.numel(), tile_len, float(1.0 / keep_prob))
    return out


def reference(x, mask, keep_prob):
    return (x.to(torch.float32) * mask.to(torch.float32) / keep_prob).to(torch.float16)


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


def test_dropout_float16(backend, platform):
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

#!/usr/bin/env python3
"""Ascend C reference: elementwise sum z = x + y, float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/add_f16.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes an elementwise operator:

    host tiling  the elements split into 32-byte units; each vector core (the platform's AIV count,
                 the platform's vector core count, ``AIV_CORES``) takes a contiguous run of whole units,
                 walked in tiles of at most MAX_TILE elements, at least two per core so the queues
                 overlap the loads, the add and the stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECIN y, VECOUT z): copy_in / compute /
                 copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse.
    tail         without ``DataCopyPad`` a copy moves whole 32-byte blocks, so the last n % 16
                 elements go through one 16-element window ending at the last element (it overlaps
                 the previous tile by the other elements, which get the same value again). The last
                 core loads that window first, before any store of its own, so an in-place launch
                 would read original values there too, and stores it last after a ``PIPE_MTE3``
                 barrier (two stores of the same bytes on one DMA pipe must not be in flight together).
"""
import argparse
import logging

import numpy as np

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "add"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "4x2048", "shape": [4, 2048]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE = 8192          # float16 elements per tile: 16 KiB, 3 queues x 2 buffers = 96 KiB of UB
ALIGN = 16               # float16 elements per 32-byte block
MIN_CORE_LEN = 1024      # below this many elements per core another core costs more than it saves


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, core_len: int,
               aligned_len: int, total_len: int, tile_len: int):
    start = asc.get_block_idx() * core_len
    length = aligned_len - start
    if length > core_len:
        length = core_len
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_y = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_z = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * 2)
    pipe.init_buffer(in_y, BUFFER_NUM, tile_len * 2)
    pipe.init_buffer(out_z, BUFFER_NUM, tile_len * 2)
    tail_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_y = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    pipe.init_buffer(tail_x, 1, ALIGN * 2)
    pipe.init_buffer(tail_y, 1, ALIGN * 2)
    has_tail = total_len > aligned_len and start + length == aligned_len
    if has_tail:
        copy_in(x_gm, y_gm, tail_x, tail_y, total_len - ALIGN, ALIGN)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(x_gm, y_gm, in_x, in_y, start + i * tile_len, count)
        compute(z_gm, in_x, in_y, out_z, count)
        copy_out(z_gm, out_z, start + i * tile_len, count)
    if has_tail:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
        compute(z_gm, tail_x, tail_y, out_z, ALIGN)
        copy_out(z_gm, out_z, total_len - ALIGN, ALIGN)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, y_gm: asc.GlobalTensor, in_x: asc.TQue, in_y: asc.TQue, offset: int,
            count: int):
    x_local = in_x.alloc_tensor(x_gm.dtype)
    y_local = in_y.alloc_tensor(y_gm.dtype)
    asc.data_copy(x_local, x_gm[offset:], count)
    asc.data_copy(y_local, y_gm[offset:], count)
    in_x.enque(x_local)
    in_y.enque(y_local)


@asc.jit
def compute(z_gm: asc.GlobalTensor, in_x: asc.TQue, in_y: asc.TQue, out_z: asc.TQue, count: int):
    x_local = in_x.deque(z_gm.dtype)
    y_local = in_y.deque(z_gm.dtype)
    z_local = out_z.alloc_tensor(z_gm.dtype)
    asc.add(z_local, x_local, y_local, count)
    out_z.enque(z_local)
    in_x.free_tensor(x_local)
    in_y.free_tensor(y_local)


@asc.jit
def copy_out(z_gm: asc.GlobalTensor, out_z: asc.TQue, offset: int, count: int):
    z_local = out_z.deque(z_gm.dtype)
    asc.data_copy(z_gm[offset:], z_local, count)
    out_z.free_tensor(z_local)


def tiling(total_len, max_cores=None):
    """(cores, core_len, aligned_len, tile_len): whole 32-byte units per core, two tiles per core at least,
    on the platform's vector cores (at most ``max_cores``)."""
    if total_len < ALIGN:
        raise ValueError(f"this kernel needs at least {ALIGN} elements (one 32-byte block), got {total_len}")
    aligned_len = total_len // ALIGN * ALIGN
    units = aligned_len // ALIGN
    cores = min(max_cores or platform_cores(AIV_CORES), -(-aligned_len // MIN_CORE_LEN))
    core_len = -(-units // cores) * ALIGN
    cores = -(-aligned_len // core_len)
    tile_len = min(MAX_TILE, -(-core_len // (2 * ALIGN)) * ALIGN)
    return cores, core_len, aligned_len, tile_len


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    y = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x, y)


def launch(x, y):
    if x.shape != y.shape:
        raise ValueError(f"add needs inputs of the same shape, got {x.shape} and {y.shape}")
    z = np.zeros_like(x)
    cores, core_len, aligned_len, tile_len = tiling(x.size)
    add_kernel[cores](x, y, z, core_len, aligned_len, x.size, tile_len)
    return z


def reference(x, y):
    return (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16)


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


def test_add_float16(backend, platform):
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

#!/usr/bin/env python3
"""Ascend C reference: elementwise sum z = x + y, bfloat16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/add_bf16.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs and
host reference), written as an Ascend C author writes a bfloat16 elementwise operator on a vector unit
without bfloat16 arithmetic: both tiles cast to float32 (``Cast``), ``Add``, the sum cast back
(``CAST_RINT``, the round to nearest even of torch's bfloat16 add).

    host tiling  the elements split into 32-byte units; each vector core (the platform's AIV count)
                 takes a contiguous run of whole units (the last core also the n % 16 tail), walked in
                 tiles of at most MAX_TILE elements, at least two per core so the queues overlap the
                 loads, the arithmetic and the stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECIN y, VECOUT z): copy_in / compute /
                 copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse; the
                 float32 operands in a VECCALC ``TBuf``.
    tail         ``DataCopyPad`` moves a tile of any length: the load zero-pads it to whole 32-byte
                 blocks, the store writes exactly its elements.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "add"
DTYPE = "bfloat16"
TOLERANCE = {"atol": 1e-2, "rtol": 7.8125e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE = 4096          # bfloat16 elements per tile: 8 KiB, 16 KiB per float32 operand
ITEMSIZE = 2
ALIGN = 16               # bfloat16 elements per 32-byte block
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
def add_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, core_len: int, total_len: int,
               tile_len: int):
    start = asc.get_block_idx() * core_len
    length = total_len - start
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
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_y, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_z, BUFFER_NUM, tile_len * ITEMSIZE)
    wide = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(wide, 2 * tile_len * 4)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(x_gm, in_x, start + i * tile_len, count)
        copy_in(y_gm, in_y, start + i * tile_len, count)
        compute(z_gm, in_x, in_y, out_z, wide, count, tile_len)
        copy_out(z_gm, out_z, start + i * tile_len, count)


@asc.jit
def copy_in(src_gm: asc.GlobalTensor, que: asc.TQue, offset: int, count: int):
    t = que.alloc_tensor(src_gm.dtype)
    pad = (count + ALIGN - 1) // ALIGN * ALIGN - count
    asc.data_copy_pad(t, src_gm[offset:], asc.DataCopyExtParams(1, count * ITEMSIZE, 0, 0, 0),
                      asc.DataCopyPadExtParams(src_gm.dtype, True, 0, pad, 0))
    que.enque(t)


@asc.jit
def compute(z_gm: asc.GlobalTensor, in_x: asc.TQue, in_y: asc.TQue, out_z: asc.TQue, wide: asc.TBuf, count: int,
            tile_len: int):
    x_local = in_x.deque(z_gm.dtype)
    y_local = in_y.deque(z_gm.dtype)
    x32 = wide.get(asc.float32)
    y32 = x32[tile_len:]
    asc.cast(x32, x_local, asc.RoundMode.CAST_NONE, count)
    asc.cast(y32, y_local, asc.RoundMode.CAST_NONE, count)
    in_x.free_tensor(x_local)
    in_y.free_tensor(y_local)
    asc.add(x32, x32, y32, count)
    z_local = out_z.alloc_tensor(z_gm.dtype)
    asc.cast(z_local, x32, asc.RoundMode.CAST_RINT, count)
    out_z.enque(z_local)


@asc.jit
def copy_out(z_gm: asc.GlobalTensor, out_z: asc.TQue, offset: int, count: int):
    z_local = out_z.deque(z_gm.dtype)
    asc.data_copy_pad(z_gm[offset:], z_local, asc.DataCopyExtParams(1, count * ITEMSIZE, 0, 0, 0))
    out_z.free_tensor(z_local)


def tiling(total_len, max_cores=None):
    """(cores, core_len, tile_len): whole 32-byte units per core (the last core also takes the tail), two
    tiles per core at least, on the platform's vector cores (at most ``max_cores``)."""
    units = -(-total_len // ALIGN)
    cores = min(max_cores or platform_cores(AIV_CORES), -(-total_len // MIN_CORE_LEN))
    core_len = -(-units // cores) * ALIGN
    cores = -(-total_len // core_len)
    tile_len = min(MAX_TILE, -(-core_len // (2 * ALIGN)) * ALIGN)
    return cores, core_len, tile_len


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    x = (torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 10 - 5).to(torch.bfloat16)
    y = (torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 10 - 5).to(torch.bfloat16)
    return (x, y)


def launch(x, y):
    if x.shape != y.shape:
        raise ValueError(f"add needs inputs of the same shape, got {tuple(x.shape)} and {tuple(y.shape)}")
    z = torch.zeros_like(x)
    cores, core_len, tile_len = tiling(x.numel())
    add_kernel[cores](x.contiguous(), y.contiguous(), z, core_len, x.numel(), tile_len)
    return z


def reference(x, y):
    return x + y


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


def test_add_bfloat16(backend, platform):
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

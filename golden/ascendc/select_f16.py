#!/usr/bin/env python3
"""Ascend C reference: elementwise select z = mask ? x : y (an int8 mask), float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/select_f16.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs and
host reference), written as an Ascend C author writes a Select operator: the int8 mask cast to half
(``Cast``), turned into a bit mask by ``CompareScalar`` (NE 0), then ``Select`` in VSEL_TENSOR_TENSOR_MODE.

    host tiling  the elements split into units of UNIT elements (one 256-byte repeat of half, the
                 granule of the count form of ``CompareScalar``); each vector core (the platform's AIV
                 count) takes a contiguous run of whole units (the last core also the tail), walked in
                 tiles of at most MAX_TILE elements, at least two per core.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN mask, VECIN x, VECIN y, VECOUT z): copy_in /
                 compute / copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers'
                 reuse; the half mask and the bit mask in VECCALC ``TBuf``s.
    tail         ``DataCopyPad`` moves a tile of any length (the store writes exactly its elements); the
                 compare covers whole repeats, so the half mask past the tile's end is zeroed first
                 (``Duplicate``) and those lanes are never selected into the output.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "select"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE = 8192          # elements per tile: 16 KiB of half
UNIT = 128               # half elements per 256-byte repeat
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
def select_kernel(mask: asc.GlobalAddress, x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress,
                  core_len: int, total_len: int, tile_len: int):
    start = asc.get_block_idx() * core_len
    length = total_len - start
    if length > core_len:
        length = core_len
    m_gm = asc.GlobalTensor()
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    m_gm.set_global_buffer(mask)
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    z_gm.set_global_buffer(z)
    pipe = asc.TPipe()
    in_m = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_y = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_z = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_m, BUFFER_NUM, tile_len)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_len * 2)
    pipe.init_buffer(in_y, BUFFER_NUM, tile_len * 2)
    pipe.init_buffer(out_z, BUFFER_NUM, tile_len * 2)
    half_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(half_buf, tile_len * 2)
    bits_buf = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(bits_buf, (tile_len // 8 + 31) // 32 * 32)     # a bit per element, whole 32-byte blocks
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in_mask(m_gm, in_m, start + i * tile_len, count)
        copy_in(x_gm, in_x, start + i * tile_len, count, 2)
        copy_in(y_gm, in_y, start + i * tile_len, count, 2)
        compute(z_gm, in_m, in_x, in_y, out_z, half_buf, bits_buf, count)
        copy_out(z_gm, out_z, start + i * tile_len, count)


@asc.jit
def copy_in_mask(m_gm: asc.GlobalTensor, que: asc.TQue, offset: int, count: int):
    """copy_in of the int8 mask: pyasc compiles a @jit helper once, for one GlobalTensor element type."""
    t = que.alloc_tensor(m_gm.dtype)
    pad = (count + 31) // 32 * 32 - count
    asc.data_copy_pad(t, m_gm[offset:], asc.DataCopyExtParams(1, count, 0, 0, 0),
                      asc.DataCopyPadExtParams(m_gm.dtype, True, 0, pad, 0))
    que.enque(t)


@asc.jit
def copy_in(src_gm: asc.GlobalTensor, que: asc.TQue, offset: int, count: int, itemsize: int):
    t = que.alloc_tensor(src_gm.dtype)
    per_block = 32 // itemsize
    pad = (count + per_block - 1) // per_block * per_block - count
    asc.data_copy_pad(t, src_gm[offset:], asc.DataCopyExtParams(1, count * itemsize, 0, 0, 0),
                      asc.DataCopyPadExtParams(src_gm.dtype, True, 0, pad, 0))
    que.enque(t)


@asc.jit
def compute(z_gm: asc.GlobalTensor, in_m: asc.TQue, in_x: asc.TQue, in_y: asc.TQue, out_z: asc.TQue,
            half_buf: asc.TBuf, bits_buf: asc.TBuf, count: int):
    m_local = in_m.deque(asc.int8)
    x_local = in_x.deque(z_gm.dtype)
    y_local = in_y.deque(z_gm.dtype)
    m_half = half_buf.get(asc.float16)
    bits = bits_buf.get(asc.uint8)
    whole = count // UNIT * UNIT
    span = (count + UNIT - 1) // UNIT * UNIT
    if span > whole:
        asc.duplicate(m_half[whole:], 0.0, UNIT)
    asc.cast(m_half, m_local, asc.RoundMode.CAST_NONE, count)
    in_m.free_tensor(m_local)
    asc.compare_scalar(bits, m_half, 0.0, asc.CMPMODE.NE, span)
    z_local = out_z.alloc_tensor(z_gm.dtype)
    asc.select(z_local, bits, x_local, y_local, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, count)
    out_z.enque(z_local)
    in_x.free_tensor(x_local)
    in_y.free_tensor(y_local)


@asc.jit
def copy_out(z_gm: asc.GlobalTensor, out_z: asc.TQue, offset: int, count: int):
    z_local = out_z.deque(z_gm.dtype)
    asc.data_copy_pad(z_gm[offset:], z_local, asc.DataCopyExtParams(1, count * 2, 0, 0, 0))
    out_z.free_tensor(z_local)


def tiling(total_len, max_cores=None):
    """(cores, core_len, tile_len): whole units per core (the last core also takes the tail), two tiles per
    core at least, on the platform's vector cores (at most ``max_cores``)."""
    units = -(-total_len // UNIT)
    cores = min(max_cores or platform_cores(AIV_CORES), -(-total_len // MIN_CORE_LEN))
    core_len = -(-units // cores) * UNIT
    cores = -(-total_len // core_len)
    tile_len = min(MAX_TILE, -(-core_len // (2 * UNIT)) * UNIT)
    return cores, core_len, tile_len


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    shape = case["shape"]
    mask = (torch.rand(shape, generator=gen) < 0.5).to(torch.int8)
    x = torch.randn(shape, generator=gen, dtype=torch.float32).to(torch.float16)
    y = torch.randn(shape, generator=gen, dtype=torch.float32).to(torch.float16)
    return (mask, x, y)


def launch(mask, x, y):
    if not mask.shape == x.shape == y.shape:
        raise ValueError(f"select needs operands of one shape, got {tuple(mask.shape)}, {tuple(x.shape)}, "
                         f"{tuple(y.shape)}")
    z = torch.zeros_like(x)
    cores, core_len, tile_len = tiling(x.numel())
    select_kernel[cores](mask.contiguous(), x.contiguous(), y.contiguous(), z, core_len, x.numel(), tile_len)
    return z


def reference(mask, x, y):
    return torch.where(mask != 0, x, y)


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


def test_select_float16(backend, platform):
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

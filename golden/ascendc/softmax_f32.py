#!/usr/bin/env python3
"""Ascend C reference: row softmax of a [rows, cols] tensor, float32, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/softmax_f32.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as ops-nn's SoftmaxV2 is: the ``SoftMax`` high-level API
(``asc.adv.softmax``) on tiles of whole rows, its max and sum outputs in a VECCALC ``TBuf``.

    host tiling  the rows split over the vector cores (the platform's AIV count), as many whole rows
                 per tile as fit MAX_TILE_BYTES, so each core walks ceil(rows per core / rows per
                 tile) tiles (the last one may hold fewer rows).
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECOUT y): copy_in / compute / copy_out
                 per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse.
    shapes       a row is whole 32-byte blocks (cols a multiple of 32 / sizeof), as the golden requires.
"""
import argparse
import logging

import numpy as np

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "softmax"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-5}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "64x1024", "shape": [64, 1024]},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE_BYTES = 32 * 1024
ITEMSIZE = 4
STAT = 32 // ITEMSIZE      # a row's max / sum are written broadcast over one 32-byte block


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def softmax_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, cols: int, core_rows: int,
                   tile_rows: int):
    first = asc.get_block_idx() * core_rows
    my_rows = rows - first
    if my_rows > core_rows:
        my_rows = core_rows
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, tile_rows * cols * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_rows * cols * ITEMSIZE)
    stats = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(stats, 2 * tile_rows * STAT * ITEMSIZE)
    tiles = (my_rows + tile_rows - 1) // tile_rows
    for i in range(tiles):
        row = first + i * tile_rows
        count = my_rows - i * tile_rows
        if count > tile_rows:
            count = tile_rows
        copy_in(x_gm, in_x, row * cols, count * cols)
        compute(y_gm, in_x, out_y, stats, count, cols)
        copy_out(y_gm, out_y, row * cols, count * cols)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, in_x: asc.TQue, offset: int, count: int):
    x = in_x.alloc_tensor(x_gm.dtype)
    asc.data_copy(x, x_gm[offset:], count)
    in_x.enque(x)


@asc.jit
def compute(y_gm: asc.GlobalTensor, in_x: asc.TQue, out_y: asc.TQue, stats: asc.TBuf, count: int, cols: int):
    x = in_x.deque(y_gm.dtype)
    y = out_y.alloc_tensor(y_gm.dtype)
    stat = stats.get(y_gm.dtype)
    sums = stat[0:]
    maxes = stat[count * STAT:]
    shape = asc.ShapeInfo(asc.array(asc.int32, (count, cols)))
    x.set_shape_info(shape)
    y.set_shape_info(shape)
    stat_shape = asc.ShapeInfo(asc.array(asc.int32, (count, STAT)))
    sums.set_shape_info(stat_shape)
    maxes.set_shape_info(stat_shape)
    asc.adv.softmax(y, sums, maxes, x, asc.adv.SoftmaxTiling())
    out_y.enque(y)
    in_x.free_tensor(x)


@asc.jit
def copy_out(y_gm: asc.GlobalTensor, out_y: asc.TQue, offset: int, count: int):
    y = out_y.deque(y_gm.dtype)
    asc.data_copy(y_gm[offset:], y, count)
    out_y.free_tensor(y)


def tiling(rows, cols):
    """(cores, core_rows, tile_rows): whole rows per core and per tile."""
    row_bytes = cols * ITEMSIZE
    if row_bytes % 32 or row_bytes > MAX_TILE_BYTES:
        raise ValueError(f"rows of {cols} columns must be whole 32-byte blocks and fit {MAX_TILE_BYTES} bytes")
    cores = min(platform_cores(AIV_CORES), rows)
    core_rows = -(-rows // cores)
    cores = -(-rows // core_rows)
    tile_rows = max(1, min(core_rows, MAX_TILE_BYTES // row_bytes))
    return cores, core_rows, tile_rows


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = rng.random(case["shape"], dtype=np.float32) * 10 - 5
    return (x,)


def launch(x):
    rows, cols = x.shape
    y = np.zeros_like(x)
    cores, core_rows, tile_rows = tiling(rows, cols)
    softmax_kernel[cores](np.ascontiguousarray(x), y, rows, cols, core_rows, tile_rows)
    return y


def reference(x):
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)


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


def test_softmax_float32(backend, platform):
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

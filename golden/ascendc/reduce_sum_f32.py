#!/usr/bin/env python3
"""Ascend C reference: row sum of a [rows, cols] tensor, float32, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/reduce_sum_f32.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes a last-axis ReduceSum whose rows fit
the UB: each row of a tile of whole rows folded by ``WholeReduceSum`` (``asc.whole_reduce_sum``, one
sum per 256-byte repeat, the last repeat masked to the row's tail) until one repeat's worth is left,
whose sum lands in a VECOUT tile of row sums stored with one ``DataCopyPad`` per tile.

    host tiling  the rows split over the vector cores (the platform's AIV count), as many whole rows
                 per tile as fit MAX_TILE_BYTES, so each core walks ceil(rows per core / rows per
                 tile) tiles (the last one may hold fewer rows).
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN x, VECOUT sums): copy_in / compute /
                 copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse;
                 the partial sums of the fold live in a VECCALC ``TBuf`` (two halves, one per
                 level, since a repeat may not read what another repeat of it writes).
    shapes       rows of any length up to MAX_TILE_BYTES: ``DataCopyPad`` loads each row onto its own
                 32-byte block (the row stride in UB is cols rounded up to a block) and stores a
                 tile's sums as exactly ``count`` elements, so cores never share a GM block.
"""
import argparse
import logging

import numpy as np

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "reduce_sum"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-3}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "1x128", "shape": [1, 128]},
    {"id": "7x1000", "shape": [7, 1000]},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE_BYTES = 32 * 1024
ITEMSIZE = 4
ALIGN = 32 // ITEMSIZE          # elements per 32-byte block
LANES = 256 // ITEMSIZE         # elements per vector repeat


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def reduce_sum_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, cols: int, stride: int,
                      core_rows: int, tile_rows: int):
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
    pipe.init_buffer(in_x, BUFFER_NUM, tile_rows * stride * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, (tile_rows + ALIGN - 1) // ALIGN * 32)
    work = asc.TBuf(asc.TPosition.VECCALC)
    partial = (stride + LANES - 1) // LANES
    pipe.init_buffer(work, ((partial + ALIGN - 1) // ALIGN + 1) * 32)
    tiles = (my_rows + tile_rows - 1) // tile_rows
    for i in range(tiles):
        row = first + i * tile_rows
        count = my_rows - i * tile_rows
        if count > tile_rows:
            count = tile_rows
        copy_in(x_gm, in_x, row, count, cols, stride)
        compute(y_gm, in_x, out_y, work, count, cols, stride)
        copy_out(y_gm, out_y, row, count)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, in_x: asc.TQue, row: int, count: int, cols: int, stride: int):
    x = in_x.alloc_tensor(x_gm.dtype)
    # each row padded with zeros to its UB stride, so whole-tile instructions read defined values
    asc.data_copy_pad(x, x_gm[row * cols:], asc.DataCopyExtParams(count, cols * ITEMSIZE, 0, 0, 0),
                      asc.DataCopyPadExtParams(x_gm.dtype, True, 0, stride - cols, 0))
    in_x.enque(x)


@asc.jit
def compute(y_gm: asc.GlobalTensor, in_x: asc.TQue, out_y: asc.TQue, work: asc.TBuf, count: int, cols: int,
            stride: int):
    x = in_x.deque(y_gm.dtype)
    y = out_y.alloc_tensor(y_gm.dtype)
    tmp = work.get(y_gm.dtype)
    level_2 = tmp[(stride + LANES - 1) // LANES // ALIGN * ALIGN + ALIGN:]
    for r in range(count):
        src = x[r * stride:]
        n = cols
        level = 0
        while n > LANES:            # at most two folds: a row is at most MAX_TILE_BYTES / 256 repeats
            dst = tmp if level == 0 else level_2
            fold(dst, src, n)
            src = dst
            n = (n + LANES - 1) // LANES
            level += 1
        asc.whole_reduce_sum(y[r:], src, n, 1, 1, 1, 8)
    out_y.enque(y)
    in_x.free_tensor(x)


@asc.jit
def fold(dst: asc.LocalTensor, src: asc.LocalTensor, n: int):
    """The sums of src's n elements per repeat of LANES: ceil(n / LANES) results at dst."""
    full = n // LANES
    tail = n - full * LANES
    if full > 0:
        asc.whole_reduce_sum(dst, src, LANES, full, 1, 1, 8)
    if tail > 0:
        asc.whole_reduce_sum(dst[full:], src[full * LANES:], tail, 1, 1, 1, 8)


@asc.jit
def copy_out(y_gm: asc.GlobalTensor, out_y: asc.TQue, row: int, count: int):
    y = out_y.deque(y_gm.dtype)
    asc.data_copy_pad(y_gm[row:], y, asc.DataCopyExtParams(1, count * ITEMSIZE, 0, 0, 0))
    out_y.free_tensor(y)


def tiling(rows, cols):
    """(cores, stride, core_rows, tile_rows): a row's UB stride in elements, whole rows per core and tile."""
    stride = -(-cols // ALIGN) * ALIGN
    if stride * ITEMSIZE > MAX_TILE_BYTES:
        raise ValueError(f"rows of {cols} columns do not fit one {MAX_TILE_BYTES}-byte tile")
    cores = min(platform_cores(AIV_CORES), rows)
    core_rows = -(-rows // cores)
    cores = -(-rows // core_rows)
    tile_rows = max(1, min(core_rows, MAX_TILE_BYTES // (stride * ITEMSIZE)))
    return cores, stride, core_rows, tile_rows


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = rng.random(case["shape"], dtype=np.float32) * 10 - 5
    return (x,)


def launch(x):
    rows, cols = x.shape
    y = np.zeros(rows, dtype=x.dtype)
    cores, stride, core_rows, tile_rows = tiling(rows, cols)
    reduce_sum_kernel[cores](np.ascontiguousarray(x), y, rows, cols, stride, core_rows, tile_rows)
    return y


def reference(x):
    return x.astype(np.float64).sum(axis=1).astype(np.float32)


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


def test_reduce_sum_float32(backend, platform):
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

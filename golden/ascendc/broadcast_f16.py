#!/usr/bin/env python3
"""Ascend C reference: broadcast of a row or a column to [rows, cols], float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/broadcast_f16.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs
and host reference), written as an Ascend C author writes a BroadcastTo whose rows fit the UB: a tile of
rows built once in UB and stored by ``DataCopyPad`` (exactly ``cols`` elements a row) as often as needed.

    row          x loaded once (``DataCopyPad``), copied into every row of the tile (``Muls`` by 1, which
                 keeps every value bit for bit), the tile stored over each core's rows.
    column       each row of a tile filled with its element of x (``Duplicate`` of the value the scalar
                 unit reads from GM), the tile stored.
    host tiling  the rows split over the vector cores (the platform's AIV count), whole rows a core, as
                 many rows a tile as fit MAX_TILE_BYTES (at most 4095, the copy's block count).
    pipeline     ``TPipe`` with ``TQue``s (VECIN x; VECOUT tiles, two deep for the column kind so one
                 tile fills while the previous one stores), ordering MTE2 -> V -> MTE3.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "broadcast"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "row_1x128", "shape": [1, 128], "kind": "row"},
    {"id": "row_2500x24", "shape": [2500, 24], "kind": "row"},
    {"id": "row_32x4096", "shape": [32, 4096], "kind": "row"},
    {"id": "column_100x1623", "shape": [100, 1623], "kind": "column"},
    {"id": "column_7000x128", "shape": [7000, 128], "kind": "column", "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE_BYTES = 16 * 1024
ITEMSIZE = 2
ALIGN = 16               # half elements per 32-byte block
MAX_BLOCK_COUNT = 4095   # DataCopyExtParams.block_count


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def broadcast_row_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, cols: int, stride: int,
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
    in_x = asc.TQue(asc.TPosition.VECIN, 1)
    out_y = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(in_x, 1, stride * ITEMSIZE)
    pipe.init_buffer(out_y, 1, tile_rows * stride * ITEMSIZE)
    x_local = in_x.alloc_tensor(x_gm.dtype)
    asc.data_copy_pad(x_local, x_gm, asc.DataCopyExtParams(1, cols * ITEMSIZE, 0, 0, 0),
                      asc.DataCopyPadExtParams(x_gm.dtype, True, 0, stride - cols, 0))
    in_x.enque(x_local)
    x_local = in_x.deque(x_gm.dtype)
    tile = out_y.alloc_tensor(y_gm.dtype)
    filled = my_rows
    if filled > tile_rows:
        filled = tile_rows
    for r in range(filled):
        asc.muls(tile[r * stride:], x_local, 1.0, stride)
    in_x.free_tensor(x_local)
    out_y.enque(tile)
    tile = out_y.deque(y_gm.dtype)
    tiles = (my_rows + tile_rows - 1) // tile_rows
    for i in range(tiles):
        count = my_rows - i * tile_rows
        if count > tile_rows:
            count = tile_rows
        asc.data_copy_pad(y_gm[(first + i * tile_rows) * cols:], tile,
                          asc.DataCopyExtParams(count, cols * ITEMSIZE, 0, 0, 0))
    out_y.free_tensor(tile)


@asc.jit
def broadcast_column_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, cols: int, stride: int,
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
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_rows * stride * ITEMSIZE)
    tiles = (my_rows + tile_rows - 1) // tile_rows
    for i in range(tiles):
        row = first + i * tile_rows
        count = my_rows - i * tile_rows
        if count > tile_rows:
            count = tile_rows
        tile = out_y.alloc_tensor(y_gm.dtype)
        for r in range(count):
            asc.duplicate(tile[r * stride:], x_gm.get_value(row + r), stride)
        out_y.enque(tile)
        tile = out_y.deque(y_gm.dtype)
        asc.data_copy_pad(y_gm[row * cols:], tile, asc.DataCopyExtParams(count, cols * ITEMSIZE, 0, 0, 0))
        out_y.free_tensor(tile)


def tiling(rows, cols):
    """(cores, stride, core_rows, tile_rows): a row's UB stride, whole rows a core and a tile."""
    stride = -(-cols // ALIGN) * ALIGN
    if stride * ITEMSIZE > MAX_TILE_BYTES:
        raise ValueError(f"rows of {cols} columns exceed one UB tile (max {MAX_TILE_BYTES // ITEMSIZE})")
    cores = min(platform_cores(AIV_CORES), rows)
    core_rows = -(-rows // cores)
    tile_rows = min(core_rows, MAX_TILE_BYTES // (stride * ITEMSIZE), MAX_BLOCK_COUNT)
    return -(-rows // core_rows), stride, core_rows, tile_rows


def make_inputs(case):
    rows, cols = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    n = cols if case["kind"] == "row" else rows
    x = torch.randn((n,), generator=gen, dtype=torch.float32).to(torch.float16)
    return (x, rows, cols, case["kind"] == "row")


def launch(x, rows, cols, is_row):
    kind = "row" if is_row else "column"
    if x.shape != ((cols,) if is_row else (rows,)):
        raise ValueError(f"a {kind} broadcast to [{rows}, {cols}] needs x of length {cols if is_row else rows}")
    y = torch.zeros((rows, cols), dtype=x.dtype)
    cores, stride, core_rows, tile_rows = tiling(rows, cols)
    kernel = broadcast_row_kernel if is_row else broadcast_column_kernel
    kernel[cores](x.contiguous(), y, rows, cols, stride, core_rows, tile_rows)
    return y


def reference(x, rows, cols, is_row):
    return (x.expand(rows, cols) if is_row else x[:, None].expand(rows, cols)).contiguous()


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


def test_broadcast_float16(backend, platform):
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

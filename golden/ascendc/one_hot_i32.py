#!/usr/bin/env python3
"""Ascend C reference: one-hot encoding of int32 class indices to [n, depth] int32, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/one_hot_i32.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs and
host reference), written as an Ascend C author writes a OneHot of a small depth: a tile of rows zeroed by
``Duplicate``, the single 1 of each row written by the scalar unit (``SetValue`` at the index it reads from
GM), the tile stored by ``DataCopyPad``.

    host tiling  the indices split over the vector cores (the platform's AIV count), whole rows a core, as
                 many rows a tile as fit MAX_TILE_BYTES.
    pipeline     ``TPipe`` with a two-deep VECOUT ``TQue``: the queue orders V -> MTE3 and the buffers'
                 reuse; a V -> S flag before the scalar writes and an S -> MTE3 flag before the store.
    shapes       depth a multiple of 8 (a row is whole 32-byte blocks of int32), as the golden requires.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "one_hot"
DTYPE = "int32"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x16", "shape": [1, 16]},
    {"id": "60000x8", "shape": [60000, 8]},
    {"id": "100003x16", "shape": [100003, 16]},
    {"id": "7000x128", "shape": [7000, 128], "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE_BYTES = 16 * 1024
ITEMSIZE = 4
MAX_DEPTH = 256


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def one_hot_kernel(indices: asc.GlobalAddress, y: asc.GlobalAddress, n: int, depth: int, core_rows: int,
                   tile_rows: int):
    first = asc.get_block_idx() * core_rows
    my_rows = n - first
    if my_rows > core_rows:
        my_rows = core_rows
    i_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    i_gm.set_global_buffer(indices)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(out_y, BUFFER_NUM, tile_rows * depth * ITEMSIZE)
    tiles = (my_rows + tile_rows - 1) // tile_rows
    for i in range(tiles):
        row = first + i * tile_rows
        count = my_rows - i * tile_rows
        if count > tile_rows:
            count = tile_rows
        tile = out_y.alloc_tensor(y_gm.dtype)
        asc.duplicate(tile, 0, count * depth)
        asc.set_flag(asc.HardEvent.V_S, 0)
        asc.wait_flag(asc.HardEvent.V_S, 0)
        for r in range(count):
            tile.set_value(r * depth + i_gm.get_value(row + r), 1)
        asc.set_flag(asc.HardEvent.S_MTE3, 0)
        asc.wait_flag(asc.HardEvent.S_MTE3, 0)
        out_y.enque(tile)
        tile = out_y.deque(y_gm.dtype)
        asc.data_copy_pad(y_gm[row * depth:], tile, asc.DataCopyExtParams(1, count * depth * ITEMSIZE, 0, 0, 0))
        out_y.free_tensor(tile)


def tiling(n, depth):
    """(cores, core_rows, tile_rows): whole rows a core and a tile."""
    cores = min(platform_cores(AIV_CORES), n)
    core_rows = -(-n // cores)
    tile_rows = max(1, min(core_rows, MAX_TILE_BYTES // (depth * ITEMSIZE)))
    return -(-n // core_rows), core_rows, tile_rows


def make_inputs(case):
    n, depth = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randint(0, depth, (n,), generator=gen, dtype=torch.int32), depth)


def launch(indices, depth):
    if depth % 8 or not 0 < depth <= MAX_DEPTH:
        raise ValueError(f"depth must be a multiple of 8 in 8..{MAX_DEPTH}, got {depth}")
    if indices.numel() and (int(indices.min()) < 0 or int(indices.max()) >= depth):
        raise ValueError(f"indices must lie in [0, {depth})")
    n = indices.numel()
    y = torch.zeros((n, depth), dtype=torch.int32)
    cores, core_rows, tile_rows = tiling(n, depth)
    one_hot_kernel[cores](indices.contiguous(), y, n, depth, core_rows, tile_rows)
    return y


def reference(indices, depth):
    return torch.nn.functional.one_hot(indices.long(), depth).to(torch.int32)


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


def test_one_hot_int32(backend, platform):
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

#!/usr/bin/env python3
"""Ascend C reference: split of the last axis into three sections, float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/split_f16.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs and
host reference), written as an Ascend C author writes a last-axis Split: pure data movement, each section
a strided ``DataCopyPad`` of a tile of rows into UB (GM rows ``cols`` apart, ``width`` elements each, every
row on its own 32-byte block) and a ``DataCopyPad`` of the same rows out, packed, into the section's output.

    host tiling  the rows (every leading dimension flattened) split over the vector cores (the
                 platform's AIV count), whole rows a core; as many rows a tile as fit MAX_TILE_BYTES (at
                 most 4095, the copy's block count).
    pipeline     ``TPipe`` with a two-deep ``TQueBind`` (VECIN -> VECOUT): the load of one tile overlaps
                 the store of the previous one, the queue ordering MTE2 -> MTE3 and the buffers' reuse.
    shapes       any section width up to MAX_TILE_BYTES a row: ``DataCopyPad`` moves rows that are not
                 whole 32-byte blocks (8, 24 and 541 half values) and writes exactly their bytes.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "split"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "8x96", "shape": [8, 96], "sections": [32, 32, 32]},
    {"id": "2500x24", "shape": [2500, 24], "sections": [8, 8, 8]},
    {"id": "100x1623", "shape": [100, 1623], "sections": [541, 541, 541]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "sections": [64, 32, 32], "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
MAX_TILE_BYTES = 32 * 1024
ITEMSIZE = 2
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
def split3_kernel(x: asc.GlobalAddress, o0: asc.GlobalAddress, o1: asc.GlobalAddress, o2: asc.GlobalAddress,
                  rows: int, cols: int, s0: int, s1: int, s2: int, core_rows: int):
    first = asc.get_block_idx() * core_rows
    my_rows = rows - first
    if my_rows > core_rows:
        my_rows = core_rows
    x_gm = asc.GlobalTensor()
    o0_gm = asc.GlobalTensor()
    o1_gm = asc.GlobalTensor()
    o2_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    o0_gm.set_global_buffer(o0)
    o1_gm.set_global_buffer(o1)
    o2_gm.set_global_buffer(o2)
    pipe = asc.TPipe()
    que = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(que, BUFFER_NUM, MAX_TILE_BYTES)
    section(x_gm, o0_gm, que, first, my_rows, cols, 0, s0)
    section(x_gm, o1_gm, que, first, my_rows, cols, s0, s1)
    section(x_gm, o2_gm, que, first, my_rows, cols, s0 + s1, s2)


@asc.jit
def section(x_gm: asc.GlobalTensor, o_gm: asc.GlobalTensor, que: asc.TQueBind, first: int, my_rows: int, cols: int,
            offset: int, width: int):
    row_bytes = (width * ITEMSIZE + 31) // 32 * 32
    tile_rows = MAX_TILE_BYTES // row_bytes
    if tile_rows > MAX_BLOCK_COUNT:
        tile_rows = width * 0 + MAX_BLOCK_COUNT   # a device value, as tile_rows is
    if tile_rows > my_rows:
        tile_rows = my_rows
    tiles = (my_rows + tile_rows - 1) // tile_rows
    for i in range(tiles):
        row = first + i * tile_rows
        count = my_rows - i * tile_rows
        if count > tile_rows:
            count = tile_rows
        t = que.alloc_tensor(x_gm.dtype)
        asc.data_copy_pad(t, x_gm[row * cols + offset:],
                          asc.DataCopyExtParams(count, width * ITEMSIZE, (cols - width) * ITEMSIZE, 0, 0))
        que.enque(t)
        t = que.deque(x_gm.dtype)
        asc.data_copy_pad(o_gm[row * width:], t, asc.DataCopyExtParams(count, width * ITEMSIZE, 0, 0, 0))
        que.free_tensor(t)


def tiling(rows, sections):
    """(cores, core_rows): whole rows a core on the platform's vector cores."""
    if max(-(-s * ITEMSIZE // 32) * 32 for s in sections) > MAX_TILE_BYTES:
        raise ValueError(f"sections {sections} do not fit a {MAX_TILE_BYTES}-byte tile a row")
    cores = min(platform_cores(AIV_CORES), rows)
    core_rows = -(-rows // cores)
    return -(-rows // core_rows), core_rows


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn(case["shape"], generator=gen, dtype=torch.float32).to(torch.float16)
    return (x, list(case["sections"]))


def launch(x, sections):
    cols = x.shape[-1]
    if len(sections) != 3 or sum(sections) != cols or min(sections) < 1:
        raise ValueError(f"three positive sections summing to {cols} expected, got {sections}")
    x = x.contiguous()
    rows = x.numel() // cols
    outs = [torch.zeros((*x.shape[:-1], s), dtype=x.dtype) for s in sections]
    cores, core_rows = tiling(rows, sections)
    split3_kernel[cores](x, *outs, rows, cols, *sections, core_rows)
    return tuple(outs)


def reference(x, sections):
    return tuple(t.contiguous() for t in torch.split(x, sections, dim=-1))


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


def test_split_float16(backend, platform):
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

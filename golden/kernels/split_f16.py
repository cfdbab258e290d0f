#!/usr/bin/env python3
"""Golden kernel: split along the last axis into three outputs, float16.

Operation
    x [..., cols] (viewed as [rows, cols]) float16 and three section widths s0 + s1 + s2 = cols;
    outputs out_k [..., s_k] = x[..., o_k : o_k + s_k] with o_0 = 0, o_1 = s0, o_2 = s0 + s1 --
    ``torch.split(x, [s0, s1, s2], dim=-1)``. One launch writes all three outputs.

Cell metadata (mirrors capabilities.yaml, split/float16/<platform>; do not drift)
    shapes      [8, 96] -> 32 + 32 + 32; [2500, 24] -> 8 + 8 + 8; [100, 1623] -> 541 + 541 + 541;
                [7000, 1, 128] -> 64 + 32 + 32 (``full_only``).
    tolerance   atol 0, rtol 0 (a copy).
    regime      tiles of tile_rows whole rows: per row tile and section one 2-D copy_in of the section's
                columns (a strided window of x, as Ascend C's strided DataCopyPad) and one copy_out into
                the section's output; TILE = the widest section rounded up to 16 (at most MAX_TILE),
                tile_rows = at most TILE_ELEMENTS / TILE rows, chosen so the row tiles spread evenly
                over the blocks.
    tail        x is a [rows, cols] global tensor and each output a [rows, s_k] one; real_shape
                [tile_rows, s_k] keeps a window inside its section (8 or 541 columns are not whole
                32-byte blocks, and start at offsets that are not 32-byte aligned), and the last row
                tile's rows past `rows` are clipped (2500 / 7000 rows are not multiples of tile_rows).
    partitioning
                row tile i goes to block i % block_num, launched on min(CORE_NUM, row tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; one builtin ``range`` over the row tiles with the default
      ``gm_barrier=False`` (row tiles are independent; nothing is read that this launch writes). It
      is not unrolled: each tile op's code costs a first-run fetch (C220), and the three sections'
      copies already overlap within a trip (each has its own buffer).
    * Section widths and the row count are runtime ints; tile_rows and TILE are ConstExprs.
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    Exact: the outputs are copies of the input's elements.

Inputs: torch CPU tensors, seed 2026, N(0, 1) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

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
ALIGN = 16
TILE_ELEMENTS = 16384  # 32 KiB of float16 a tile, one per section
MAX_TILE = TILE_ELEMENTS
CORE_NUM = 32


@asc2.jit(always_compile=True)
def split3_kernel(x_ptr: asc2.GlobalAddress, o0_ptr: asc2.GlobalAddress, o1_ptr: asc2.GlobalAddress,
                  o2_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int, s0: int, s1: int, s2: int,
                  row_tiles: int, tile_rows: asc2.ConstExpr[int], tile: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    o0_gm = asc2.global_tensor(o0_ptr, [num_rows, s0])
    o1_gm = asc2.global_tensor(o1_ptr, [num_rows, s1])
    o2_gm = asc2.global_tensor(o2_ptr, [num_rows, s2])
    for i in range(asc2.block_idx(), row_tiles, asc2.block_num()):
        r = i * tile_rows
        # real_shape keeps each window inside its section; rows past num_rows are clipped.
        first = asc2.copy_in(x_gm, [r, 0], [tile_rows, tile], real_shape=[tile_rows, s0])
        asc2.copy_out(first, o0_gm, [r, 0], real_shape=[tile_rows, s0])
        second = asc2.copy_in(x_gm, [r, s0], [tile_rows, tile], real_shape=[tile_rows, s1])
        asc2.copy_out(second, o1_gm, [r, 0], real_shape=[tile_rows, s1])
        third = asc2.copy_in(x_gm, [r, s0 + s1], [tile_rows, tile], real_shape=[tile_rows, s2])
        asc2.copy_out(third, o2_gm, [r, 0], real_shape=[tile_rows, s2])


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn(case["shape"], generator=gen, dtype=torch.float32).to(torch.float16)
    return (x, list(case["sections"]))


def launch(x, sections):
    num_cols = x.shape[-1]
    if len(sections) != 3 or sum(sections) != num_cols or min(sections) < 1:
        raise ValueError(f"three positive sections summing to {num_cols} expected, got {sections}")
    x = x.contiguous()
    num_rows = x.numel() // num_cols
    tile = -(-max(sections) // ALIGN) * ALIGN
    if tile > MAX_TILE:
        raise ValueError(f"sections {sections} are wider than one UB tile row (max {MAX_TILE} elements)")
    outs = [torch.zeros((*x.shape[:-1], s), dtype=x.dtype) for s in sections]
    tile_rows, row_tiles = row_tiling(num_rows, tile)
    split3_kernel[min(CORE_NUM, row_tiles)](x, *outs, num_rows, num_cols, *sections, row_tiles, tile_rows, tile)
    return tuple(outs)


def row_tiling(rows, tile):
    """(tile_rows, row_tiles): at most TILE_ELEMENTS a tile, the row tiles spread evenly over CORE_NUM."""
    per_core = -(-rows // CORE_NUM)
    tiles_per_core = -(-per_core // max(1, TILE_ELEMENTS // tile))
    tile_rows = -(-per_core // tiles_per_core)
    return tile_rows, -(-rows // tile_rows)


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

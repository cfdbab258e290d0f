#!/usr/bin/env python3
"""Golden kernel: broadcast of a row vector or a column vector to a matrix, float16.

Operation
    "row":    x [cols]  -> y [rows, cols], y[r, :] = x   (torch ``x.expand(rows, cols)``)
    "column": x [rows]  -> y [rows, cols], y[r, :] = x[r] (torch ``x[:, None].expand(rows, cols)``)
    Each case names its kind; the registry shape is y's shape.

Cell metadata (mirrors capabilities.yaml, broadcast/float16/<platform>; do not drift)
    shapes      [1, 128] row, [2500, 24] row, [32, 4096] row, [100, 1623] column,
                [7000, 128] column (``full_only``).
    tolerance   atol 0, rtol 0 (a copy).
    regime      tiles of tile_rows whole rows (tile_cols = cols rounded up to 16; at most
                TILE_ELEMENTS a tile, the row tiles spread evenly over the blocks), one copy_out each:
                the row kernel loads x once per block and broadcasts it to a [tile_rows, tile_cols]
                tile (``broadcast_to``; a tile of one row is stored as loaded), stored into every row
                tile the block owns; the column kernel loads the tile's tile_rows values of x (1-D) and
                broadcasts them along the columns (``reshape(tile_rows, 1).broadcast_to(...)``).
    tail        y is a [rows, cols] global tensor; real_shape [tile_rows, cols] writes only the
                row's cols elements (24 and 1623 are not multiples of 16), and the rows of the last
                row tile past `rows` are clipped (2500 / 7000 rows are not multiples of tile_rows).
    partitioning
                row tile i goes to block i % block_num, launched on min(CORE_NUM, row tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with the default ``gm_barrier=False`` (rows are
      independent and nothing read is written by this launch). The column kernel's loop is
      unrolled twice (a row tile's load overlaps the previous store); the row kernel's only stores.
    * cols and rows are runtime ints; tile_rows and tile_cols are ConstExprs (tile_cols at most
      MAX_COLS = 8192).
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    Exact: every output element is a copy of an input element.

Inputs: torch CPU tensors, seed 2026, N(0, 1) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

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
ALIGN = 16
MAX_COLS = 8192
TILE_ELEMENTS = 16384  # 32 KiB of float16 a tile of rows
CORE_NUM = 32


@asc2.jit(always_compile=True)
def broadcast_row_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int,
                         row_tiles: int, tile_rows: asc2.ConstExpr[int], tile_cols: asc2.ConstExpr[int]):
    block = asc2.copy_in(asc2.global_tensor(x_ptr, [1, num_cols]), [0, 0], [1, tile_cols])
    if tile_rows > 1:   # a compile-time choice: a tile of one row is stored as loaded
        block = block.broadcast_to(tile_rows, tile_cols)   # built once per block, stored into every row tile
    y_gm = asc2.global_tensor(y_ptr, [num_rows, num_cols])
    for i in range(asc2.block_idx(), row_tiles, asc2.block_num()):
        asc2.copy_out(block, y_gm, [i * tile_rows, 0], real_shape=[tile_rows, num_cols])


@asc2.jit(always_compile=True)
def broadcast_column_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int,
                            row_tiles: int, tile_rows: asc2.ConstExpr[int], tile_cols: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows])
    y_gm = asc2.global_tensor(y_ptr, [num_rows, num_cols])
    for i in range(asc2.block_idx(), row_tiles, asc2.block_num(), unroll_factor=2):
        r = i * tile_rows
        values = asc2.copy_in(x_gm, [r], [tile_rows])
        block = values.reshape(tile_rows, 1).broadcast_to(tile_rows, tile_cols)
        asc2.copy_out(block, y_gm, [r, 0], real_shape=[tile_rows, num_cols])


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
    if cols > MAX_COLS:
        raise ValueError(f"rows of {cols} columns exceed one UB tile (max {MAX_COLS})")
    tile_cols = -(-cols // ALIGN) * ALIGN
    tile_rows, row_tiles = row_tiling(rows, tile_cols)
    y = torch.zeros((rows, cols), dtype=x.dtype)
    kernel = broadcast_row_kernel if is_row else broadcast_column_kernel
    kernel[min(CORE_NUM, row_tiles)](x.contiguous(), y, rows, cols, row_tiles, tile_rows, tile_cols)
    return y


def row_tiling(rows, tile_cols):
    """(tile_rows, row_tiles): at most TILE_ELEMENTS a tile, the row tiles spread evenly over CORE_NUM."""
    per_core = -(-rows // CORE_NUM)
    tiles_per_core = -(-per_core // max(1, TILE_ELEMENTS // tile_cols))
    tile_rows = -(-per_core // tiles_per_core)
    return tile_rows, -(-rows // tile_rows)


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

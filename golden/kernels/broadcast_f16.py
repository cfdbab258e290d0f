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
    regime      one output row per step: the row kernel loads x once per block into a tile of
                tile_cols = cols rounded up to 16 and stores it into every row it owns; the column
                kernel reads x[r] as a scalar (``copy_in`` without a shape) and stores
                ``asc2.full([tile_cols], x[r])``.
    tail        each output row is its own 1-D global tensor (``y_ptr + r * cols``), so the store of
                a padded tile writes only the row's cols elements (24 and 1623 are not multiples of
                16, and 2500 / 7000 rows are not multiples of 32 blocks).
    partitioning
                row r goes to block r % block_num, launched on min(CORE_NUM, rows) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=2``, default ``gm_barrier=False``
      (rows are independent and nothing read is written by this launch).
    * cols and rows are runtime ints; only tile_cols is a ConstExpr (at most MAX_COLS = 8192).
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
CORE_NUM = 32


@asc2.jit(always_compile=True)
def broadcast_row_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int,
                         tile_cols: asc2.ConstExpr[int]):
    row = asc2.copy_in(asc2.global_tensor(x_ptr, [num_cols]), [0], [tile_cols])
    for r in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        asc2.copy_out(row, asc2.global_tensor(y_ptr + r * num_cols, [num_cols]), [0])


@asc2.jit(always_compile=True)
def broadcast_column_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int,
                            tile_cols: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows])
    for r in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        value = asc2.copy_in(x_gm, [r])
        asc2.copy_out(asc2.full([tile_cols], value, dtype=asc2.float16),
                      asc2.global_tensor(y_ptr + r * num_cols, [num_cols]), [0])


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
    y = torch.zeros((rows, cols), dtype=x.dtype)
    kernel = broadcast_row_kernel if is_row else broadcast_column_kernel
    kernel[min(CORE_NUM, rows)](x.contiguous(), y, rows, cols, tile_cols)
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

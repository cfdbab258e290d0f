#!/usr/bin/env python3
"""Golden kernel: 2-D transpose, y = x.T, float16.

Operation
    x [rows, cols] float16 -> y [cols, rows] float16, y[j, i] = x[i, j]. The matrix is cut into
    TILE x TILE blocks; block (bi, bj) is loaded from x at (bi * TILE, bj * TILE), transposed in UB
    (``Tile.transpose()``) and stored into y at (bj * TILE, bi * TILE).

Cell metadata (mirrors capabilities.yaml, transpose/float16/<platform>; do not drift)
    shapes      [1, 16], [64, 128], [2500, 24], [100, 1623], [7000, 128] (``full_only``).
    tolerance   atol 0, rtol 0 (a permutation of the elements).
    regime      TILE = 64 (a [64, 64] float16 block is 8 KiB): one copy_in, one transpose, one
                copy_out per block.
    tail        edge blocks hold fewer than 64 valid rows or columns (2500 = 39 * 64 + 4, 24 < 64,
                1623 = 25 * 64 + 23, 1 row): ``copy_in(..., real_shape=[valid_rows, valid_cols],
                pad_value=0)`` reads only the valid part, and ``copy_out(..., real_shape=[valid_cols,
                valid_rows])`` writes only the transposed valid part, so neither crosses a row end.
    partitioning
                block w = bi * col_blocks + bj goes to block w % block_num, launched on
                min(CORE_NUM, blocks) blocks.

Non-obvious constraints
    * August 2026 dialect: ``real_shape`` on copy_in / copy_out is what makes 2-D edge tiles safe
      (a 2-D store without it clips only against the tensor's last dimension). The valid counts
      are runtime scalars built with ``asc2.number`` and an ``if``, as pyasc's own tests do.
    * The tile is square and a multiple of 16 float16 elements, so both the loaded tile and its
      transpose have 32-byte-aligned rows.
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    Exact: the output is a permutation of the input.

Inputs: torch CPU tensors, seed 2026, N(0, 1) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

OP = "transpose"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x16", "shape": [1, 16]},
    {"id": "64x128", "shape": [64, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "100x1623", "shape": [100, 1623]},
    {"id": "7000x128", "shape": [7000, 128], "full_only": True},
]

SEED = 2026
TILE = 64
CORE_NUM = 32


@asc2.jit(always_compile=True)
def transpose_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, rows: int, cols: int,
                     row_blocks: int, col_blocks: int, tile: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    y_gm = asc2.global_tensor(y_ptr, [cols, rows])
    for w in range(asc2.block_idx(), row_blocks * col_blocks, asc2.block_num(), unroll_factor=2):
        r0 = (w // col_blocks) * tile
        c0 = (w % col_blocks) * tile
        vr = asc2.number(tile, asc2.int32)
        if rows - r0 < tile:
            vr = rows - r0
        vc = asc2.number(tile, asc2.int32)
        if cols - c0 < tile:
            vc = cols - c0
        block = asc2.copy_in(x_gm, [r0, c0], [tile, tile], real_shape=[vr, vc], pad_value=0)
        asc2.copy_out(block.transpose(), y_gm, [c0, r0], real_shape=[vc, vr])


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randn(case["shape"], generator=gen, dtype=torch.float32).to(torch.float16),)


def launch(x):
    if x.dim() != 2:
        raise ValueError(f"expected a 2-D tensor, got shape {tuple(x.shape)}")
    rows, cols = x.shape
    y = torch.zeros((cols, rows), dtype=x.dtype)
    row_blocks, col_blocks = -(-rows // TILE), -(-cols // TILE)
    transpose_kernel[min(CORE_NUM, row_blocks * col_blocks)](x.contiguous(), y, rows, cols, row_blocks, col_blocks,
                                                             TILE)
    return y


def reference(x):
    return x.T.contiguous()


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


def test_transpose_float16(backend, platform):
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

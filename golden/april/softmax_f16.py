#!/usr/bin/env python3
"""Golden kernel: softmax over the last axis, float16.

Operation
    y[r, :] = exp(x[r, :] - max(x[r, :])) / sum(exp(x[r, :] - max(x[r, :]))) for a 2-D input
    [rows, cols], with ``asc2.softmax`` applied to tiles of whole rows. The output has the input's
    shape and dtype.

Cell metadata (mirrors capabilities.yaml, softmax/float16/Ascend950PR_9599; do not drift)
    shapes      [32, 4096], [64, 1024].
    tolerance   atol 5e-2, rtol 5e-2.
    regime      full rows in UB: a tile is [group_rows, cols], whole rows only (the normalisation
                needs the entire row, and its length is a compile-time constant); at most
                MAX_TILE_BYTES = 16 KiB of input per tile.
    tail        none along the rows: group_rows divides the row count. The row length must be a
                multiple of 32 bytes (16 float16) -- it is the tile's last dimension.
    partitioning
                rows are grouped into num_rows / group_rows groups, group_rows being the largest
                divisor of the row count that is <= ceil(rows / CORE_NUM) and fits MAX_TILE_BYTES;
                group g (rows g * group_rows onwards) goes to block g % core_num; the loop walks
                the first row itself (``asc2.range(block_idx * group_rows, rows, block_num * group_rows)``),
                which spares a multiply a trip (on Ascend910B1 its code's first fetch costs ~390
                ticks, a tenth of a launch);
                launched on min(CORE_NUM, groups) blocks. [32, 4096] -> 32 groups of 1 row (8 KiB);
                [64, 1024] -> 32 groups of 2 rows (4 KiB).

Non-obvious constraints
    * Do not split a row into column chunks and do not decompose softmax by hand: ``asc2.softmax``
      computes the row max and sum itself and needs the whole row in one tile; the row length
      (``num_cols``) must be an ``asc.ConstExpr[int]``, only the row count may be a runtime value.
    * Loads never cross the last row: group_rows divides the row count (rows beyond a tensor are
      not clipped, only the last dimension is).
    * UB budget (static allocation on C310, 248 KiB): the input tile, the softmax result and the
      library's temporary buffer (twice the tile), each cloned by ``unroll_factor=2`` -> 8 x the
      tile bytes, 128 KiB at the 16 KiB cap.
    * The group loop has no carried dependency (each trip writes its own rows):
      ``unroll_factor=2, parallel=True``.
    * CORE_NUM = 32: the vector (AIV) core count of Ascend950PR_9599.

Tolerance
    5e-2 / 5e-2 is the registry's float16 composed-op tolerance, covering a hardware SoftMax that
    keeps its exponentials and running sum in float16. Computed in float32 and rounded once, the
    result is within half a float16 ulp of the float64 reference (outputs are below 1, so < 2^-12).

Inputs: numpy, seed 2026, uniform in [-5, 5) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np

import asc
import asc.runtime.config as config
import asc2

OP = "softmax"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "64x1024", "shape": [64, 1024]},
]

SEED = 2026
CORE_NUM = 32
ALIGN = 16                  # the row is the tile's last dimension: a multiple of 32 bytes
MAX_TILE_BYTES = 16 * 1024  # input bytes per [group_rows, cols] tile


@asc2.jit(always_compile=True)
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int,
                   num_cols: asc.ConstExpr[int], group_rows: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_cols])
    for row0 in asc2.range(asc2.block_idx() * group_rows, num_rows, asc2.block_num() * group_rows, unroll_factor=2,
                           parallel=True):
        rows = asc2.load(x_gm, [group_rows, num_cols], offsets=[row0, 0])
        asc2.store(asc2.softmax(rows), out_gm, offsets=[row0, 0])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x,)


def _group_rows(num_rows, row_bytes):
    limit = min(asc.ceildiv(num_rows, CORE_NUM), MAX_TILE_BYTES // row_bytes)
    return max(d for d in range(1, limit + 1) if num_rows % d == 0)


def launch(x):
    num_rows, num_cols = x.shape
    row_bytes = num_cols * x.itemsize
    if num_cols % ALIGN or row_bytes > MAX_TILE_BYTES:
        raise ValueError(f"rows of {num_cols} columns must be a multiple of {ALIGN} and fit "
                         f"{MAX_TILE_BYTES} bytes (a whole row is one tile)")
    group_rows = _group_rows(num_rows, row_bytes)
    num_groups = num_rows // group_rows
    out = np.zeros_like(x)
    softmax_kernel[min(CORE_NUM, num_groups)](x, out, num_rows, num_cols, group_rows)
    return out


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


def test_softmax_float16(backend, platform):
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

#!/usr/bin/env python3
"""Golden kernel: row sum over the last axis, float32.

Operation
    out[r] = sum(x[r, :]) for a 2-D input [rows, cols]. Each row is loaded as one [1, tile_cols]
    tile and reduced with ``asc2.reduce_sum`` to a float32 scalar, which is written through a
    [1, OUT_PAD] tile (``asc2.full``) into a padded [rows, OUT_PAD] output; the host keeps column 0.

Cell metadata (mirrors capabilities.yaml, reduce_sum/float32/Ascend950PR_9599; do not drift)
    shapes      [32, 4096], [1, 128], [7, 1000].
    tolerance   atol 1e-2, rtol 1e-3.
    regime      whole row in one UB tile (rows up to MAX_TILE_COLS = 8192 columns).
    tail        the row tile's last dimension must be a multiple of 32 bytes (8 float32), so the
                tile width is the row length rounded up to 8 (a compile-time constant); the load
                clips a last-dimension tail at the tensor edge and fills it with pad_value=0, which
                leaves the sum unchanged. All listed shapes are already aligned (1000 x 4 bytes =
                125 x 32), so no padding happens for them.
    partitioning
                row r goes to block r % core_num (``asc2.range(block_idx, rows, block_num)``),
                launched on min(CORE_NUM, rows) blocks; one row per loop trip.

Non-obvious constraints
    * Output padding: a store must cover at least 32 bytes, so each scalar result is broadcast to
      a [1, OUT_PAD = 8] float32 tile and stored into a [rows, 8] buffer; a scalar store
      (SetValue) from many blocks was also reported to be dropped on some blocks, which a tile store
      avoids.
    * The tile width is an ``asc.ConstExpr[int]`` (a load shape); the tensor shape is runtime.
    * UB budget (static allocation on C310, 248 KiB): a [1, 4096] float32 row is 16 KiB, plus the
      32-byte result tile, each cloned by ``unroll_factor=2`` -> ~32 KiB.
    * The row loop has no carried dependency (each trip writes its own row):
      ``unroll_factor=2, parallel=True``.
    * CORE_NUM = 32: the vector (AIV) core count of Ascend950PR_9599.

Tolerance
    atol 1e-2 / rtol 1e-3 is the registry's float32 row-sum tolerance. A float32 sum of 4096
    values in [-5, 5) (magnitudes up to a few hundred) accumulates rounding errors of order 1e-5
    in any summation order, so the margin absorbs a different reduction order on hardware while
    a dropped or duplicated element (|x| up to 5, typically > 1e-2) still fails.

Inputs: numpy, seed 2026, uniform in [-5, 5) generated as float32.
"""
import argparse
import logging

import numpy as np

import asc
import asc.runtime.config as config
import asc2

OP = "reduce_sum"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-3}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "1x128", "shape": [1, 128]},
    {"id": "7x1000", "shape": [7, 1000]},
]

SEED = 2026
CORE_NUM = 32
OUT_PAD = 8             # 8 x float32 = 32 bytes, the minimum store
ALIGN = 8               # row tiles must be a multiple of 32 bytes = 8 float32
MAX_TILE_COLS = 8192    # a whole row per tile (UB budget)


@asc2.jit(always_compile=True)
def reduce_sum_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int, num_cols: int,
                      tile_cols: asc.ConstExpr[int], out_pad: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, out_pad])
    for r in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2, parallel=True):
        row = asc2.load(x_gm, [1, tile_cols], offsets=[r, 0], pad_value=0)
        s = asc2.reduce_sum(row)
        asc2.store(asc2.full([1, out_pad], s, dtype=asc.float32), out_gm, offsets=[r, 0])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = rng.random(case["shape"], dtype=np.float32) * 10 - 5
    return (x,)


def launch(x):
    num_rows, num_cols = x.shape
    tile_cols = asc.ceildiv(num_cols, ALIGN) * ALIGN
    if tile_cols > MAX_TILE_COLS:
        raise ValueError(f"rows of {num_cols} columns do not fit one UB tile (max {MAX_TILE_COLS})")
    out = np.zeros((num_rows, OUT_PAD), dtype=np.float32)
    reduce_sum_kernel[min(CORE_NUM, num_rows)](x, out, num_rows, num_cols, tile_cols, OUT_PAD)
    return out[:, 0].copy()


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

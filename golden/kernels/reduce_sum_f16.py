#!/usr/bin/env python3
"""Golden kernel: row sum over the last axis, float16 in, float16 out (float32 accumulation).

Operation
    out[r] = sum(x[r, :]) for a 2-D input [rows, cols]. Tiles of tile_rows whole rows are loaded as one
    [tile_rows, tile_cols] copy_in each, widened to float32, reduced along the rows (``reduce_sum(tile, 1)``: a [tile_rows]
    float32 tile, no scalar) and rounded once to float16, and stored with one copy_out of the tile's sums into
    out [rows] (or, where a tile holds one row among several blocks, [rows, OUT_PAD]; the host keeps
    column 0).

Cell metadata (mirrors capabilities.yaml, reduce_sum/float16/Ascend950PR_9599; do not drift)
    shapes      [32, 4096], [1, 128], [7, 1000].
    tolerance   atol 2.0, rtol 5e-2.
    regime      tiles of tile_rows whole rows (tile_cols = cols rounded up to 16, at most MAX_TILE_COLS
                = 8192; at most TILE_ELEMENTS = 8192 a tile, at least two rows when there are two, the
                row tiles spread evenly over the blocks): [32, 4096] -> 16 tiles of 2 rows,
                [7, 1000] -> 4 tiles of 2 rows, [1, 128] -> one tile of one row.
    tail        cols not a multiple of 16: ``real_shape=[tile_rows, cols]`` reads only the rows' columns
                and ``pad_value=0`` fills the tile (zeros add nothing); the last tile's rows past `rows`
                are clipped on load and on store. tests/golden/test_row_tiles.py adds one row, two rows
                of the widest 8192 columns, 33 rows (the last tile holds one row) and 40 widest rows.
    partitioning
                the tile starting at row r goes to block (r / tile_rows) % block_num; the loop walks r
                itself (``range(block_idx * tile_rows, rows, block_num * tile_rows)``), launched on
                min(CORE_NUM, row tiles) blocks.

Non-obvious constraints
    * August 2026 dialect (``global_tensor`` / ``copy_in`` / ``copy_out``, the builtin ``range``).
      ``golden/april/reduce_sum_f16.py`` is the April 2026 kernel this one started from (one row a
      trip, its sum a scalar broadcast into a padded row); its exact August translation is
      ``golden/april/ports/reduce_sum_f16.py``, which tests/golden/test_dialects.py keeps identical to
      it. Tiles of rows need ``real_shape`` (April's load neither clips rows nor reads a row's columns
      into a wider tile), and the scalar sum's V -> S -> V round trip is what they save.
    * The output is [rows]: a tile's sums are one copy_out of tile_rows elements (exactly their bytes).
      A one-element store is a scalar write of a whole 32-byte block, which on the hardware
      overwrites the neighbouring blocks' sums: tiles hold two rows when two fit, and where a tile
      holds one row and several blocks store (rows of more than 4096 columns), the output is
      [rows, OUT_PAD] (OUT_PAD = 16 float16 = 32 bytes).
    * cols and rows are runtime ints; tile_rows and tile_cols are ConstExprs (a copy_in shape).
    * float32 accumulation: summing 4096 float16 values in float16 would lose up to several units
      at these magnitudes; the tile is widened once and the float32 sums are rounded once.
    * UB: a float16 tile of at most 8192 elements (16 KiB) and its float32 copy (32 KiB), each
      cloned by ``unroll_factor=2`` (three copies with a runtime trip count): 144 KiB at most,
      within C220's 192 KiB.
    * The tile loop has no carried dependency (each trip writes its own rows):
      ``unroll_factor=2`` and the default ``gm_barrier=False``.
    * CORE_NUM = 32: the vector (AIV) core count of Ascend950PR_9599.

Tolerance
    atol 2.0 / rtol 5e-2 is the registry's float16 row-sum tolerance, sized for hardware that
    reduces float16 data in float16: the sums here reach a few hundred, where one float16 ulp is
    0.125-0.25, and rounding the partial sums at every level of the reduction tree adds several
    ulps. This golden accumulates in float32 and rounds once, so on an exact engine it agrees with
    the float64 reference to half an ulp of the result.

Inputs: numpy, seed 2026, uniform in [-5, 5) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np

import asc
import asc.runtime.config as config
import asc2

OP = "reduce_sum"
DTYPE = "float16"
TOLERANCE = {"atol": 2.0, "rtol": 5e-2}
CASES = [
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "1x128", "shape": [1, 128]},
    {"id": "7x1000", "shape": [7, 1000]},
]

SEED = 2026
CORE_NUM = 32
OUT_PAD = 16            # 16 x float16 = 32 bytes, the minimum store
ALIGN = 16              # row tiles must be a multiple of 32 bytes = 16 float16
MAX_TILE_COLS = 8192    # a whole row per tile (UB budget)
TILE_ELEMENTS = 8192    # elements a tile of rows


@asc2.jit(always_compile=True)
def reduce_sum_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int,
                      tile_rows: asc2.ConstExpr[int], tile_cols: asc2.ConstExpr[int], out_pad: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [num_rows, num_cols])
    if out_pad == 1:    # compile-time: out is [rows], a tile's sums stored as exactly their bytes
        out_gm = asc2.global_tensor(out_ptr, [num_rows])
    else:               # out is [rows, out_pad]: each sum padded to a 32-byte block
        out_gm = asc2.global_tensor(out_ptr, [num_rows, out_pad])
    for r in range(asc2.block_idx() * tile_rows, num_rows, asc2.block_num() * tile_rows, unroll_factor=2):
        block = asc2.copy_in(x_gm, [r, 0], [tile_rows, tile_cols], real_shape=[tile_rows, num_cols], pad_value=0)
        sums = asc2.reduce_sum(block.to(asc2.float32), 1).to(asc2.float16)
        if out_pad == 1:
            asc2.copy_out(sums, out_gm, [r])
        else:
            asc2.copy_out(sums.reshape(1, 1).broadcast_to(1, out_pad), out_gm, [r, 0])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x,)


def launch(x):
    num_rows, num_cols = x.shape
    tile_cols = asc.ceildiv(num_cols, ALIGN) * ALIGN
    if tile_cols > MAX_TILE_COLS:
        raise ValueError(f"rows of {num_cols} columns do not fit one UB tile (max {MAX_TILE_COLS})")
    tile_rows, row_tiles = row_tiling(num_rows, tile_cols)
    # A tile of one row among several blocks pads its sum: a one-element store is a scalar write of a
    # whole 32-byte block, which on the hardware would overwrite the neighbouring blocks' sums.
    out_pad = OUT_PAD if tile_rows == 1 and row_tiles > 1 else 1
    out = np.zeros((num_rows, out_pad), dtype=np.float16)
    reduce_sum_kernel[min(CORE_NUM, row_tiles)](x, out, num_rows, num_cols, tile_rows, tile_cols, out_pad)
    return out[:, 0].copy()


def row_tiling(rows, tile_cols):
    """(tile_rows, row_tiles): at most TILE_ELEMENTS a tile, the row tiles spread evenly over CORE_NUM, at
    least two rows a tile when two fit (which saves the padded output)."""
    per_core = max(min(rows, 2), asc.ceildiv(rows, CORE_NUM))
    tiles_per_core = asc.ceildiv(per_core, max(1, TILE_ELEMENTS // tile_cols))
    tile_rows = asc.ceildiv(per_core, tiles_per_core)
    return tile_rows, asc.ceildiv(rows, tile_rows)


def reference(x):
    return x.astype(np.float64).sum(axis=1).astype(np.float16)


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


def test_reduce_sum_float16(backend, platform):
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

#!/usr/bin/env python3
"""Golden kernel: one-hot encoding, out[i, c] = (indices[i] == c), int32 indices and output.

Operation
    indices [n] int32 with values in [0, depth) -> out [n, depth] int32 holding 1 at column
    indices[i] of row i and 0 elsewhere (``torch.nn.functional.one_hot``). Two kernels and a host
    dispatcher:

    row    (``one_hot_row_kernel``, n <= CORE_NUM: one row a block) -- block r reads indices[r] as a
           scalar and copies row indices[r] of a host identity matrix [depth, depth] to output row r
           (one DMA in, one out, no vector work).
    tiles  (``one_hot_kernel``, every other n) -- a tile of tile_rows indices is reshaped to a column,
           broadcast against the class-index row, compared, and the mask selects 1 or 0.

Cell metadata (mirrors capabilities.yaml, one_hot/int32/<platform>; do not drift)
    shapes      [1, 16] (n = 1, row), [60000, 8], [100003, 16], [7000, 128] (``full_only``) (tiles);
                the shape is the output's [n, depth].
    tolerance   atol 0, rtol 0 (integers).
    regime      row: one identity row per block. tiles: tile_rows indices per step (a multiple of 8,
                the [tile_rows, depth] tile at most MAX_TILE_ELEMS = 4096 int32: 512 rows at depth 8,
                32 at depth 128): copy_in [tile_rows], reshape [tile_rows, 1], broadcast_to
                [tile_rows, depth], compare with the class row broadcast likewise (once per block),
                where(mask, ones, zeros) (both filled once per block), reshape to [tile_rows * depth]
                and copy_out into the output viewed as a flat [n * depth] tensor.
    tail        60000, 100003 and 7000 are not multiples of tile_rows x CORE_NUM: the last tile holds
                fewer rows; copy_in reads only the valid indices and the flat copy_out writes only the
                elements inside the output (a 2-D store would clip only the last dimension, so the
                output is addressed as 1-D).
    partitioning
                row: row r on block r, launched on n blocks. tiles: tile t goes to block
                t % block_num, launched on min(CORE_NUM, num_tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with the default ``gm_barrier=False``, not unrolled: the
      trip is two vector ops on a 16 KiB tile, and on C220 an unrolled copy's first-run fetch cost more
      (about 3k ticks at 7000 x 128) than its overlap saved; ``reuse_alloc=2`` keeps the tiles of 4096
      int32 within C220's 192 KiB.
    * asc2 has no iota and no scalar write into a tile: the class-index row 0 .. depth-1 (tiles) and
      the identity matrix (row) are host constants. The row kernel is the reference's shape of work
      (Ascend C duplicates 0 and sets one value per row) at the cost of one DMA of the identity row; at
      larger n a DMA per row (or ``gather``, one DMA per index) is far slower than the tiles' compare.
    * depth must be a multiple of 8 (a [*, depth] int32 tile row is a multiple of 32 bytes) and at
      most 256 (UB: the int32 temporaries of the compare and select).
    * Indices outside [0, depth) give an all-zero row in the tiles kernel and an out-of-bounds error in
      the row kernel (torch raises); the host validates.
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    Exact: the output is integers.

Inputs: torch CPU tensors, seed 2026, indices uniform in [0, depth).
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

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
MAX_TILE_ELEMS = 4096   # int32 elements per [tile_rows, depth] tile (16 KiB)
MAX_DEPTH = 256
CORE_NUM = 32


@asc2.jit(always_compile=True, reuse_alloc=2)
def one_hot_kernel(idx_ptr: asc2.GlobalAddress, classes_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                   n: int, num_tiles: int, depth: asc2.ConstExpr[int], tile_rows: asc2.ConstExpr[int]):
    idx_gm = asc2.global_tensor(idx_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n * depth])
    classes = asc2.copy_in(asc2.global_tensor(classes_ptr, [1, depth]), [0, 0], [1, depth])
    classes = classes.broadcast_to(tile_rows, depth)
    ones = asc2.full([tile_rows, depth], 1, dtype=asc2.int32)
    zeros = asc2.full([tile_rows, depth], 0, dtype=asc2.int32)
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num()):
        row0 = t * tile_rows
        idx = asc2.copy_in(idx_gm, [row0], [tile_rows]).reshape(tile_rows, 1).broadcast_to(tile_rows, depth)
        hot = asc2.where(asc2.equal(idx, classes), ones, zeros)
        asc2.copy_out(hot.reshape(tile_rows * depth), out_gm, [row0 * depth])


@asc2.jit(always_compile=True)
def one_hot_row_kernel(idx_ptr: asc2.GlobalAddress, eye_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                       n: int, depth: asc2.ConstExpr[int]):
    # the views, the block index and the scalar read of row r's index are one run of scalar instructions
    out_gm = asc2.global_tensor(out_ptr, [n, depth])
    eye_gm = asc2.global_tensor(eye_ptr, [depth, depth])
    r = asc2.block_idx()
    k = asc2.copy_in(asc2.global_tensor(idx_ptr, [n]), [r])
    asc2.copy_out(asc2.copy_in(eye_gm, [k, 0], [1, depth]), out_gm, [r, 0])


def make_inputs(case):
    n, depth = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randint(0, depth, (n,), generator=gen, dtype=torch.int32), depth)


def tile_rows_for(depth):
    """Indices per step: a multiple of 8 (a 32-byte int32 index tile), the tile at most MAX_TILE_ELEMS."""
    return max(8, MAX_TILE_ELEMS // depth // 8 * 8)


def select_kernel(n):
    """The dispatcher: "row" when every block gets one row (one DMA of an identity row), else "tiles"."""
    return "row" if 0 < n <= CORE_NUM else "tiles"


def launch(indices, depth):
    if depth % 8 or not 0 < depth <= MAX_DEPTH:
        raise ValueError(f"depth must be a multiple of 8 in 8..{MAX_DEPTH}, got {depth}")
    if indices.numel() and (int(indices.min()) < 0 or int(indices.max()) >= depth):
        raise ValueError(f"indices must lie in [0, {depth})")
    n = indices.numel()
    out = torch.zeros((n, depth), dtype=torch.int32)
    if select_kernel(n) == "row":
        one_hot_row_kernel[n](indices.contiguous(), torch.eye(depth, dtype=torch.int32), out, n, depth)
        return out
    classes = torch.arange(depth, dtype=torch.int32).reshape(1, depth)
    tile_rows = tile_rows_for(depth)
    num_tiles = -(-n // tile_rows)
    one_hot_kernel[min(CORE_NUM, num_tiles)](indices.contiguous(), classes, out, n, num_tiles, depth, tile_rows)
    return out


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

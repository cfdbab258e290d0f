#!/usr/bin/env python3
"""Golden kernel: one-hot encoding, out[i, c] = (indices[i] == c), int32 indices and output.

Operation
    indices [n] int32 with values in [0, depth) -> out [n, depth] int32 holding 1 at column
    indices[i] of row i and 0 elsewhere (``torch.nn.functional.one_hot``). A tile of tile_rows
    indices is reshaped to a column, broadcast against the class-index row, compared, and the
    mask selects 1 or 0.

Cell metadata (mirrors capabilities.yaml, one_hot/int32/<platform>; do not drift)
    shapes      [1, 16] (n = 1), [60000, 8], [100003, 16], [7000, 128] (``full_only``); the shape is
                the output's [n, depth].
    tolerance   atol 0, rtol 0 (integers).
    regime      tile_rows indices per step (64 for depth <= 16, down to 8 so that a [tile_rows, depth]
                tile stays near 4 KiB): copy_in [tile_rows], reshape [tile_rows, 1], broadcast_to
                [tile_rows, depth], compare with the class row broadcast likewise, where(mask, 1, 0),
                reshape to [tile_rows * depth] and copy_out into the output viewed as a flat [n * depth]
                tensor.
    tail        60000 and 100003 are not multiples of tile_rows x CORE_NUM: the last tile holds
                fewer rows; copy_in reads only the valid indices and the flat copy_out writes
                only the elements inside the output (a 2-D store would clip only the last dimension,
                so the output is addressed as 1-D).
    partitioning
                tile t goes to block t % block_num, launched on min(CORE_NUM, num_tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=2``, default ``gm_barrier=False``.
    * asc2 has no iota: the class-index row 0 .. depth-1 is a host constant passed as a [1, depth]
      int32 tensor and loaded once per block.
    * depth must be a multiple of 8 (a [*, depth] int32 tile row is a multiple of 32 bytes) and at
      most 256 (UB: the int32 temporaries of the compare and select).
    * Indices outside [0, depth) give an all-zero row (torch raises instead); the host validates.
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
MAX_TILE_ELEMS = 1024   # int32 elements per [tile_rows, depth] tile (4 KiB)
MAX_DEPTH = 256
CORE_NUM = 32


@asc2.jit(always_compile=True)
def one_hot_kernel(idx_ptr: asc2.GlobalAddress, classes_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                   n: int, num_tiles: int, depth: asc2.ConstExpr[int], tile_rows: asc2.ConstExpr[int]):
    idx_gm = asc2.global_tensor(idx_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n * depth])
    classes = asc2.copy_in(asc2.global_tensor(classes_ptr, [1, depth]), [0, 0], [1, depth])
    classes = classes.broadcast_to(tile_rows, depth)
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2):
        row0 = t * tile_rows
        idx = asc2.copy_in(idx_gm, [row0], [tile_rows]).reshape(tile_rows, 1).broadcast_to(tile_rows, depth)
        hot = asc2.where(asc2.equal(idx, classes), asc2.full([tile_rows, depth], 1, dtype=asc2.int32),
                         asc2.full([tile_rows, depth], 0, dtype=asc2.int32))
        asc2.copy_out(hot.reshape(tile_rows * depth), out_gm, [row0 * depth])


def make_inputs(case):
    n, depth = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randint(0, depth, (n,), generator=gen, dtype=torch.int32), depth)


def tile_rows_for(depth):
    """Indices per step: a multiple of 8 (a 32-byte int32 index tile), at most 64, tile <= 4 KiB."""
    return max(8, min(64, MAX_TILE_ELEMS // depth) // 8 * 8)


def launch(indices, depth):
    if depth % 8 or not 0 < depth <= MAX_DEPTH:
        raise ValueError(f"depth must be a multiple of 8 in 8..{MAX_DEPTH}, got {depth}")
    if indices.numel() and (int(indices.min()) < 0 or int(indices.max()) >= depth):
        raise ValueError(f"indices must lie in [0, {depth})")
    n = indices.numel()
    classes = torch.arange(depth, dtype=torch.int32).reshape(1, depth)
    out = torch.zeros((n, depth), dtype=torch.int32)
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

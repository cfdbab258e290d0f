#!/usr/bin/env python3
"""Golden kernel: in-place add, x += y, float16.

Operation
    x and y float16 of one shape; the kernel writes x + y back into x's own buffer (the kernel's
    first argument is both read and written). ``launch`` works on a copy of x, so the caller's
    tensor is untouched, and returns that updated copy.

Cell metadata (mirrors capabilities.yaml, add_inplace/float16/<platform>; do not drift)
    shapes      [1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128] (``full_only``), flat views.
    tolerance   atol 1e-3, rtol 1e-3.
    regime      1-D tiling, tiles of tile_size(n) elements (n spread evenly over the blocks in whole
                512-byte bursts, MIN_TILE to MAX_TILE): two copy_in, one add, one copy_out
                into the tile's own source window.
    tail        60000 and 100003 are not multiples of the tile x CORE_NUM: partial last tile.
    partitioning
                tile t goes to block t % block_num, launched on min(CORE_NUM, num_tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=2``, default ``gm_barrier=False``:
      each trip reads and then overwrites only its own window of x, so no trip (and no other block)
      reads what another one writes and the overlap is safe without a barrier.
    * One global tensor serves as source and destination; nothing is allocated for the output.
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    float16 addition rounds once (half an ulp, 2^-11 relative); 1e-3 / 1e-3 is the registry's float16
    elementwise tolerance.

Inputs: torch CPU tensors, seed 2026, x, y ~ U[-5, 5) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

OP = "add_inplace"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
MAX_TILE = 8192         # elements a tile: 16 KiB of the widest dtype
TILE_ALIGN = 256        # elements of a 512-byte DMA burst (Ascend910B1)
MIN_TILE = 1024
CORE_NUM = 32


@asc2.jit(always_compile=True)
def add_inplace_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                       tile_size: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2):
        offset = t * tile_size
        x = asc2.copy_in(x_gm, [offset], [tile_size])
        y = asc2.copy_in(y_gm, [offset], [tile_size])
        asc2.copy_out(x + y, x_gm, [offset])


def tile_size(n):
    """Elements a tile: the n elements spread evenly over CORE_NUM blocks in whole DMA bursts, each block
    walking as few tiles of at most MAX_TILE as it can (at least MIN_TILE a tile: below that, another
    block costs more than it saves)."""
    per_block = -(-n // (CORE_NUM * MAX_TILE))
    tile = -(-n // (CORE_NUM * per_block * TILE_ALIGN)) * TILE_ALIGN
    return min(MAX_TILE, max(MIN_TILE, tile))


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    x = (torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 10 - 5).to(torch.float16)
    y = (torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 10 - 5).to(torch.float16)
    return (x, y)


def add_inplace_(x, y):
    """x += y on the device, in place; x must be contiguous."""
    if x.shape != y.shape:
        raise ValueError(f"x {tuple(x.shape)} and y {tuple(y.shape)} differ in shape")
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel writes into its buffer")
    tile = tile_size(x.numel())
    num_tiles = -(-x.numel() // tile)
    add_inplace_kernel[min(CORE_NUM, num_tiles)](x, y.contiguous(), x.numel(), num_tiles, tile)
    return x


def launch(x, y):
    return add_inplace_(x.clone(), y)


def reference(x, y):
    return x + y


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


def test_add_inplace_float16(backend, platform):
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

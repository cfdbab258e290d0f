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
    tail        60000 and 100003 are not multiples of the tile x cores: partial last tile.
    partitioning
                tile t goes to block t % block_num, launched on min(cores, num_tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=unroll`` (``UNROLL``: 2 on
      Ascend950PR_9599; 1 on Ascend910B1, whose unrolled copies run in turn, each fetched cold on its first
      run), default ``gm_barrier=False``: each trip reads and then overwrites only its own window of x, so
      no trip (and no other block) reads what another one writes and the overlap is safe without a barrier.
    * One global tensor serves as source and destination; nothing is allocated for the output.
    * cores = every vector (AIV) core of the selected platform (``core_num()``: 48 on Ascend910B1, 32 on
      Ascend950PR_9599); a kernel without cube ops runs AIV_ONLY, one block a vector core.

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
from asc.lib.runtime import get_soc_version
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
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asc2.jit(always_compile=True)
def add_inplace_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                       tile_size: asc2.ConstExpr[int], unroll: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    y_gm = asc2.global_tensor(y_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asc2.copy_in(x_gm, [offset], [tile_size])
        y = asc2.copy_in(y_gm, [offset], [tile_size])
        asc2.copy_out(x + y, x_gm, [offset])


def core_num():
    """Blocks a launch takes: every vector core of the selected platform (the kernel has no cube op, so it runs
    AIV_ONLY, one block a vector core). pyasc names the platform (get_soc_version) but has no core count short
    of the device runtime (its PlatformAscendC binding has no methods), hence the table."""
    soc = get_soc_version().value
    if soc not in AIV_CORES:
        raise ValueError(f"no vector core count for {soc}: add it to AIV_CORES (known: {', '.join(AIV_CORES)})")
    return AIV_CORES[soc]


def unroll_factor():
    """Copies of the tile loop's body: on C220 (Ascend910B1) the unrolled copies run one after another, each
    fetched into the cold instruction cache on its first run, so one copy is cheaper; C310's overlap."""
    return UNROLL[get_soc_version().value]


def tile_size(n, cores):
    """Elements a tile: the n elements spread evenly over `cores` blocks in whole DMA bursts, each block
    walking as few tiles of at most MAX_TILE as it can (at least MIN_TILE a tile: below that, another
    block costs more than it saves)."""
    per_block = -(-n // (cores * MAX_TILE))
    tile = -(-n // (cores * per_block * TILE_ALIGN)) * TILE_ALIGN
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
    cores = core_num()
    tile = tile_size(x.numel(), cores)
    num_tiles = -(-x.numel() // tile)
    add_inplace_kernel[min(cores, num_tiles)](x, y.contiguous(), x.numel(), num_tiles, tile, unroll_factor())
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

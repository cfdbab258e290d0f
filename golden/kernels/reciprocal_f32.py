#!/usr/bin/env python3
"""Golden kernel: elementwise reciprocal, y = 1 / x, float32.

Operation
    y = 1 / x on a flat view of x, computed as ``asc2.full_like(x, 1.0) / x`` (asc2 tiles have no
    reflected operators, so ``1.0 / x`` does not trace); y has x's shape and dtype.

Cell metadata (mirrors capabilities.yaml, reciprocal/float32/<platform>; do not drift)
    shapes      [1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128] (``full_only``), flat views.
    tolerance   atol 1e-6, rtol 1e-6.
    regime      1-D tiling, tiles of tile_size(n) elements (n spread evenly over the blocks in whole
                512-byte bursts, MIN_TILE to MAX_TILE) per copy_in / copy_out.
    tail        60000 and 100003 are not multiples of the tile x cores: partial last tile.
    partitioning
                tile t goes to block t % block_num, launched on min(cores, num_tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=unroll`` (``UNROLL``: 2 on
      Ascend950PR_9599; 1 on Ascend910B1, whose unrolled copies run in turn, each fetched cold on its first
      run), default ``gm_barrier=False``.
    * The ones tile is created once per trip with ``full_like`` (a vector duplicate); a scalar on the
      left of ``/`` would need ``Tile.__rtruediv__``, which pyasc does not define.
    * Inputs are kept away from zero (|x| >= 0.25) so that the reference is finite everywhere.
    * cores = every vector (AIV) core of the selected platform (``core_num()``: 48 on Ascend910B1, 32 on
      Ascend950PR_9599); a kernel without cube ops runs AIV_ONLY, one block a vector core.

Tolerance
    One IEEE division is correctly rounded (half an ulp, 2^-24 relative); 1e-6 relative leaves room
    for a hardware reciprocal refined by one Newton step, as vector units implement it.

Inputs: torch CPU tensors, seed 2026: sign * U[0.25, 4.25) in float32.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
from asc.lib.runtime import get_soc_version
import asc2

OP = "reciprocal"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-6}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
MAX_TILE = 4096         # elements a tile: 16 KiB of the widest dtype
TILE_ALIGN = 128        # elements of a 512-byte DMA burst (Ascend910B1)
MIN_TILE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asc2.jit(always_compile=True)
def reciprocal_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                      tile_size: asc2.ConstExpr[int], unroll: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asc2.copy_in(x_gm, [offset], [tile_size])
        asc2.copy_out(asc2.full_like(x, 1.0) / x, out_gm, [offset])


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
    magnitude = torch.rand(case["shape"], generator=gen, dtype=torch.float32) * 4 + 0.25
    sign = torch.where(torch.rand(case["shape"], generator=gen) < 0.5, -1.0, 1.0)
    return (magnitude * sign,)


def launch(x):
    x = x.contiguous()
    out = torch.zeros_like(x)
    cores = core_num()
    tile = tile_size(x.numel(), cores)
    num_tiles = -(-x.numel() // tile)
    reciprocal_kernel[min(cores, num_tiles)](x, out, x.numel(), num_tiles, tile, unroll_factor())
    return out


def reference(x):
    return torch.reciprocal(x)


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


def test_reciprocal_float32(backend, platform):
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

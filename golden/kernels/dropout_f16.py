#!/usr/bin/env python3
"""Golden kernel: dropout apply with a dense mask, out = x * mask / keep_prob, float16.

Operation
    x and mask have the same shape, both float16; mask holds 0 or 1 (a dense mask, one element per
    input element, not bit-packed). out = x * mask * (1 / keep_prob), with keep_prob a runtime
    float32 argument; out has x's shape and dtype. Arithmetic in float32, one final rounding.

Cell metadata (mirrors capabilities.yaml, dropout/float16/<platform>; do not drift)
    shapes      [1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128] (``full_only``), flat views.
    tolerance   atol 1e-3, rtol 1e-3.
    regime      1-D tiling, tiles of tile_size(n) elements (n spread evenly over the blocks in whole
                512-byte bursts, MIN_TILE to MAX_TILE): two copy_in (x, mask), two
                multiplies, one copy_out per tile.
    tail        60000 and 100003 are not multiples of the tile x cores: the last tile is partial
                (copy_in reads and copy_out writes only elements inside the tensors).
    partitioning
                tile t goes to block t % block_num, launched on min(cores, num_tiles) blocks.
    reference   aclnnDropoutDoMask (ops-math, bit-packed mask) at [32, 4096] on Ascend950PR_9599:
                5040 camodel ticks.

Non-obvious constraints
    * August 2026 dialect; the tile loop is the builtin ``range`` with ``unroll_factor=unroll`` (``UNROLL``:
      2 on Ascend950PR_9599; 1 on Ascend910B1, whose unrolled copies run in turn, each fetched cold on its
      first run), and the default ``gm_barrier=False`` (trips are independent).
    * 1 / keep_prob is computed on the host and passed as a runtime float32 scalar (the kernel
      multiplies; the reference divides, which is the same value for keep_prob = 0.8 up to float32
      rounding of 1.25, which is exact).
    * ``reuse_alloc=2``: tiles no longer read lend their UB to later ones (pyasc-dev's
      ReuseTensorAllocation), which lets the float32 temporaries of larger tiles fit.
    * cores = every vector (AIV) core of the selected platform (``core_num()``: 48 on Ascend910B1, 32 on
      Ascend950PR_9599); a kernel without cube ops runs AIV_ONLY, one block a vector core.

Tolerance
    x * mask is exact; one multiply by 1.25 in float32 and one rounding to float16 keep the error
    within half a float16 ulp (2^-11 relative), inside 1e-3 + 1e-3 * |out|.

Inputs: torch CPU tensors, seed 2026: x ~ N(0, 2^2) and mask = (U[0, 1) < keep_prob), generated as
float32 and cast to float16; keep_prob = 0.8.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
from asc.lib.runtime import get_soc_version
import asc2

OP = "dropout"
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
KEEP_PROB = 0.8
MAX_TILE = 8192         # elements a tile (UB: reuse_alloc=2 shares the float32 temporaries)
TILE_ALIGN = 256        # elements of a 512-byte DMA burst (Ascend910B1)
MIN_TILE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop


@asc2.jit(always_compile=True, reuse_alloc=2)
def dropout_kernel(x_ptr: asc2.GlobalAddress, mask_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress,
                   size: int, num_tiles: int, scale: float, tile_size: asc2.ConstExpr[int],
                   unroll: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    mask_gm = asc2.global_tensor(mask_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        x = asc2.copy_in(x_gm, [offset], [tile_size]).to(asc2.float32)
        mask = asc2.copy_in(mask_gm, [offset], [tile_size]).to(asc2.float32)
        asc2.copy_out((x * mask * scale).to(asc2.float16), out_gm, [offset])


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
    x = (torch.randn(case["shape"], generator=gen, dtype=torch.float32) * 2).to(torch.float16)
    mask = (torch.rand(case["shape"], generator=gen, dtype=torch.float32) < KEEP_PROB).to(torch.float16)
    return (x, mask, KEEP_PROB)


def launch(x, mask, keep_prob):
    if x.shape != mask.shape:
        raise ValueError(f"x {tuple(x.shape)} and mask {tuple(mask.shape)} differ in shape")
    if not 0.0 < keep_prob <= 1.0:
        raise ValueError(f"keep_prob must be in (0, 1], got {keep_prob}")
    x, mask = x.contiguous(), mask.contiguous()
    out = torch.zeros_like(x)
    cores = core_num()
    tile = tile_size(x.numel(), cores)
    num_tiles = -(-x.numel() // tile)
    dropout_kernel[min(cores, num_tiles)](x, mask, out, x.numel(), num_tiles, float(1.0 / keep_prob), tile,
                                          unroll_factor())
    return out


def reference(x, mask, keep_prob):
    return (x.to(torch.float32) * mask.to(torch.float32) / keep_prob).to(torch.float16)


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


def test_dropout_float16(backend, platform):
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

#!/usr/bin/env python3
"""Golden kernel: dtype conversion on the vector unit, cell float16 (float32 -> float16 and float16 -> float32).

Operation
    y = x.to(dst) elementwise on a flat view; each case names its source and destination dtype.
    One kernel per destination dtype (``Tile.to`` takes the dtype as a compile-time value); the
    source dtype comes from the input tensor.

Cell metadata (mirrors capabilities.yaml, cast/float16/<platform>; do not drift)
    shapes      [1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128] (``full_only``); the
                case ids name the direction.
    tolerance   atol 0, rtol 0.
    regime      1-D tiling, tiles of tile_size(n) elements (n spread evenly over the blocks in whole
                512-byte bursts, MIN_TILE to MAX_TILE): copy_in, one cast, copy_out.
    tail        60000 and 100003 are not multiples of the tile x cores: partial last tile.
    partitioning
                tile t goes to block t % block_num, launched on min(cores, num_tiles) blocks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=unroll`` (``UNROLL``: 2 on
      Ascend950PR_9599; 1 on Ascend910B1, whose unrolled copies run in turn, each fetched cold on its first
      run), default ``gm_barrier=False``.
    * The GM tensors have different element types on the two sides; the 2048-element tile is a
      multiple of the 32-byte DMA block for every dtype here (4 or 8 KiB).
    * cores = every vector (AIV) core of the selected platform (``core_num()``: 48 on Ascend910B1, 32 on
      Ascend950PR_9599); a kernel without cube ops runs AIV_ONLY, one block a vector core.

Tolerance
    Exact. float16 -> float32 is exact; float32 -> float16 rounds to nearest, ties to even, which is
    what torch does, so the outputs must be equal bit for bit (the float32 inputs carry more
    precision than float16, so every element is rounded).

Inputs: torch CPU tensors, seed 2026: N(0, 2^2) in float32, cast to the case's source dtype (values
stay inside float16's range: how an overflowing cast saturates is not pinned here).
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
from asc.lib.runtime import get_soc_version
import asc2

OP = "cast"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x128_f16_to_f32", "shape": [1, 128], "src": "float16", "dst": "float32"},
    {"id": "2500x24_f32_to_f16", "shape": [2500, 24], "src": "float32", "dst": "float16"},
    {"id": "32x4096_f32_to_f16", "shape": [32, 4096], "src": "float32", "dst": "float16"},
    {"id": "100003_f16_to_f32", "shape": [100003], "src": "float16", "dst": "float32"},
    {"id": "7000x1x128_f32_to_f16", "shape": [7000, 1, 128], "src": "float32", "dst": "float16", "full_only": True},
]

SEED = 2026
MAX_TILE = 4096         # elements a tile: 16 KiB of the widest dtype
TILE_ALIGN = 256        # elements of a 512-byte DMA burst (Ascend910B1)
MIN_TILE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform
UNROLL = {"Ascend910B1": 1, "Ascend950PR_9599": 2}         # unroll_factor of the tile loop
TORCH_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}


@asc2.jit(always_compile=True)
def cast_to_float16_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                           tile_size: asc2.ConstExpr[int], unroll: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        asc2.copy_out(asc2.copy_in(x_gm, [offset], [tile_size]).to(asc2.float16), out_gm, [offset])


@asc2.jit(always_compile=True)
def cast_to_bfloat16_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                            tile_size: asc2.ConstExpr[int], unroll: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        asc2.copy_out(asc2.copy_in(x_gm, [offset], [tile_size]).to(asc2.bfloat16), out_gm, [offset])


@asc2.jit(always_compile=True)
def cast_to_float32_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, num_tiles: int,
                           tile_size: asc2.ConstExpr[int], unroll: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=unroll):
        offset = t * tile_size
        asc2.copy_out(asc2.copy_in(x_gm, [offset], [tile_size]).to(asc2.float32), out_gm, [offset])


KERNELS = {"float16": cast_to_float16_kernel, "bfloat16": cast_to_bfloat16_kernel, "float32": cast_to_float32_kernel}


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
    x = torch.randn(case["shape"], generator=gen, dtype=torch.float32) * 2
    # the destination dtype travels as an empty tensor of that dtype (inputs are tensors and numbers)
    return (x.to(TORCH_DTYPES[case["src"]]), torch.empty(0, dtype=TORCH_DTYPES[case["dst"]]))


def launch(x, like):
    x = x.contiguous()
    out = torch.zeros(x.shape, dtype=like.dtype)
    cores = core_num()
    tile = tile_size(x.numel(), cores)
    num_tiles = -(-x.numel() // tile)
    KERNELS[str(like.dtype).removeprefix("torch.")][min(cores, num_tiles)](x, out, x.numel(), num_tiles,
                                                                            tile, unroll_factor())
    return out


def reference(x, like):
    return x.to(like.dtype)


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


def test_cast_float16(backend, platform):
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

#!/usr/bin/env python3
"""Golden kernel: GELU, tanh form, float32.

Operation
    gelu(x) = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), computed as
    ``inner = (x + x * x * x * GELU_C) * GELU_K`` and ``x * (asc2.tanh(inner) + 1) * 0.5`` on a
    flat view of the input, all in float32. The output has the input's shape and dtype.

Cell metadata (mirrors capabilities.yaml, gelu/float32/Ascend950PR_9599; do not drift)
    shapes      [1, 128], [4, 2048], [32, 4096], [100003] -- each treated as a flat vector of
                128, 8192, 131072 and 100003 elements.
    tolerance   atol 1e-2, rtol 1e-2.
    regime      1-D tiling: TILE_SIZE = 1024 float32 elements (4 KiB) per load / store.
    tail        100003 is prime, so the last tile is partial: the 1-D load reads only the elements
                inside the tensor (padding the rest of the tile with zeros, whose GELU is 0) and the
                1-D store writes only the valid elements.
    partitioning
                tile t goes to block t % core_num (block-strided ``asc2.range`` over the tile index),
                launched on min(CORE_NUM, num_tiles) blocks, so every block owns at least one tile and
                no block issues an empty DMA.

Non-obvious constraints
    * tanh form, not erf: the CANN simulator's float32 ``asc2.erf`` was measured up to ~4.7 off
      ``math.erf`` (flaky even at atol 2), so this cell uses the tanh approximation (cell known issue).
    * GELU_K = sqrt(2/pi) and GELU_C = 0.044715 are module-level constants: ``math.sqrt`` cannot be
      called inside a kernel ("Unsupported function referenced").
    * Tiles on the left of every operator (``x * x * x * GELU_C``, ``... * GELU_K``): asc2 tiles have
      no reflected operators (``GELU_K * inner`` fails with "no attribute '__rmul__'").
    * Tile width: the reference golden pinned TILE_SIZE = 64 because a 128-element tile wrote only
      its first 64 lanes on one C310 CANN simulator build (cell known issue). That is a simulator
      defect, not a property of the operation; this golden uses a 4 KiB tile so each DMA moves 16
      blocks instead of one vector (64 elements). On a simulator build with that defect this cell
      fails, which is what the known issue records; the golden does not work around it.
    * UB budget (static allocation on C310, 248 KiB): ten float32 tiles (input, eight
      intermediates, result) of 4 KiB, each cloned once by ``unroll_factor=2`` -> 80 KiB.
    * Empty tiles: the seed's "tile_per_block" layout gives trailing blocks tiles that start past
      the end of small inputs; on the C310 CANN simulator such empty DMAs were reported to fail the
      MTE burst alignment check. The block-strided loop and the clamped core count avoid them.
    * The tile loop has no carried dependency (disjoint tiles): ``unroll_factor=2, parallel=True``.
    * CORE_NUM = 32: the vector (AIV) core count of Ascend950PR_9599.

Tolerance
    1e-2 / 1e-2 is the registry's float32 composed-op tolerance. The reference is the same tanh form
    in float64, and a float32 evaluation agrees with it to a few float32 ulps; the margin covers a
    hardware tanh built from exp / division (library approximation) and is also wide enough that
    the tanh form stays within it of the exact erf GELU (they differ by at most 4.7e-4 on [-5, 5]).

Inputs: numpy, seed 2026, uniform in [-5, 5) generated as float32.
"""
import argparse
import logging
import math

import numpy as np

import asc
import asc.runtime.config as config
import asc2

OP = "gelu"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "4x2048", "shape": [4, 2048]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
]

SEED = 2026
TILE_SIZE = 1024
CORE_NUM = 32
GELU_K = math.sqrt(2.0 / math.pi)
GELU_C = 0.044715


@asc2.jit(always_compile=True)
def gelu_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, num_tiles: int,
                tile_size: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2, parallel=True):
        offset = t * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[offset])
        inner = (x + x * x * x * GELU_C) * GELU_K
        y = x * (asc2.tanh(inner) + 1.0) * 0.5
        asc2.store(y, out_gm, offsets=[offset])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = rng.random(case["shape"], dtype=np.float32) * 10 - 5
    return (x,)


def launch(x):
    out = np.zeros_like(x)
    num_tiles = asc.ceildiv(x.size, TILE_SIZE)
    gelu_kernel[min(CORE_NUM, num_tiles)](x, out, x.size, num_tiles, TILE_SIZE)
    return out


def reference(x):
    x64 = x.astype(np.float64)
    return (0.5 * x64 * (1.0 + np.tanh(GELU_K * (x64 + GELU_C * x64 ** 3)))).astype(np.float32)


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


def test_gelu_float32(backend, platform):
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

#!/usr/bin/env python3
"""Golden kernel: GELU, exact (erf) form, gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))), float16.

Operation
    The input tile is widened to float32, ``x * (asc2.erf(x * SQRT_HALF) + 1) * 0.5`` is computed
    in float32 and the result is rounded once to float16. The output has the input's shape and dtype.

Cell metadata (mirrors capabilities.yaml, gelu/float16/Ascend950PR_9599; do not drift)
    shapes      [1, 128], [4, 2048], [32, 4096], [100003] -- each treated as a flat vector of
                128, 8192, 131072 and 100003 elements.
    tolerance   atol 5e-2, rtol 5e-2.
    regime      1-D tiling: TILE_SIZE = 2048 float16 elements (4 KiB) per load / store; the float32
                intermediates are 8 KiB tiles.
    tail        100003 is prime, so the last tile is partial: the 1-D load reads only the elements
                inside the tensor (padding the rest of the tile with zeros, whose GELU is 0) and the
                1-D store writes only the valid elements.
    partitioning
                tile t goes to block t % core_num (block-strided ``asc2.range`` over the tile index),
                launched on min(CORE_NUM, num_tiles) blocks, so every block owns at least one tile and
                no block issues an empty DMA.

Non-obvious constraints
    * SQRT_HALF is a module-level constant: ``math.sqrt`` cannot be called inside a kernel
      ("Unsupported function referenced"), while plain numbers from module scope can be used.
    * Scalars on the right of every operator (``x * SQRT_HALF``, ``... + 1.0``, ``... * 0.5``):
      asc2 tiles have no reflected operators.
    * float32 compute: erf on float16 tiles loses most of its few significant bits near the
      saturation region; widening once with ``.to(asc.float32)`` costs one cast each way.
    * UB budget (static allocation on C310, 248 KiB): the float16 in / out tiles (4 KiB) plus six
      float32 intermediates (8 KiB), each cloned once by ``unroll_factor=2`` -> 2 x 56 KiB = 112 KiB.
      A 4096-element tile would need 224 KiB, too close to the budget for no measurable gain.
    * Empty tiles: the seed's "tile_per_block" layout gives trailing blocks tiles that start past
      the end of small inputs; on the C310 CANN simulator such empty DMAs were reported to fail the
      MTE burst alignment check. The block-strided loop and the clamped core count avoid them.
    * The tile loop has no carried dependency (disjoint tiles): ``unroll_factor=2, parallel=True``.
    * CORE_NUM = 32: the vector (AIV) core count of Ascend950PR_9599.

Tolerance
    5e-2 / 5e-2 is the registry's float16 composed-op tolerance. It is set by the CANN simulator's
    ``asc2.erf``, which was measured to be accurate to only about 5e-2 on float16 data (see the
    cell's known issue); a correct float32 erf followed by one rounding to float16 is within half a
    float16 ulp (<= 2^-8 for |y| < 5) of the float64 reference.

Inputs: numpy, seed 2026, uniform in [-5, 5) generated as float32 and cast to float16. The host
reference uses ``math.erf`` (numpy has no erf) in float64, rounded to float16.
"""
import argparse
import logging
import math

import numpy as np

import asc
import asc.runtime.config as config
import asc2

OP = "gelu"
DTYPE = "float16"
TOLERANCE = {"atol": 5e-2, "rtol": 5e-2}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "4x2048", "shape": [4, 2048]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
]

SEED = 2026
TILE_SIZE = 2048
CORE_NUM = 32
SQRT_HALF = math.sqrt(0.5)


@asc2.jit(always_compile=True)
def gelu_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, num_tiles: int,
                tile_size: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2, parallel=True):
        offset = t * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[offset]).to(asc.float32)
        y = x * (asc2.erf(x * SQRT_HALF) + 1.0) * 0.5
        asc2.store(y.to(asc.float16), out_gm, offsets=[offset])


def make_inputs(case):
    rng = np.random.default_rng(SEED)
    x = (rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16)
    return (x,)


def launch(x):
    out = np.zeros_like(x)
    num_tiles = asc.ceildiv(x.size, TILE_SIZE)
    gelu_kernel[min(CORE_NUM, num_tiles)](x, out, x.size, num_tiles, TILE_SIZE)
    return out


_verf = np.vectorize(math.erf, otypes=[np.float64])


def reference(x):
    x64 = x.astype(np.float64)
    return (0.5 * x64 * (1.0 + _verf(x64 * SQRT_HALF))).astype(np.float16)


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


def test_gelu_float16(backend, platform):
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

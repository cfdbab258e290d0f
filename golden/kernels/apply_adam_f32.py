#!/usr/bin/env python3
"""Golden kernel: one Adam optimiser step, in place on param, m and v, float32.

Operation
    For param, m, v, grad of one shape (float32) and step t >= 1:
        m     <- m + (1 - beta1) * (grad - m)
        v     <- v + (1 - beta2) * (grad * grad - v)
        param <- param - lr_t * m / (sqrt(v) + eps),   lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)
    (the ApplyAdam formulation of CANN's ops-nn). The kernel overwrites param, m and v in their own
    buffers. lr_t and the two (1 - beta) factors are computed on the host in float64 and passed as
    runtime float32 scalars, like the beta powers ApplyAdam receives.

Cell metadata (mirrors capabilities.yaml, apply_adam/float32/<platform>; do not drift)
    shapes      [1, 128], [2500, 24], [32, 4096], [100003], [7000, 1, 128] (``full_only``), flat views.
    tolerance   atol 1e-6, rtol 1e-5.
    regime      1-D tiling, tiles of tile_size(n) elements (n spread evenly over the blocks in whole
                512-byte bursts, MIN_TILE to MAX_TILE): four copy_in, about twelve
                vector ops (including sqrt and a division), three copy_out into the source windows.
    tail        60000 and 100003 are not multiples of the tile x cores: partial last tile.
    partitioning
                tile t goes to block t % block_num, launched on min(cores, num_tiles) blocks.
    reference   aclnnApplyAdam (ops-nn, SIMT micro-API) at [32, 4096] on Ascend950PR_9599: 8170
                camodel ticks.

Non-obvious constraints
    * August 2026 dialect; builtin ``range`` with ``unroll_factor=2``, default ``gm_barrier=False``:
      each trip reads and rewrites only its own window of param / m / v.
    * In place: ``launch`` clones param, m and v, runs the kernel on the clones and returns them
      (param, m, v), so the caller's tensors are untouched.
    * UB: 4 input tiles and ~8 float32 temporaries of 4 KiB, doubled by the unroll (~96 KiB), fits
      C220's 192 KiB; 2048-element tiles would not leave C220 enough room once temporaries are
      counted.
    * ``reuse_alloc=2``: tiles no longer read lend their UB to later ones (pyasc-dev's
      ReuseTensorAllocation), which lets the float32 temporaries of larger tiles fit.
    * cores = every vector (AIV) core of the selected platform (``core_num()``: 48 on Ascend910B1, 32 on
      Ascend950PR_9599); a kernel without cube ops runs AIV_ONLY, one block a vector core.

Tolerance
    m and v are a multiply-add away from exact (float32 rounding, ~1e-7 relative); the param update
    adds a sqrt and a division (each correctly rounded) scaled by lr_t = 1e-3-ish, so its error
    relative to param is far below 1e-5; atol 1e-6 covers elements whose value is near zero.

Inputs: torch CPU tensors, seed 2026: param, grad ~ N(0, 1); m ~ N(0, 0.1^2); v ~ U[0, 0.01);
lr 1e-3, beta1 0.9, beta2 0.999, eps 1e-8, step 10.
"""
import argparse
import logging
import math

import numpy as np
import torch

import asc.runtime.config as config
from asc.lib.runtime import get_soc_version
import asc2

OP = "apply_adam"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}
CASES = [
    {"id": "1x128", "shape": [1, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "32x4096", "shape": [32, 4096]},
    {"id": "100003", "shape": [100003]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "full_only": True},
]

SEED = 2026
LR, BETA1, BETA2, EPS, STEP = 1e-3, 0.9, 0.999, 1e-8, 10
MAX_TILE = 2048         # elements a tile: 8 KiB of float32 (seven tiles in flight)
TILE_ALIGN = 128        # elements of a 512-byte DMA burst (Ascend910B1)
MIN_TILE = 1024
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}   # vector (AIV) cores of each platform


@asc2.jit(always_compile=True, reuse_alloc=2)
def apply_adam_kernel(param_ptr: asc2.GlobalAddress, m_ptr: asc2.GlobalAddress, v_ptr: asc2.GlobalAddress,
                      grad_ptr: asc2.GlobalAddress, size: int, num_tiles: int, lr_t: float,
                      one_minus_beta1: float, one_minus_beta2: float, eps: float, tile_size: asc2.ConstExpr[int]):
    param_gm = asc2.global_tensor(param_ptr, [size])
    m_gm = asc2.global_tensor(m_ptr, [size])
    v_gm = asc2.global_tensor(v_ptr, [size])
    grad_gm = asc2.global_tensor(grad_ptr, [size])
    for t in range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2):
        offset = t * tile_size
        param = asc2.copy_in(param_gm, [offset], [tile_size])
        m = asc2.copy_in(m_gm, [offset], [tile_size])
        v = asc2.copy_in(v_gm, [offset], [tile_size])
        grad = asc2.copy_in(grad_gm, [offset], [tile_size])
        m = m + (grad - m) * one_minus_beta1
        v = v + (grad * grad - v) * one_minus_beta2
        param = param - m * lr_t / (asc2.sqrt(v) + eps)
        asc2.copy_out(m, m_gm, [offset])
        asc2.copy_out(v, v_gm, [offset])
        asc2.copy_out(param, param_gm, [offset])


def core_num():
    """Blocks a launch takes: every vector core of the selected platform (the kernel has no cube op, so it runs
    AIV_ONLY, one block a vector core). pyasc names the platform (get_soc_version) but has no core count short
    of the device runtime (its PlatformAscendC binding has no methods), hence the table."""
    soc = get_soc_version().value
    if soc not in AIV_CORES:
        raise ValueError(f"no vector core count for {soc}: add it to AIV_CORES (known: {', '.join(AIV_CORES)})")
    return AIV_CORES[soc]


def tile_size(n, cores):
    """Elements a tile: the n elements spread evenly over `cores` blocks in whole DMA bursts, each block
    walking as few tiles of at most MAX_TILE as it can (at least MIN_TILE a tile: below that, another
    block costs more than it saves)."""
    per_block = -(-n // (cores * MAX_TILE))
    tile = -(-n // (cores * per_block * TILE_ALIGN)) * TILE_ALIGN
    return min(MAX_TILE, max(MIN_TILE, tile))


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    shape = case["shape"]
    param = torch.randn(shape, generator=gen, dtype=torch.float32)
    m = torch.randn(shape, generator=gen, dtype=torch.float32) * 0.1
    v = torch.rand(shape, generator=gen, dtype=torch.float32) * 0.01
    grad = torch.randn(shape, generator=gen, dtype=torch.float32)
    return (param, m, v, grad, LR, BETA1, BETA2, EPS, STEP)


def _lr_t(lr, beta1, beta2, step):
    return lr * math.sqrt(1.0 - beta2 ** step) / (1.0 - beta1 ** step)


def apply_adam_(param, m, v, grad, lr, beta1, beta2, eps, step):
    """One Adam step on the device, updating param, m and v in place (all contiguous, one shape)."""
    if not param.shape == m.shape == v.shape == grad.shape:
        raise ValueError("param, m, v and grad must have one shape")
    if step < 1:
        raise ValueError(f"step counts from 1, got {step}")
    if not (param.is_contiguous() and m.is_contiguous() and v.is_contiguous()):
        raise ValueError("param, m and v must be contiguous: the kernel writes into their buffers")
    cores = core_num()
    tile = tile_size(param.numel(), cores)
    num_tiles = -(-param.numel() // tile)
    apply_adam_kernel[min(cores, num_tiles)](param, m, v, grad.contiguous(), param.numel(), num_tiles,
                                              _lr_t(lr, beta1, beta2, step), 1.0 - beta1, 1.0 - beta2, eps,
                                              tile)
    return param, m, v


def launch(param, m, v, grad, lr, beta1, beta2, eps, step):
    return apply_adam_(param.clone(), m.clone(), v.clone(), grad, lr, beta1, beta2, eps, step)


def reference(param, m, v, grad, lr, beta1, beta2, eps, step):
    m = m + (1.0 - beta1) * (grad - m)
    v = v + (1.0 - beta2) * (grad * grad - v)
    param = param - _lr_t(lr, beta1, beta2, step) * m / (torch.sqrt(v) + eps)
    return (param, m, v)


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


def test_apply_adam_float32(backend, platform):
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

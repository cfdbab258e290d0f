#!/usr/bin/env python3
"""Golden kernel: split along the last axis into three outputs, float16.

Operation
    x [..., cols] (viewed as [rows, cols]) float16 and three section widths s0 + s1 + s2 = cols;
    outputs out_k [..., s_k] = x[..., o_k : o_k + s_k] with o_0 = 0, o_1 = s0, o_2 = s0 + s1 --
    ``torch.split(x, [s0, s1, s2], dim=-1)``. One launch writes all three outputs.

Cell metadata (mirrors capabilities.yaml, split/float16/<platform>; do not drift)
    shapes      [8, 96] -> 32 + 32 + 32; [2500, 24] -> 8 + 8 + 8; [100, 1623] -> 541 + 541 + 541;
                [7000, 1, 128] -> 64 + 32 + 32 (``full_only``).
    tolerance   atol 0, rtol 0 (a copy).
    regime      each section is streamed in 1-D tiles of TILE elements (cols' largest section
                rounded up to 16, at most 1024); one copy_in and one copy_out per tile.
    tail        the row and every output row are their own 1-D global tensors (``x_ptr + r * cols``,
                ``out_k + r * s_k``): a section's last tile may read past its section (inside the
                row) but copy_out writes only the s_k elements of the output row. Sections of 8 or
                541 columns start at offsets that are not 32-byte aligned in global memory.
    partitioning
                row r goes to block r % block_num, launched on min(CORE_NUM, rows) blocks.

Non-obvious constraints
    * August 2026 dialect; every loop is the builtin ``range`` with ``unroll_factor=2`` and the
      default ``gm_barrier=False`` (rows and tiles are independent; nothing is read that this
      launch writes).
    * Section widths and tile counts are runtime ints: one compiled kernel serves every split
      whose widest section rounds to the same tile.
    * CORE_NUM = 32 (AIV cores of Ascend950PR_9599); valid on Ascend910B1.

Tolerance
    Exact: the outputs are copies of the input's elements.

Inputs: torch CPU tensors, seed 2026, N(0, 1) generated as float32 and cast to float16.
"""
import argparse
import logging

import numpy as np
import torch

import asc.runtime.config as config
import asc2

OP = "split"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "8x96", "shape": [8, 96], "sections": [32, 32, 32]},
    {"id": "2500x24", "shape": [2500, 24], "sections": [8, 8, 8]},
    {"id": "100x1623", "shape": [100, 1623], "sections": [541, 541, 541]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "sections": [64, 32, 32], "full_only": True},
]

SEED = 2026
ALIGN = 16
MAX_TILE = 1024
CORE_NUM = 32


@asc2.jit(always_compile=True)
def split3_kernel(x_ptr: asc2.GlobalAddress, o0_ptr: asc2.GlobalAddress, o1_ptr: asc2.GlobalAddress,
                  o2_ptr: asc2.GlobalAddress, num_rows: int, num_cols: int, s0: int, s1: int, s2: int,
                  n0: int, n1: int, n2: int, tile: asc2.ConstExpr[int]):
    for r in range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2):
        x_gm = asc2.global_tensor(x_ptr + r * num_cols, [num_cols])
        o0_gm = asc2.global_tensor(o0_ptr + r * s0, [s0])
        o1_gm = asc2.global_tensor(o1_ptr + r * s1, [s1])
        o2_gm = asc2.global_tensor(o2_ptr + r * s2, [s2])
        for t in range(n0, unroll_factor=2):
            asc2.copy_out(asc2.copy_in(x_gm, [t * tile], [tile]), o0_gm, [t * tile])
        for t in range(n1, unroll_factor=2):
            asc2.copy_out(asc2.copy_in(x_gm, [s0 + t * tile], [tile]), o1_gm, [t * tile])
        for t in range(n2, unroll_factor=2):
            asc2.copy_out(asc2.copy_in(x_gm, [s0 + s1 + t * tile], [tile]), o2_gm, [t * tile])


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    x = torch.randn(case["shape"], generator=gen, dtype=torch.float32).to(torch.float16)
    return (x, list(case["sections"]))


def launch(x, sections):
    num_cols = x.shape[-1]
    if len(sections) != 3 or sum(sections) != num_cols or min(sections) < 1:
        raise ValueError(f"three positive sections summing to {num_cols} expected, got {sections}")
    x = x.contiguous()
    num_rows = x.numel() // num_cols
    tile = min(MAX_TILE, -(-max(sections) // ALIGN) * ALIGN)
    outs = [torch.zeros((*x.shape[:-1], s), dtype=x.dtype) for s in sections]
    counts = [-(-s // tile) for s in sections]
    split3_kernel[min(CORE_NUM, num_rows)](x, *outs, num_rows, num_cols, *sections, *counts, tile)
    return tuple(outs)


def reference(x, sections):
    return tuple(t.contiguous() for t in torch.split(x, sections, dim=-1))


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


def test_split_float16(backend, platform):
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

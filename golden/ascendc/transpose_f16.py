#!/usr/bin/env python3
"""Ascend C reference: 2-D transpose [rows, cols] -> [cols, rows], float16, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/transpose_f16.py`` (same OP, DTYPE, TOLERANCE, CASES, inputs
and host reference), written as an Ascend C author writes a 2-D Transpose of half with the vector unit's
16 x 16 ``Transpose``: the matrix cut into 16 x 16 blocks, each loaded by a strided ``DataCopyPad`` (16 rows
of up to 16 elements, ``cols`` apart in GM, zero-padded to a 32-byte block), transposed, and stored by a
strided ``DataCopyPad`` (up to 16 rows of up to 16 elements, ``rows`` apart in GM).

    host tiling  the blocks (row-major over the block grid) split over the vector cores (the platform's
                 AIV count), a contiguous run a core.
    pipeline     ``TPipe`` with two-deep ``TQue``s (VECIN block, VECOUT block): copy_in / transpose /
                 copy_out per block, the queues ordering MTE2 -> V -> MTE3 and the buffers' reuse.
    edges        a block past the last row is zeroed first (``Duplicate``, then a V -> MTE2 flag before
                 the load), so the transpose reads defined values; only the valid part is stored.
"""
import argparse
import logging

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "transpose"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x16", "shape": [1, 16]},
    {"id": "64x128", "shape": [64, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "100x1623", "shape": [100, 1623]},
    {"id": "7000x128", "shape": [7000, 128], "full_only": True},
]

SEED = 2026
BUFFER_NUM = 2
BLOCK = 16               # the Transpose block: 16 x 16 half elements (512 bytes)
ITEMSIZE = 2


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def transpose_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: int, cols: int, core_blocks: int):
    grid_cols = (cols + BLOCK - 1) // BLOCK
    total = (rows + BLOCK - 1) // BLOCK * grid_cols
    first = asc.get_block_idx() * core_blocks
    my_blocks = total - first
    if my_blocks > core_blocks:
        my_blocks = core_blocks
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    pipe = asc.TPipe()
    in_x = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_y = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_x, BUFFER_NUM, BLOCK * BLOCK * ITEMSIZE)
    pipe.init_buffer(out_y, BUFFER_NUM, BLOCK * BLOCK * ITEMSIZE)
    full = rows * 0 + BLOCK      # BLOCK as a device value: r_valid / c_valid keep one type through the ifs
    for b in range(first, first + my_blocks):
        r0 = b // grid_cols * BLOCK
        c0 = b % grid_cols * BLOCK
        r_valid = rows - r0
        if r_valid > BLOCK:
            r_valid = full
        c_valid = cols - c0
        if c_valid > BLOCK:
            c_valid = full
        copy_in(x_gm, in_x, r0, c0, r_valid, c_valid, cols)
        compute(y_gm, in_x, out_y)
        copy_out(y_gm, out_y, r0, c0, r_valid, c_valid, rows)


@asc.jit
def copy_in(x_gm: asc.GlobalTensor, in_x: asc.TQue, r0: int, c0: int, r_valid: int, c_valid: int, cols: int):
    t = in_x.alloc_tensor(x_gm.dtype)
    if r_valid < BLOCK:
        asc.duplicate(t, 0.0, BLOCK * BLOCK)
        asc.set_flag(asc.HardEvent.V_MTE2, 0)
        asc.wait_flag(asc.HardEvent.V_MTE2, 0)
    asc.data_copy_pad(t, x_gm[r0 * cols + c0:],
                      asc.DataCopyExtParams(r_valid, c_valid * ITEMSIZE, (cols - c_valid) * ITEMSIZE, 0, 0),
                      asc.DataCopyPadExtParams(x_gm.dtype, True, 0, BLOCK - c_valid, 0))
    in_x.enque(t)


@asc.jit
def compute(y_gm: asc.GlobalTensor, in_x: asc.TQue, out_y: asc.TQue):
    t = in_x.deque(y_gm.dtype)
    o = out_y.alloc_tensor(y_gm.dtype)
    asc.transpose(o, t)
    out_y.enque(o)
    in_x.free_tensor(t)


@asc.jit
def copy_out(y_gm: asc.GlobalTensor, out_y: asc.TQue, r0: int, c0: int, r_valid: int, c_valid: int, rows: int):
    o = out_y.deque(y_gm.dtype)
    asc.data_copy_pad(y_gm[c0 * rows + r0:], o,
                      asc.DataCopyExtParams(c_valid, r_valid * ITEMSIZE, 0, (rows - r_valid) * ITEMSIZE, 0))
    out_y.free_tensor(o)


def tiling(rows, cols):
    """(cores, core_blocks): a contiguous run of 16 x 16 blocks a core."""
    total = -(-rows // BLOCK) * -(-cols // BLOCK)
    cores = min(platform_cores(AIV_CORES), total)
    core_blocks = -(-total // cores)
    return -(-total // core_blocks), core_blocks


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randn(case["shape"], generator=gen, dtype=torch.float32).to(torch.float16),)


def launch(x):
    if x.dim() != 2:
        raise ValueError(f"transpose takes a 2-D tensor, got shape {tuple(x.shape)}")
    rows, cols = x.shape
    y = torch.zeros((cols, rows), dtype=x.dtype)
    cores, core_blocks = tiling(rows, cols)
    transpose_kernel[cores](x.contiguous(), y, rows, cols, core_blocks)
    return y


def reference(x):
    return x.T.contiguous()


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


def test_transpose_float16(backend, platform):
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

#!/usr/bin/env python3
"""Ascend C reference: matrix multiply c = a @ b, float16 in, float32 out, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/matmul_f16.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes a matmul operator: the ``Matmul``
high-level API on the cube cores (AIC only, as upstream's tutorial 04) with its tiling computed on the
host by ``MultiCoreMatmulTiling`` over the case's core budget (``core_num``, the cores the golden
uses). Each cube core takes one single-core tile (single_core_m x single_core_n, the whole K), sets
its tail and writes it with ``iterate_all``; the cores past ``used_core_num`` do nothing.
"""
import argparse
import logging
from typing import Tuple

import numpy as np
import torch

import asc
import asc.lib.host as host
import asc.runtime.config as config

OP = "matmul"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [
    {"id": "16x16x16", "shape": [16, 16, 16], "core_num": 1},
    {"id": "32x16x32", "shape": [32, 16, 32], "core_num": 2},
    {"id": "32x32x32", "shape": [32, 32, 32], "core_num": 1},
    {"id": "256x256x256", "shape": [256, 256, 256], "core_num": 16, "full_only": True},
]

SEED = 2026
WORKSPACE_BYTES = 16 * 1024 * 1024   # the Matmul API's GM workspace, as upstream's tutorials pass it


@asc.jit(matmul_cube_only=True)
def matmul_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                  workspace: asc.GlobalAddress):
    if asc.ascend_is_aic():
        offset_a, offset_b, offset_c, tail_m, tail_n = calc_offsets(tiling)
        a_global = asc.GlobalTensor()
        b_global = asc.GlobalTensor()
        c_global = asc.GlobalTensor()
        a_global.set_global_buffer(a + offset_a)
        b_global.set_global_buffer(b + offset_b)
        c_global.set_global_buffer(c + offset_c)
        pipe = asc.TPipe()
        matmul = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_global.dtype),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_global.dtype),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_global.dtype),
        )
        asc.adv.register_matmul(pipe, workspace, matmul, tiling)
        if asc.get_block_idx() < tiling.used_core_num:
            matmul.set_tensor_a(a_global)
            matmul.set_tensor_b(b_global)
            matmul.set_tail(tail_m, tail_n, tiling.k_a)
            matmul.iterate_all(c_global)
            matmul.end()
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def calc_offsets(tiling: asc.adv.TCubeTiling) -> Tuple[int, int, int, int, int]:
    block_idx = asc.get_block_idx()
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    m_index = block_idx % m_blocks
    n_index = block_idx // m_blocks
    offset_a = m_index * tiling.k_a * tiling.single_core_m
    offset_b = n_index * tiling.single_core_n
    offset_c = m_index * tiling.n * tiling.single_core_m + n_index * tiling.single_core_n
    tail_m = tiling.m - m_index * tiling.single_core_m
    if tail_m > tiling.single_core_m:
        tail_m = tiling.single_core_m
    tail_n = tiling.n - n_index * tiling.single_core_n
    if tail_n > tiling.single_core_n:
        tail_n = tiling.single_core_n
    return offset_a, offset_b, offset_c, tail_m, tail_n


def tiling(m, k, n, core_num):
    """The Matmul tiling for a [m, k] x [k, n] float16 product into float32 on at most ``core_num`` cube cores."""
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False)
    t.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_dim(core_num)
    t.set_org_shape(m, n, k)
    t.set_shape(m, n, k)
    t.enable_bias(False)
    t.set_buffer_space(-1, -1, -1)
    result = asc.adv.TCubeTiling()
    t.get_tiling(result)
    return result


def make_inputs(case):
    m, k, n = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    a = torch.rand((m, k), generator=gen, dtype=torch.float32).to(torch.float16)
    b = torch.rand((k, n), generator=gen, dtype=torch.float32).to(torch.float16)
    return (a, b, case["core_num"])


def launch(a, b, core_num):
    m, k = a.shape
    k2, n = b.shape
    if k != k2:
        raise ValueError(f"inner dimensions differ: {tuple(a.shape)} @ {tuple(b.shape)}")
    t = tiling(m, k, n, core_num)
    c = torch.zeros((m, n), dtype=torch.float32)
    workspace = torch.zeros(WORKSPACE_BYTES, dtype=torch.uint8)
    matmul_kernel[t.used_core_num](a.contiguous(), b.contiguous(), c, t, workspace)
    return c


def reference(a, b, core_num):
    return a.to(torch.float32) @ b.to(torch.float32)


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


def test_matmul_float16(backend, platform):
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

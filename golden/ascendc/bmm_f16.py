#!/usr/bin/env python3
"""Ascend C reference: batched matrix multiply c[i] = a[i] @ b[i], float16 in, float32 out, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/bmm_f16.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes a batched matmul: the ``Matmul``
high-level API on the cube cores (AIC only, as upstream's tutorial 04) with the tiling of one batch
computed on the host by ``MultiCoreMatmulTiling`` over the cube cores a batch gets (the platform's AIC
count over the batch, at least one). A work item is one single-core tile of one batch; block b takes
items b, b + blocks, ... and for each sets its operands and tail and writes it with ``iterate_all``.
"""
import argparse
import logging
from typing import Tuple

import numpy as np
import torch

import asc
import asc.lib.host as host
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

OP = "bmm"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [
    {"id": "1x16x32x16", "shape": [1, 16, 32, 16]},
    {"id": "2x32x64x32", "shape": [2, 32, 64, 32]},
    {"id": "3x48x96x48", "shape": [3, 48, 96, 48]},
    {"id": "8x128x512x128", "shape": [8, 128, 512, 128], "full_only": True},
]

SEED = 2026
WORKSPACE_BYTES = 16 * 1024 * 1024   # the Matmul API's GM workspace, as upstream's tutorials pass it


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIC_CORES = {"Ascend910B1": 24, "Ascend950PR_9599": 16}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit(matmul_cube_only=True)
def bmm_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
               workspace: asc.GlobalAddress, batch: int, tiles_per_batch: int):
    if asc.ascend_is_aic():
        a_global = asc.GlobalTensor()
        b_global = asc.GlobalTensor()
        c_global = asc.GlobalTensor()
        a_global.set_global_buffer(a)
        b_global.set_global_buffer(b)
        c_global.set_global_buffer(c)
        pipe = asc.TPipe()
        matmul = asc.adv.Matmul(
            a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, a_global.dtype),
            b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, b_global.dtype),
            c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, c_global.dtype),
        )
        asc.adv.register_matmul(pipe, workspace, matmul, tiling)
        for item in range(asc.get_block_idx(), batch * tiles_per_batch, asc.get_block_num()):
            i = item // tiles_per_batch
            offset_a, offset_b, offset_c, tail_m, tail_n = calc_offsets(tiling, item % tiles_per_batch)
            matmul.set_tensor_a(a_global[i * tiling.m * tiling.k_a + offset_a:])
            matmul.set_tensor_b(b_global[i * tiling.k_b * tiling.n + offset_b:])
            matmul.set_tail(tail_m, tail_n, tiling.k_a)
            matmul.iterate_all(c_global[i * tiling.m * tiling.n + offset_c:])
        matmul.end()
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def calc_offsets(tiling: asc.adv.TCubeTiling, tile: int) -> Tuple[int, int, int, int, int]:
    m_blocks = tiling.m.ceildiv(tiling.single_core_m)
    m_index = tile % m_blocks
    n_index = tile // m_blocks
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
    bsz, m, k, n = case["shape"]
    gen = torch.Generator().manual_seed(SEED)
    a = torch.rand((bsz, m, k), generator=gen, dtype=torch.float32).to(torch.float16)
    b = torch.rand((bsz, k, n), generator=gen, dtype=torch.float32).to(torch.float16)
    return (a, b)


def launch(a, b):
    if a.dim() != 3 or b.dim() != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"expected a [B, M, K] and b [B, K, N], got {tuple(a.shape)} and {tuple(b.shape)}")
    bsz, m, k = a.shape
    n = b.shape[2]
    cores = platform_cores(AIC_CORES)
    t = tiling(m, k, n, max(1, cores // bsz))
    c = torch.zeros((bsz, m, n), dtype=torch.float32)
    workspace = torch.zeros(WORKSPACE_BYTES, dtype=torch.uint8)
    bmm_kernel[min(cores, bsz * t.used_core_num)](a.contiguous(), b.contiguous(), c, t, workspace, bsz,
                                                  t.used_core_num)
    return c


def reference(a, b):
    return torch.bmm(a.to(torch.float32), b.to(torch.float32))


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


def test_bmm_float16(backend, platform):
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

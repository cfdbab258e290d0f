#!/usr/bin/env python3
"""Ascend C reference: one Adam step updating param, m and v in place, float32, in pyasc's v1 API.

The hand-written counterpart of ``golden/kernels/apply_adam_f32.py`` (same OP, DTYPE, TOLERANCE, CASES,
inputs and host reference), written as an Ascend C author writes an elementwise operator:

    host tiling  the elements split into 32-byte units; each vector core (the platform's AIV count,
                 the platform's vector core count, ``AIV_CORES``, at least MIN_CORE_LEN elements each)
                 takes a contiguous run of whole units, walked in tiles of at most MAX_TILE elements,
                 at least two per core so the queues overlap loads, compute and stores.
    pipeline     ``TPipe`` with two-deep ``TQue``s (one VECIN per input, one VECOUT per output) and a
                 VECCALC ``TBuf`` per temporary:
                 copy_in / compute / copy_out per tile, the queues ordering MTE2 -> V -> MTE3 and the
                 buffers' reuse.
    compute      m += (1 - beta1)(g - m), v += (1 - beta2)(g^2 - v), param -= lr_t m / (sqrt(v) + eps),
                 lr_t computed on the host: Sub, Muls, Add, Mul, Sub, Muls, Add, Sqrt, Adds, Div, Muls,
                 Sub.
    tail         without ``DataCopyPad`` a copy moves whole 32-byte blocks, so the last n % ALIGN
                 elements go through one ALIGN-element window ending at the last element (it overlaps
                 the previous tile, whose elements get the same value again). The last core loads that
                 window first, before any store of its own (so the in-place update reads original
                 values), and stores it last after a ``PIPE_MTE3`` barrier (two stores of the same bytes
                 on one DMA pipe must not be in flight together).
"""
import argparse
import logging
import math

import numpy as np
import torch

import asc
from asc.lib.runtime import get_soc_version
import asc.runtime.config as config

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
BUFFER_NUM = 2
MAX_TILE = 2048          # elements per tile
ALIGN = 8               # elements per 32-byte block
MIN_CORE_LEN = 1024      # below this many elements per core another core costs more than it saves
ITEMSIZE = 4


# Cores of each platform: pyasc names the platform (get_soc_version) but binds none of PlatformAscendC's
# queries (GetCoreNumAiv / GetCoreNumAic), so the counts are the host's own table.
AIV_CORES = {"Ascend910B1": 48, "Ascend950PR_9599": 32}


def platform_cores(table):
    soc = get_soc_version().value
    if soc not in table:
        raise ValueError(f"no core count for {soc}: add it to the table (known: {', '.join(table)})")
    return table[soc]


@asc.jit
def apply_adam_kernel(param: asc.GlobalAddress, m: asc.GlobalAddress, v: asc.GlobalAddress, grad: asc.GlobalAddress,
                      core_len: int, aligned_len: int, total_len: int, tile_len: int, lr_t: float,
                      one_minus_beta1: float, one_minus_beta2: float, eps: float):
    start = asc.get_block_idx() * core_len
    length = aligned_len - start
    if length > core_len:
        length = core_len
    param_gm = asc.GlobalTensor()
    m_gm = asc.GlobalTensor()
    v_gm = asc.GlobalTensor()
    grad_gm = asc.GlobalTensor()
    param_gm.set_global_buffer(param)
    m_gm.set_global_buffer(m)
    v_gm.set_global_buffer(v)
    grad_gm.set_global_buffer(grad)
    pipe = asc.TPipe()
    in_param = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_m = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_v = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    in_grad = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    out_p2 = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    out_m2 = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    out_v2 = asc.TQue(asc.TPosition.VECOUT, BUFFER_NUM)
    pipe.init_buffer(in_param, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_m, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_v, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(in_grad, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_p2, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_m2, BUFFER_NUM, tile_len * ITEMSIZE)
    pipe.init_buffer(out_v2, BUFFER_NUM, tile_len * ITEMSIZE)
    tail_param = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_m = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_v = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    tail_grad = asc.TQue(asc.TPosition.VECIN, BUFFER_NUM)
    pipe.init_buffer(tail_param, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_m, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_v, 1, ALIGN * ITEMSIZE)
    pipe.init_buffer(tail_grad, 1, ALIGN * ITEMSIZE)
    calc_t = asc.TBuf(asc.TPosition.VECCALC)
    pipe.init_buffer(calc_t, tile_len * ITEMSIZE)
    has_tail = total_len > aligned_len and start + length == aligned_len
    if has_tail:
        copy_in(param_gm, m_gm, v_gm, grad_gm, tail_param, tail_m, tail_v, tail_grad, total_len - ALIGN, ALIGN)
    tiles = (length + tile_len - 1) // tile_len
    for i in range(tiles):
        count = length - i * tile_len
        if count > tile_len:
            count = tile_len
        copy_in(param_gm, m_gm, v_gm, grad_gm, in_param, in_m, in_v, in_grad, start + i * tile_len, count)
        compute(param_gm, in_param, in_m, in_v, in_grad, out_p2, out_m2, out_v2, calc_t, count, lr_t,
                one_minus_beta1, one_minus_beta2, eps)
        copy_out(param_gm, m_gm, v_gm, out_p2, out_m2, out_v2, start + i * tile_len, count)
    if has_tail:
        asc.pipe_barrier(asc.PipeID.PIPE_MTE3)
        compute(param_gm, tail_param, tail_m, tail_v, tail_grad, out_p2, out_m2, out_v2, calc_t, ALIGN, lr_t,
                one_minus_beta1, one_minus_beta2, eps)
        copy_out(param_gm, m_gm, v_gm, out_p2, out_m2, out_v2, total_len - ALIGN, ALIGN)


@asc.jit
def copy_in(param_gm: asc.GlobalTensor, m_gm: asc.GlobalTensor, v_gm: asc.GlobalTensor, grad_gm: asc.GlobalTensor,
            in_param: asc.TQue, in_m: asc.TQue, in_v: asc.TQue, in_grad: asc.TQue, offset: int, count: int):
    param = in_param.alloc_tensor(param_gm.dtype)
    m = in_m.alloc_tensor(m_gm.dtype)
    v = in_v.alloc_tensor(v_gm.dtype)
    grad = in_grad.alloc_tensor(grad_gm.dtype)
    asc.data_copy(param, param_gm[offset:], count)
    asc.data_copy(m, m_gm[offset:], count)
    asc.data_copy(v, v_gm[offset:], count)
    asc.data_copy(grad, grad_gm[offset:], count)
    in_param.enque(param)
    in_m.enque(m)
    in_v.enque(v)
    in_grad.enque(grad)


@asc.jit
def compute(like: asc.GlobalTensor, in_param: asc.TQue, in_m: asc.TQue, in_v: asc.TQue, in_grad: asc.TQue,
            out_p2: asc.TQue, out_m2: asc.TQue, out_v2: asc.TQue, calc_t: asc.TBuf, count: int, lr_t: float,
            one_minus_beta1: float, one_minus_beta2: float, eps: float):
    dtype = like.dtype
    param = in_param.deque(dtype)
    m = in_m.deque(dtype)
    v = in_v.deque(dtype)
    grad = in_grad.deque(dtype)
    p2 = out_p2.alloc_tensor(dtype)
    m2 = out_m2.alloc_tensor(dtype)
    v2 = out_v2.alloc_tensor(dtype)
    t = calc_t.get(dtype)
    asc.sub(t, grad, m, count)
    asc.muls(t, t, one_minus_beta1, count)
    asc.add(m2, m, t, count)
    asc.mul(t, grad, grad, count)
    asc.sub(t, t, v, count)
    asc.muls(t, t, one_minus_beta2, count)
    asc.add(v2, v, t, count)
    asc.sqrt(t, v2, count)
    asc.adds(t, t, eps, count)
    asc.div(t, m2, t, count)
    asc.muls(t, t, lr_t, count)
    asc.sub(p2, param, t, count)
    out_p2.enque(p2)
    out_m2.enque(m2)
    out_v2.enque(v2)
    in_param.free_tensor(param)
    in_m.free_tensor(m)
    in_v.free_tensor(v)
    in_grad.free_tensor(grad)


@asc.jit
def copy_out(param_gm: asc.GlobalTensor, m_gm: asc.GlobalTensor, v_gm: asc.GlobalTensor, out_p2: asc.TQue,
             out_m2: asc.TQue, out_v2: asc.TQue, offset: int, count: int):
    p2 = out_p2.deque(param_gm.dtype)
    m2 = out_m2.deque(m_gm.dtype)
    v2 = out_v2.deque(v_gm.dtype)
    asc.data_copy(param_gm[offset:], p2, count)
    asc.data_copy(m_gm[offset:], m2, count)
    asc.data_copy(v_gm[offset:], v2, count)
    out_p2.free_tensor(p2)
    out_m2.free_tensor(m2)
    out_v2.free_tensor(v2)


def tiling(total_len):
    """(cores, core_len, aligned_len, tile_len): whole 32-byte units per core, two tiles per core at least."""
    if total_len < ALIGN:
        raise ValueError(f"this kernel needs at least {ALIGN} elements (one 32-byte block), got {total_len}")
    aligned_len = total_len // ALIGN * ALIGN
    units = aligned_len // ALIGN
    cores = min(platform_cores(AIV_CORES), -(-aligned_len // MIN_CORE_LEN))
    core_len = -(-units // cores) * ALIGN
    cores = -(-aligned_len // core_len)
    tile_len = min(MAX_TILE, -(-core_len // (2 * ALIGN)) * ALIGN)
    return cores, core_len, aligned_len, tile_len


def _lr_t(lr, beta1, beta2, step):
    return lr * math.sqrt(1.0 - beta2 ** step) / (1.0 - beta1 ** step)


def make_inputs(case):
    gen = torch.Generator().manual_seed(SEED)
    shape = case["shape"]
    param = torch.randn(shape, generator=gen, dtype=torch.float32)
    m = torch.randn(shape, generator=gen, dtype=torch.float32) * 0.1
    v = torch.rand(shape, generator=gen, dtype=torch.float32) * 0.01
    grad = torch.randn(shape, generator=gen, dtype=torch.float32)
    return (param, m, v, grad, LR, BETA1, BETA2, EPS, STEP)


def launch(param, m, v, grad, lr, beta1, beta2, eps, step):
    if not param.shape == m.shape == v.shape == grad.shape:
        raise ValueError("param, m, v and grad must have one shape")
    if step < 1:
        raise ValueError(f"step counts from 1, got {step}")
    param, m, v = param.clone().contiguous(), m.clone().contiguous(), v.clone().contiguous()
    cores, core_len, aligned_len, tile_len = tiling(param.numel())
    apply_adam_kernel[cores](param, m, v, grad.contiguous(), core_len, aligned_len, param.numel(), tile_len,
                             _lr_t(lr, beta1, beta2, step), 1.0 - beta1, 1.0 - beta2, eps)
    return param, m, v


def reference(param, m, v, grad, lr, beta1, beta2, eps, step):
    m = m + (1.0 - beta1) * (grad - m)
    v = v + (1.0 - beta2) * (grad * grad - v)
    param = param - _lr_t(lr, beta1, beta2, step) * m / (torch.sqrt(v) + eps)
    return (param, m, v)


def run_kernel(backend, platform):
    config.set_platform(backend, platform)
    for case in CASES:
        inputs = make_inputs(case)
        expected = reference(*inputs)
        out = launch(*inputs)
        for got, want in zip(out, expected):
            np.testing.assert_allclose(np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64),
                                       atol=case.get("atol", TOLERANCE["atol"]),
                                       rtol=case.get("rtol", TOLERANCE["rtol"]), err_msg=f"{OP} {DTYPE} case {case['id']}")
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

"""Modelled ticks of reference kernels, asserted by equality against the checked-in table.

Ticks are deterministic, so any change to the tick model (a cost, a platform parameter, the schedule)
shows here. A deliberate model change regenerates the table in the same commit:

    ASC_UPDATE_TICKS_REFERENCE=1 .venv/bin/pytest -q -n 0 tests/compiler/test_ticks_reference.py
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
import torch

import asc
import asc2
import asc.runtime.config as config

from test_tick_model import ktiled_matmul_kernel, row_sum_kernel, unary_kernel

TABLE = Path(__file__).with_name("ticks_reference.json")
PLATFORMS = (config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1)


@asc2.jit
def softmax_rows_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        asc2.store(asc2.softmax(asc2.load(x_gm, [1, cols], offsets=[r, 0])), out_gm, offsets=[r, 0])


@asc2.jit
def rms_norm_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                    cols: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    g_gm = asc2.tensor(g_ptr, [1, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    gamma = asc2.load(g_gm, [1, cols], offsets=[0, 0])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        x = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        inv = 1.0 / asc2.sqrt(asc2.reduce_sum(x * x) / cols + 1e-6)
        asc2.store(x * inv * gamma, out_gm, offsets=[r, 0])


@asc2.jit
def weighted_ops_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                        R: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """One vector-bound block: a call of every op the platform tables weigh (each weight shows in the ticks)."""
    x_gm = asc2.tensor(x_ptr, [R, C])
    out_gm = asc2.tensor(out_ptr, [R, C])
    x = asc2.load(x_gm, [R, C], offsets=[0, 0])
    gamma = asc2.load(asc2.tensor(g_ptr, [1, C]), [1, C], offsets=[0, 0])
    y = asc2.sin(x) + asc2.cos(x) + asc2.tan(x) + asc2.sinh(x) + asc2.cosh(x) + asc2.tanh(x)
    y = y + asc2.exp(x) + asc2.exp2(x) + asc2.log(x) + asc2.log2(x) + asc2.sqrt(x) + asc2.rsqrt(x) + asc2.erf(x)
    y = y + x / (x + 1.0) + asc2.where(x > 0.5, x, 0.0)
    asc2.store(asc2.softmax(y) * asc2.rms_norm(x, gamma, 1e-6), out_gm, offsets=[0, 0])


@asc2.jit
def scalar_gm_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    """Scalar reads and writes of global memory, one element at a time."""
    x_gm = asc2.tensor(x_ptr, [n])
    out_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(n):
        asc2.store(asc2.load(x_gm, offsets=[i]) * 2.0, out_gm, offsets=[i])


@asc2.jit
def matmul_then_vector_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
    """A cube result handed to the vector unit (L0C -> UB), scaled there and stored."""
    a = asc2.load(asc2.tensor(a_ptr, [64, 64]), [64, 64], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [64, 64]), [64, 64], offsets=[0, 0], location=asc2.TileLocation.L0B)
    c = asc2.copy((a @ b).to(asc.float16), location=asc2.TileLocation.UB)
    asc2.store(c * 2.0, asc2.tensor(c_ptr, [64, 64]), offsets=[0, 0])


@asc2.jit
def busy_scalar_read_back_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, f: float):
    """A vector reduction read back while the scalar unit is still busy with a chain of float divisions: the
    scalar unit does not go back in time for it, and its later divisions start after the chain."""
    s = asc2.reduce_sum(asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0]))
    y = f
    for _ in asc.static_range(8):
        y = y / 1.25 + 0.5
    t = asc2.full([64], s, dtype=asc.float32)
    for _ in asc.static_range(4):
        y = y / 2.0 + 1.0
    asc2.store(t * y, asc2.tensor(out_ptr, [64]), offsets=[0])


def _cases():
    n = 32 * 4096
    x = np.linspace(-2, 2, n, dtype=np.float32)
    o = np.zeros_like(x)
    rows = x.reshape(128, 1024)
    g = np.ones(1024, np.float32)
    a = torch.rand((128, 512), dtype=torch.float16)
    b = torch.rand((512, 128), dtype=torch.float16)
    c = torch.zeros((128, 128), dtype=torch.float32)
    out = {}
    for tile, uf, par in ((128, 2, True), (2048, 2, True), (256, 1, False), (256, 1, True), (256, 2, False),
                          (256, 8, True)):
        out[f"unary tile {tile} uf{uf}{' parallel' if par else ''} x16"] = \
            lambda tile=tile, uf=uf, par=par: unary_kernel[16](x, o, n, n // tile, tile, uf, par)
    out["unary tile 256 x40 (two waves on C310)"] = lambda: unary_kernel[40](x, o, n, n // 256, 256, 2, True)
    out["row sum read back [128,1024] x16"] = lambda: row_sum_kernel[16](rows, np.zeros_like(rows), 128, 1024, True)
    out["row sum kept [128,1024] x16"] = lambda: row_sum_kernel[16](rows, np.zeros_like(rows), 128, 1024, False)
    out["softmax rows [128,1024] x16"] = lambda: softmax_rows_kernel[16](rows, np.zeros_like(rows), 128, 1024)
    out["rms_norm [128,1024] x16"] = lambda: rms_norm_kernel[16](rows, g, np.zeros_like(rows), 128, 1024)
    # a tile that fills one and a half vector repeats (384 bytes),
    x96 = np.linspace(-2, 2, 96 * 16, dtype=np.float32)
    out["unary tile 96 (a partial vector repeat) x4"] = \
        lambda: unary_kernel[4](x96, np.zeros_like(x96), x96.size, 16, 96, 2, True)
    # and reductions of 2-byte elements (128 lanes per repeat) in less than one repeat, and of 1-byte ones
    # (256 lanes) in one and a quarter
    h = np.linspace(-1, 1, 64 * 64, dtype=np.float16).reshape(64, 64)
    out["row sum read back float16 [64,64] x4"] = lambda: row_sum_kernel[4](h, np.zeros_like(h), 64, 64, True)
    i8 = (np.arange(32 * 320) % 7 - 3).astype(np.int8).reshape(32, 320)
    out["row sum kept int8 [32,320] x4"] = lambda: row_sum_kernel[4](i8, np.zeros_like(i8), 32, 320, False)
    w = np.linspace(0.1, 0.9, 2 * 256, dtype=np.float32).reshape(2, 256)
    out["every weighted vector op [2,256] x1"] = \
        lambda: weighted_ops_kernel[1](w, np.ones((1, 256), np.float32), np.zeros_like(w), 2, 256)
    s16 = np.arange(16, dtype=np.float32)
    out["scalar GM reads and writes x16 x1"] = lambda: scalar_gm_kernel[1](s16, np.zeros_like(s16), 16)
    m64 = torch.rand((64, 64), dtype=torch.float16)
    out["matmul 64x64x64 then a vector op x1"] = \
        lambda: matmul_then_vector_kernel[1](m64, m64, torch.zeros((64, 64), dtype=torch.float16))
    s64 = np.linspace(-1, 1, 64, dtype=np.float32)
    out["a vector result read back by a busy scalar unit x1"] = \
        lambda: busy_scalar_read_back_kernel[1](s64, np.zeros_like(s64), 3.0)
    for stage in (False, True):
        out[f"matmul 128x512x128 K-tiled{' L1-staged' if stage else ''} x4"] = \
            lambda stage=stage: ktiled_matmul_kernel[4](a, b, c, 128, 512, 128, 64, 128, 64, stage)
    return out


def _modelled():
    got = {}
    for platform in PLATFORMS:
        config.set_platform(config.Backend.Model, platform)
        for name, fn in _cases().items():
            fn()
            got[f"{platform.value}: {name}"] = asc.runtime.last_launch_report()["ticks"]
    return got


def test_reference_kernels_keep_their_modelled_ticks():
    got = _modelled()
    if os.environ.get("ASC_UPDATE_TICKS_REFERENCE"):
        tmp = TABLE.with_suffix(".tmp")
        tmp.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, TABLE)
        pytest.skip("reference table rewritten")
    want = json.loads(TABLE.read_text())
    assert got == want

"""The seed's proven kernel patterns, unmodified, against numpy / torch references (Tier 0/1/2, softmax,
the two-kernel RMSNorm with its host dispatcher)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

import asc
import asc2
import asc.runtime.config as config
from asc.sim.executor import KernelRuntimeError

from kernel_checks import assert_reported

TILE_SIZE = 128
CORE_NUM = 16
OUT_PAD = 8
GELU_C = 0.044715
GELU_K = math.sqrt(2.0 / math.pi)


@asc2.jit(always_compile=True)
def abs_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
               size: int, tile_size: asc.ConstExpr[int],
               tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        tile_offset = base_offset + i * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[tile_offset])
        out = asc2.abs(x)
        asc2.store(out, out_gm, offsets=[tile_offset])


@asc2.jit(always_compile=True)
def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
               size: int, tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        tile_offset = base_offset + i * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[tile_offset])
        y = asc2.load(y_gm, [tile_size], offsets=[tile_offset])
        asc2.store(x + y, out_gm, offsets=[tile_offset])


@asc2.jit(always_compile=True)
def gelu_erf_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                    size: int, tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        tile_offset = base_offset + i * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[tile_offset])
        k = asc2.sqrt(0.5)
        out = x * (asc2.erf(x * k) + 1) * 0.5
        asc2.store(out, out_gm, offsets=[tile_offset])


@asc2.jit(always_compile=True)
def gelu_tanh_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                     size: int, tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        tile_offset = base_offset + i * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[tile_offset])
        inner = (x + x * x * x * GELU_C) * GELU_K
        out = x * (asc2.tanh(inner) + 1) * 0.5
        asc2.store(out, out_gm, offsets=[tile_offset])


@asc2.jit(always_compile=True)
def leaky_relu_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, alpha: float,
                      tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        tile_offset = base_offset + i * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[tile_offset])
        out = asc2.where(x >= 0, x, x * alpha)
        asc2.store(out, out_gm, offsets=[tile_offset])


def _tpb(size):
    return asc.ceildiv(asc.ceildiv(size, TILE_SIZE), CORE_NUM)


def _data(size, dtype, seed=2026):
    rng = np.random.default_rng(seed=seed)
    return (rng.random(size, dtype=np.float32) * 10 - 5).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("size", [8192, 6100])   # 6100: 48 tiles, 3 per block, the last one partial
def test_tier0_abs_and_add(dtype, size):
    x, y = _data(size, dtype), _data(size, dtype, seed=7)
    out = np.zeros_like(x)
    abs_kernel[CORE_NUM](x, out, size, TILE_SIZE, _tpb(size))
    np.testing.assert_array_equal(out, np.abs(x))
    add_kernel[CORE_NUM](x, y, out, size, TILE_SIZE, _tpb(size))
    np.testing.assert_allclose(out, x + y, atol=1e-3, rtol=1e-3)


def test_tile_per_block_pattern_with_tiles_past_the_end_loses_the_output_on_c310():
    # 5000 elements are 40 tiles; 3 tiles per block on 16 blocks gives blocks 13..15 tiles that start past
    # the end of the tensor. Their loads read nothing; their stores get a negative DMA length, which loses the
    # launch's output on the C310 simulator.
    x = _data(5000, np.float32)
    out = np.zeros_like(x)
    with pytest.raises(KernelRuntimeError, match=re.escape(
            "store of a [128] tile to tensor 'out_ptr' (shape [5000]) at offsets [5120] in block 13; [5248] in "
            "block 13; [5376] in block 14; and 5 more lies wholly past the end of the tensor")) as e:
        abs_kernel[CORE_NUM](x, out, x.size, TILE_SIZE, _tpb(x.size))
    assert_reported(e.value, "loses the launch's output", "asc2.store(out, out_gm, offsets=[tile_offset])")
    assert "in block(s) [13, 14, 15] of 16" in str(e.value)


def test_tile_per_block_pattern_with_tiles_past_the_end_runs_on_c220_with_a_warning():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = _data(5000, np.float32)
    out = np.zeros_like(x)
    abs_kernel[CORE_NUM](x, out, x.size, TILE_SIZE, _tpb(x.size))
    np.testing.assert_array_equal(out, np.abs(x))
    (w,) = abs_kernel.last_launch["warnings"]
    assert "in block 13; [5248] in block 13; [5376] in block 14; and 5 more lies wholly past the end" in w
    assert abs_kernel.last_launch["ticks"] > 0


def test_tier2_gelu_erf_form_float16():
    x = _data(8192, np.float16)
    out = np.zeros_like(x)
    gelu_erf_kernel[CORE_NUM](x, out, x.size, TILE_SIZE, _tpb(x.size))
    _verf = np.vectorize(math.erf)
    expected = (0.5 * x * (1.0 + _verf(x.astype(np.float32) / np.sqrt(2.0)))).astype(np.float16)
    np.testing.assert_allclose(out.astype(np.float32), expected.astype(np.float32), atol=5e-2, rtol=5e-2)


def test_tier2_gelu_tanh_form_float32_with_wide_tiles():
    x = _data(8192, np.float32)
    out = np.zeros_like(x)
    gelu_tanh_kernel[CORE_NUM](x, out, x.size, TILE_SIZE, _tpb(x.size))   # 128 lanes: every one written
    k = np.sqrt(2.0 / np.pi)
    expected = 0.5 * x * (1.0 + np.tanh(k * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(out, expected, atol=1e-2, rtol=1e-2)
    np.testing.assert_allclose(out, expected, atol=1e-5, rtol=1e-5)


def test_tier2_leaky_relu_float16():
    x = _data(8192, np.float16)
    out = np.zeros_like(x)
    leaky_relu_kernel[CORE_NUM](x, out, x.size, 0.1, TILE_SIZE, _tpb(x.size))
    alpha = np.float32(np.float16(0.1))      # the scalar takes the tile's dtype first
    expected = np.where(x >= 0, x, (x.astype(np.float32) * alpha).astype(np.float16))
    np.testing.assert_array_equal(out, expected)


@asc2.jit(always_compile=True)
def reduce_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                  num_rows: int, num_cols: asc.ConstExpr[int],
                  out_pad: asc.ConstExpr[int], op: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, out_pad])
    for i in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(),
                        unroll_factor=2, parallel=True):
        row = asc2.load(x_gm, [1, num_cols], offsets=[i, 0])
        s = op(row)
        result = asc2.full([1, out_pad], s, dtype=row.dtype)
        asc2.store(result, out_gm, offsets=[i, 0])


@pytest.mark.parametrize("dtype,pad,tol", [(np.float32, 8, 1e-5), (np.float16, 16, 1e-2)])
@pytest.mark.parametrize("op,ref", [(asc2.reduce_sum, np.sum), (asc2.reduce_max, np.max)])
def test_tier1_row_reductions(op, ref, dtype, pad, tol):
    x = _data(37 * 256, dtype).reshape(37, 256)
    out = np.zeros((37, pad), dtype)
    reduce_kernel[CORE_NUM](x, out, 37, 256, pad, op)
    np.testing.assert_allclose(out[:, 0].astype(np.float32), ref(x.astype(np.float32), axis=1), rtol=tol, atol=tol)
    assert np.all(out == out[:, :1])


@asc2.jit(always_compile=True)
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                   num_rows: int, num_cols: asc.ConstExpr[int],
                   block_size: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_cols])
    start_row = asc2.block_idx() * block_size
    rows = asc2.load(x_gm, [block_size, num_cols], offsets=[start_row, 0])
    out = asc2.softmax(rows)
    asc2.store(out, out_gm, offsets=[start_row, 0])


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float16, 5e-2)])
def test_tier3_softmax(dtype, tol):
    num_rows, num_cols = 64, 256
    x = _data(num_rows * num_cols, dtype).reshape(num_rows, num_cols)
    out = np.zeros_like(x)
    softmax_kernel[CORE_NUM](x, out, num_rows, num_cols, asc.ceildiv(num_rows, CORE_NUM))
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out.astype(np.float64), e / e.sum(axis=1, keepdims=True), atol=tol, rtol=tol)


# -- the two-kernel RMSNorm with its host dispatcher ---------------------------------------------------------------
UB_BUDGET_BYTES = 64 * 1024


@asc2.jit(always_compile=True)
def rms_norm_full_row_kernel(x_ptr, gamma_ptr, out_ptr,
                             num_rows: int,
                             num_cols: asc.ConstExpr[int],
                             epsilon: asc.ConstExpr[float]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    gamma_gm_2d = asc2.tensor(gamma_ptr, [1, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_cols])
    for row in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(),
                          unroll_factor=2, parallel=True):
        x_row = asc2.load(x_gm, [1, num_cols], offsets=[row, 0])
        x_row_f32 = x_row.to(asc.float32)
        sum_sq = asc2.reduce_sum(x_row_f32 * x_row_f32)
        inv_rms = 1.0 / asc2.sqrt(sum_sq / num_cols + epsilon)
        gamma_row = asc2.load(gamma_gm_2d, [1, num_cols], offsets=[0, 0])
        gamma_row_f32 = gamma_row.to(asc.float32)
        out_f32 = x_row_f32 * gamma_row_f32 * inv_rms
        asc2.store(out_f32.to(x_row.dtype), out_gm, offsets=[row, 0])


@asc2.jit(always_compile=True)
def rms_norm_split_d_kernel(x_ptr, gamma_ptr, out_ptr,
                            num_rows: int, num_cols: int, padded_cols: int,
                            num_tiles: int,
                            tile_cols: asc.ConstExpr[int],
                            epsilon: asc.ConstExpr[float]):
    x_gm = asc2.tensor(x_ptr, [num_rows, padded_cols])
    gamma_gm_2d = asc2.tensor(gamma_ptr, [1, padded_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, padded_cols])
    for row in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(),
                          unroll_factor=2, parallel=True):
        zero_seed = asc2.full([1, tile_cols], 0.0, dtype=asc.float32)
        sum_sq = asc2.reduce_sum(zero_seed)
        for tile_id in asc2.range(num_tiles, unroll_factor=2):
            col = tile_id * tile_cols
            x = asc2.load(x_gm, [1, tile_cols], offsets=[row, col])
            x_f32 = x.to(asc.float32)
            sum_sq = sum_sq + asc2.reduce_sum(x_f32 * x_f32)
        inv_rms = 1.0 / asc2.sqrt(sum_sq / num_cols + epsilon)
        for tile_id in asc2.range(num_tiles, unroll_factor=2, parallel=True):
            col = tile_id * tile_cols
            x = asc2.load(x_gm, [1, tile_cols], offsets=[row, col])
            gamma = asc2.load(gamma_gm_2d, [1, tile_cols], offsets=[0, col])
            x_f32 = x.to(asc.float32)
            gamma_f32 = gamma.to(asc.float32)
            out_f32 = x_f32 * gamma_f32 * inv_rms
            asc2.store(out_f32.to(x.dtype), out_gm, offsets=[row, col])


def _full_row_launch(x, gamma, eps, core_num):
    num_rows, num_cols = x.shape
    out = torch.zeros_like(x)
    rms_norm_full_row_kernel[core_num](x, gamma, out, num_rows, num_cols, eps)
    return out


def _split_d_launch(x, gamma, eps, core_num, tile_cols=64):
    num_rows, num_cols = x.shape
    padded_cols = ((num_cols + tile_cols - 1) // tile_cols) * tile_cols
    x_padded = torch.zeros((num_rows, padded_cols), dtype=x.dtype)
    x_padded[:, :num_cols] = x
    gamma_padded = torch.zeros((padded_cols,), dtype=gamma.dtype)
    gamma_padded[:num_cols] = gamma
    out_padded = torch.zeros((num_rows, padded_cols), dtype=x.dtype)
    num_tiles = padded_cols // tile_cols
    rms_norm_split_d_kernel[core_num](x_padded, gamma_padded, out_padded,
                                      num_rows, num_cols, padded_cols,
                                      num_tiles, tile_cols, eps)
    return out_padded[:, :num_cols].clone()


def rms_norm_launch(x, gamma, eps=1e-5, core_num=8):
    num_rows, num_cols = x.shape
    row_bytes = num_cols * x.element_size()
    if row_bytes <= UB_BUDGET_BYTES and num_cols % 8 == 0:
        return _full_row_launch(x, gamma, eps, core_num)
    return _split_d_launch(x, gamma, eps, core_num)


def torch_rms_norm(x, gamma, eps):
    x32 = x.to(torch.float32)
    mean_sq = torch.mean(x32 * x32, dim=-1, keepdim=True)
    return (x32 * torch.rsqrt(mean_sq + eps) * gamma.to(torch.float32)).to(x.dtype)


@pytest.mark.parametrize("dtype,tol_full,tol_split", [(torch.float32, 1e-4, 1e-4), (torch.float16, 2e-2, 5e-2)])
def test_two_kernel_rms_norm(dtype, tol_full, tol_split):
    g = torch.Generator().manual_seed(5)
    x = torch.randn((8, 256), generator=g).to(dtype)
    gamma = torch.rand(256, generator=g).to(dtype) + 0.5
    torch.testing.assert_close(rms_norm_launch(x, gamma), torch_rms_norm(x, gamma, 1e-5), atol=tol_full, rtol=tol_full)
    x = torch.randn((8, 1055), generator=g).to(dtype)     # split_d: padded to 1088 = 17 * 64
    gamma = torch.rand(1055, generator=g).to(dtype) + 0.5
    torch.testing.assert_close(rms_norm_launch(x, gamma), torch_rms_norm(x, gamma, 1e-5), atol=tol_split,
                               rtol=tol_split)

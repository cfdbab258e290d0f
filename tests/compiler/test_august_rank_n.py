"""Global tensors and copy windows of rank 3 and 4 (upstream asctile's front end takes any rank): ragged windows
clamped in every dimension, scalars, transposes with axes, real_shape, and the checks of the 1-D / 2-D paths
(past-the-end stores, a last dimension spilling into the next line, races, coverage)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.runtime import last_launch_report
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


@asctile.jit
def exp_3d(x_ptr, out_ptr, B, M, N: asctile.ConstExpr, TB: asctile.ConstExpr, TM: asctile.ConstExpr):
    x = asctile.global_tensor(x_ptr, [B, M, N])
    o = asctile.global_tensor(out_ptr, [B, M, N])
    for b in range(asctile.block_idx(), asctile.ceildiv(B, TB), asctile.block_num()):
        for m in range(asctile.ceildiv(M, TM)):
            t = asctile.copy_in(x, [b * TB, m * TM, 0], [TB, TM, N])
            asctile.copy_out(asctile.exp(t) + 1.0, o, [b * TB, m * TM, 0])


@pytest.mark.parametrize("B, M", [(4, 8), (5, 7), (1, 1), (3, 9)])
@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_a_ragged_rank3_window_is_clamped_in_every_dimension(B, M, mode):
    x = randn((B, M, 32), np.float32, seed=B * 10 + M)
    out = np.zeros_like(x)
    dims = (asctile.ConstExpr(B), asctile.ConstExpr(M)) if mode == "static" else (B, M)
    exp_3d[3](x, out, *dims, 32, 2, 4)
    np.testing.assert_allclose(out, np.exp(x) + 1, rtol=1e-6)
    assert last_launch_report()["warnings"] == []


@asctile.jit
def transpose_4d(x_ptr, out_ptr, s_ptr, A, B: asctile.ConstExpr, C: asctile.ConstExpr, D: asctile.ConstExpr):
    x = asctile.global_tensor(x_ptr, [A, B, C, D])
    o = asctile.global_tensor(out_ptr, [A, C, B, D])
    s = asctile.global_tensor(s_ptr, [A, 8])
    a = asctile.block_idx()
    if a < A:
        t = asctile.copy_in(x, [a, 0, 0, 0], [1, B, C, D])
        asctile.copy_out(t.transpose(0, 2, 1, 3), o, [a, 0, 0, 0])
        asctile.copy_out(asctile.copy_in(x, [a, B - 1, C - 1, D - 1]), s, [a, 0])   # a scalar of a rank-4 tensor


def test_rank4_windows_transposes_and_scalars():
    A, B, C, D = 3, 4, 2, 16
    x = randn((A, B, C, D), np.float32, seed=4)
    out = np.zeros((A, C, B, D), np.float32)
    s = np.zeros((A, 8), np.float32)
    transpose_4d[4](x, out, s, A, B, C, D)
    np.testing.assert_array_equal(out, x.transpose(0, 2, 1, 3))
    np.testing.assert_array_equal(s[:, 0], x[:, -1, -1, -1])
    out[:] = 0
    transpose_4d[2](x, out, s, A, B, C, D)    # block 2 missing: a third of the output is never written
    (w,) = [w for w in last_launch_report()["warnings"] if w.startswith("'out_ptr'")]
    assert "128 of 384 element(s) were never written by any block (the first uncovered range is [256, 384))" in w


def test_a_scalar_one_past_a_rank3_dimension_reads_zero_with_a_warning():
    @asctile.jit
    def k(x_ptr, out_ptr, c):
        v = asctile.copy_in(asctile.global_tensor(x_ptr, [2, 3, 8]), [1, c, 7])
        asctile.copy_out(v, asctile.global_tensor(out_ptr, [8]), [0])
    x = randn((2, 3, 8), np.float32, seed=5)
    out = np.zeros(8, np.float32)
    k[1](x, out, 2)
    assert out[0] == x[1, 2, 7]
    k[1](x, out, 3)
    assert out[0] == 0
    assert any("past-the-end scalar load of tensor 'x_ptr' (shape [2, 3, 8]) at offsets [1, 3, 7] in block 0" in w
               for w in last_launch_report()["warnings"])


def test_a_rank3_window_wholly_outside_is_padding_and_real_shape_limits_it():
    @asctile.jit
    def k(x_ptr, out_ptr, b, r):
        x = asctile.global_tensor(x_ptr, [2, 4, 16])
        t = asctile.copy_in(x, [b, 1, 0], [1, 4, 16], real_shape=[1, r, 16], pad_value=-1.0)
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [1, 4, 16]), [0, 0, 0])
    x = randn((2, 4, 16), np.float32, seed=6)
    out = np.zeros((1, 4, 16), np.float32)
    k[1](x, out, 1, 2)
    np.testing.assert_array_equal(out[0, :2], x[1, 1:3])
    assert np.all(out[0, 2:] == -1.0)
    k[1](x, out, 1, 4)    # rows 1..4 asked, rows 1..3 inside: the last is padding
    np.testing.assert_array_equal(out[0, :3], x[1, 1:])
    assert np.all(out[0, 3] == -1.0)
    k[1](x, out, 2, 4)    # batch 2 of 2: nothing inside
    assert np.all(out == -1.0)


@asctile.jit
def store_3d(x_ptr, out_ptr, b, c):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 2, 16]), [0, 0, 0], [1, 2, 16])
    asctile.copy_out(t, asctile.global_tensor(out_ptr, [3, 2, 32]), [b, 0, c])


@pytest.mark.parametrize("platform", ["Ascend950PR_9599", "Ascend910B1"])
def test_rank3_stores_past_the_end_are_clipped_in_every_dimension(platform):
    config.set_platform(config.Backend.Model, getattr(config.Platform, platform))
    x = randn((1, 2, 16), np.float32, seed=7)
    out = np.zeros((3, 2, 32), np.float32)
    store_3d[1](x, out, 2, 16)
    np.testing.assert_array_equal(out[2, :, 16:], x[0])
    out[:] = 0
    store_3d[1](x, out, 2, 24)   # 16 columns from 24 of 32: the last 8 are not written (no next-line spill)
    np.testing.assert_array_equal(out[2, :, 24:], x[0, :, :8])
    assert np.count_nonzero(out) == np.count_nonzero(x[0, :, :8])
    before = out.copy()
    store_3d[1](x, out, 3, 0)    # wholly past the end: nothing
    np.testing.assert_array_equal(out, before)
    assert not any("past the end" in w for w in last_launch_report()["warnings"])


def test_two_blocks_storing_one_rank3_window_race():
    @asctile.jit
    def k(x_ptr, out_ptr):
        t = asctile.copy_in(asctile.global_tensor(x_ptr, [2, 2, 16]), [0, 0, 0], [2, 2, 16])
        asctile.copy_out(t + asctile.block_idx().cast(asctile.float32), asctile.global_tensor(out_ptr, [2, 2, 16]),
                         [0, 0, 0])
    with pytest.raises(KernelRuntimeError, match="two blocks write the same elements"):
        k[2](randn((2, 2, 16), np.float32, seed=8), np.zeros((2, 2, 16), np.float32))


def test_offsets_need_one_value_per_dimension():
    @asctile.jit
    def k(x_ptr):
        asctile.copy_in(asctile.global_tensor(x_ptr, [2, 2, 16]), [0, 0], [2, 2, 16])
    with pytest.raises(CodegenError, match=re.escape("'offsets' must have 3 values, got 2")):
        k[1](np.zeros((2, 2, 16), np.float32))


def test_april_kernels_keep_the_rank_limit_of_the_april_lowering():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        x = asc2.tensor(x_ptr, [2, 2, 16])
        asc2.store(asc2.load(x, [2, 2, 16], offsets=[0, 0, 0]), x, offsets=[0, 0, 0])
    with pytest.raises(CodegenError, match="pyasc lowers load/store for tensors of rank <= 2 only"):
        k[1](np.zeros((2, 2, 16), np.float32))

"""The August 2026 dialect (asc2's new names, and asc.experimental.asctile): results against numpy,
rejected forms with pyasc's message and the user's line, the per-kernel generation rule for the loop
barrier, carried values in every loop, and the reuse_alloc / vf_fusion options."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import randn

C220 = config.Platform.Ascend910B1


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


# -- element-wise: the same kernel in three spellings ---------------------------------------------------
@asc2.jit
def abs_april(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, tile: asc.ConstExpr[int],
              tiles_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base = asc2.block_idx() * tile * tiles_per_block
    for i in asc2.range(tiles_per_block, unroll_factor=2, parallel=True):
        off = base + i * tile
        asc2.store(asc2.abs(asc2.load(x_gm, [tile], offsets=[off])), out_gm, offsets=[off])


@asc2.jit
def abs_august(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, size: int, tile: asc2.ConstExpr,
               tiles_per_block: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [size])
    out_gm = asc2.global_tensor(out_ptr, [size])
    base = asc2.block_idx() * tile * tiles_per_block
    for i in range(tiles_per_block, unroll_factor=2):
        off = base + i * tile
        asc2.copy_out(asc2.abs(asc2.copy_in(x_gm, [off], [tile])), out_gm, [off])


@asctile.jit
def abs_asctile(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int,
                tile: asctile.ConstExpr, tiles_per_block: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    base = asctile.block_idx() * tile * tiles_per_block
    for i in range(tiles_per_block, unroll_factor=2):
        off = base + i * tile
        asctile.copy_out(asctile.abs(asctile.copy_in(x_gm, [off], [tile])), out_gm, [off])


@pytest.mark.parametrize("platform", [config.Platform.Ascend950PR_9599, C220])
def test_the_same_kernel_in_both_dialects_gives_the_same_result_and_ticks(platform):
    config.set_platform(config.Backend.Model, platform)
    x = randn(24000, np.float32, seed=3)  # 24 tiles, the last one partial: padded on load, clipped on store
    results, ticks = [], []
    for kernel in (abs_april, abs_august, abs_asctile):
        out = np.full_like(x, 7.0)
        kernel[8](x, out, x.size, 1024, 3)
        results.append(out)
        ticks.append(kernel.last_launch["ticks"])
    for out in results:
        np.testing.assert_array_equal(out, np.abs(x))
    assert ticks[0] == ticks[1] == ticks[2]  # April parallel=True == August default (no barrier)


def test_august_default_has_no_loop_barrier_and_gm_barrier_true_restores_it():
    @asc2.jit
    def april_default(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n * 64])
        o_gm = asc2.tensor(out_ptr, [n * 64])
        for i in asc2.range(n, unroll_factor=2):
            asc2.store(asc2.load(x_gm, [64], offsets=[i * 64]) + 1.0, o_gm, offsets=[i * 64])

    @asc2.jit
    def august_barrier(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
        x_gm = asc2.global_tensor(x_ptr, [n * 64])
        o_gm = asc2.global_tensor(out_ptr, [n * 64])
        for i in asc2.range(n, unroll_factor=2, gm_barrier=True):
            asc2.copy_out(asc2.copy_in(x_gm, [i * 64], [64]) + 1.0, o_gm, [i * 64])

    @asc2.jit
    def august_default(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
        x_gm = asc2.global_tensor(x_ptr, [n * 64])
        o_gm = asc2.global_tensor(out_ptr, [n * 64])
        for i in asc2.range(n, unroll_factor=2):
            asc2.copy_out(asc2.copy_in(x_gm, [i * 64], [64]) + 1.0, o_gm, [i * 64])

    x = randn(8 * 64, np.float32, seed=4)
    ticks = {}
    for k in (april_default, august_barrier, august_default):
        out = np.zeros_like(x)
        k[1](x, out, 8)
        np.testing.assert_array_equal(out, x + 1.0)
        ticks[k.__name__] = k.last_launch["ticks"]
    assert ticks["april_default"] == ticks["august_barrier"]
    assert ticks["august_default"] < ticks["august_barrier"]  # eight loop-end barriers fewer


def test_asc2_global_address_annotation_alone_makes_a_kernel_august():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n * 64])
        o_gm = asc2.tensor(out_ptr, [n * 64])
        for i in asc2.range(n):
            asc2.store(asc2.load(x_gm, [64], offsets=[i * 64]), o_gm, offsets=[i * 64])
    x = randn(4 * 64, np.float32)
    ir = k.ir(x, np.zeros_like(x), 4)
    assert "parallel=True" in ir  # the loop has no loop-end barrier


def test_mixing_parallel_and_gm_barrier_in_one_kernel_is_an_error_at_the_second_loop():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.global_tensor(x_ptr, [n * 64])
        for i in asc2.range(n, parallel=True):
            asc2.copy_out(asc2.copy_in(x_gm, [i * 64], [64]), x_gm, [i * 64])
        for j in asc2.range(n, gm_barrier=True):
            asc2.copy_out(asc2.copy_in(x_gm, [j * 64], [64]), x_gm, [j * 64])
    with pytest.raises(CodegenError, match="a kernel may not mix parallel= and gm_barrier=") as e:
        k[1](np.zeros(128, np.float32), 2)
    assert e.value.line == line_of(k, "gm_barrier=True")
    assert "'parallel' is used at line" in str(e.value)


def test_one_loop_with_both_keywords_is_an_error():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, n: int):
        for i in asc2.range(n, parallel=True, gm_barrier=False):
            pass
    with pytest.raises(CodegenError, match="may not mix parallel= and gm_barrier=") as e:
        k[1](np.zeros(8, np.float32), 2)
    assert e.value.line == line_of(k, "gm_barrier=False")


def test_asctile_range_takes_no_parallel_keyword():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, n: int):
        for i in range(n, parallel=True):
            pass
    with pytest.raises(CodegenError, match="unexpected keyword argument 'parallel'") as e:
        k[1](np.zeros(8, np.float32), 2)
    assert e.value.line == line_of(k, "parallel=True")


# -- carried values in un-barriered loops -------------------------------------------------------------
def test_carried_tile_in_a_gm_barrier_false_loop_is_sequentially_correct_and_not_warned():
    @asc2.jit
    def running(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
        x_gm = asc2.global_tensor(x_ptr, [n, 64])
        o_gm = asc2.global_tensor(out_ptr, [n, 64])
        cache = asc2.zeros([1, 64], dtype=asc2.float32)
        for i in range(n):
            block = asc2.copy_in(x_gm, [i, 0], [1, 64])
            cache = cache * 0.5 + block
            asc2.copy_out(cache, o_gm, [i, 0])
    x = randn((6, 64), np.float32, seed=5)
    out = np.zeros_like(x)
    running[1](x, out, 6)
    expect, c = np.zeros_like(x), np.zeros(64, np.float32)
    for i in range(6):
        c = (c * np.float32(0.5) + x[i]).astype(np.float32)
        expect[i] = c
    np.testing.assert_array_equal(out, expect)
    assert not [w for w in running.last_launch["warnings"] if "carries" in w]


# -- copy_in / copy_out: real_shape, pad_value, scalars ------------------------------------------------
@asc2.jit
def padded_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, cols: asc2.ConstExpr,
                tile_rows: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    o_gm = asc2.global_tensor(out_ptr, [rows, cols])
    for r in range(0, rows, tile_rows):
        left = rows - r
        valid = asc2.number(tile_rows, asc2.int32)
        if left < tile_rows:
            valid = left
        t = asc2.copy_in(x_gm, [r, 0], [tile_rows, cols], real_shape=[valid, cols], pad_value=-3.0)
        asc2.copy_out(t + 1.0, o_gm, [r, 0], real_shape=[valid, cols])


def test_real_shape_pads_the_rows_past_the_tensor_and_limits_the_store():
    x = randn((10, 16), np.float32, seed=6)
    out = np.full_like(x, 99.0)
    padded_tail[1](x, out, 10, 16, 4)  # tiles of 4 rows: the last one has 2 real rows
    np.testing.assert_array_equal(out, x + 1.0)


def test_real_shape_load_pads_with_the_pad_value():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
        x_gm = asc2.global_tensor(x_ptr, [4, 16])
        o_gm = asc2.global_tensor(out_ptr, [4, 16])
        t = asc2.copy_in(x_gm, [0, 0], [4, 16], real_shape=[3, 9], pad_value=-1.5)
        asc2.copy_out(t, o_gm, [0, 0])
    x = randn((4, 16), np.float32, seed=7)
    out = np.zeros_like(x)
    k[1](x, out)
    expect = np.full_like(x, -1.5)
    expect[:3, :9] = x[:3, :9]
    np.testing.assert_array_equal(out, expect)


def test_real_shape_store_writes_only_the_real_part():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, r: int, c: int):
        x_gm = asc2.global_tensor(x_ptr, [4, 16])
        o_gm = asc2.global_tensor(out_ptr, [4, 16])
        asc2.copy_out(asc2.copy_in(x_gm, [0, 0], [4, 16]), o_gm, [0, 0], real_shape=[r, c])
    x = randn((4, 16), np.float32, seed=8)
    out = np.full_like(x, 5.0)
    k[1](x, out, 2, 15)
    expect = np.full_like(x, 5.0)
    expect[:2, :15] = x[:2, :15]
    np.testing.assert_array_equal(out, expect)


def test_real_shape_rows_past_the_tensor_are_clamped_to_it_and_padded():
    # pyasc clamps the copy_in window to the tensor in every dimension: real rows past the last row are padding.
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, r: int):
        x_gm = asc2.global_tensor(x_ptr, [4, 16])
        asc2.copy_out(asc2.copy_in(x_gm, [1, 0], [4, 16], real_shape=[r, 16], pad_value=-2.0),
                      asc2.global_tensor(out_ptr, [4, 16]), [0, 0])
    x = randn((4, 16), np.float32, seed=10)
    for r in (3, 4):  # rows 1..3 are the tensor's last rows; a fourth real row is past the end
        out = np.zeros_like(x)
        k[1](x, out, r)
        expect = np.full_like(x, -2.0)
        expect[:3] = x[1:]
        np.testing.assert_array_equal(out, expect)


def test_real_shape_larger_than_the_tile_is_rejected_at_its_line():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress):
        t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [32], real_shape=[33])
    with pytest.raises(CodegenError, match="exceeds tensor dimension") as e:
        k[1](np.zeros(64, np.float32))
    assert e.value.line == line_of(k, "real_shape=[33]")


def test_scalar_copy_in_and_copy_out():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
        x_gm = asc2.global_tensor(x_ptr, [3, 8])
        o_gm = asc2.global_tensor(out_ptr, [8])
        v = asc2.copy_in(x_gm, [2, 5])
        asc2.copy_out(v * 2.0, o_gm, [7])
        asc2.copy_out(3.0, o_gm, [0])
    x = randn((3, 8), np.float32, seed=9)
    out = np.zeros(8, np.float32)
    k[1](x, out)
    assert out[7] == np.float32(x[2, 5] * 2) and out[0] == 3.0 and not out[1:7].any()


def test_copy_in_needs_a_global_tensor_and_the_hint_speaks_asctile():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        t = asctile.copy_in(x_ptr, [0], [32])
    with pytest.raises(CodegenError, match="'src' argument of copy_in must be a GlobalTensor") as e:
        k[1](np.zeros(64, np.float32))
    assert e.value.line == line_of(k, "copy_in(x_ptr")
    assert "hint: wrap the pointer first: x_gm = asctile.global_tensor(x_ptr, [size])" in str(e.value)


def test_bad_location_hint_names_the_kernels_enum():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress):
        t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [32], 7)
    with pytest.raises(CodegenError, match="'location' must be an asc2.TensorLocation, got 7"):
        k[1](np.zeros(64, np.float32))


# -- the cube path in the August spelling ----------------------------------------------------------------
@asc2.jit
def matmul_august(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, bias_ptr: asc2.GlobalAddress,
                  c_ptr: asc2.GlobalAddress, a_shape: asc2.ConstExpr, b_shape: asc2.ConstExpr,
                  k_tile: asc2.ConstExpr, acc_first: asc2.ConstExpr):
    m, k = a_shape
    n = b_shape[1]
    a_gm = asc2.global_tensor(a_ptr, [m, k])
    b_gm = asc2.global_tensor(b_ptr, [k, n])
    c_gm = asc2.global_tensor(c_ptr, [m, n])
    bias_l1 = asc2.copy_in(asc2.global_tensor(bias_ptr, [n]), [0], [n], asc2.TensorLocation.L1)
    bias = asc2.copy(bias_l1, [0], [n], asc2.TensorLocation.BT)
    acc = asc2.zeros_acc([m, n], asc2.float32, bias=bias)
    for i in range(k // k_tile, unroll_factor=2):
        a_l1 = asc2.copy_in(a_gm, [0, i * k_tile], [m, k_tile], asc2.TensorLocation.L1)
        b_l1 = asc2.copy_in(b_gm, [i * k_tile, 0], [k_tile, n], asc2.TensorLocation.L1)
        a_i = asc2.copy(a_l1, [0, 0], [m, k_tile], asc2.TensorLocation.L0A)
        b_i = asc2.copy(b_l1, [0, 0], [k_tile, n], location="L0B")
        if acc_first:
            asc2.matmul_acc(acc, a_i, b_i)
        else:
            asc2.matmul_acc(a_i, b_i, acc)
    asc2.copy_out(acc, c_gm, [0, 0])


@pytest.mark.parametrize("acc_first", [True, False])
def test_k_tiled_matmul_with_bias_both_argument_orders(acc_first):
    a = randn((32, 128), np.float16, seed=10)
    b = randn((128, 32), np.float16, seed=11)
    bias = randn(32, np.float32, seed=12)
    c = np.zeros((32, 32), np.float32)
    matmul_august[1](a, b, bias, c, a.shape, b.shape, 32, acc_first)
    expect = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(c, expect, rtol=1e-4, atol=1e-3)
    assert not matmul_august.last_launch["warnings"]


def test_matmul_acc_without_an_accumulator_is_rejected_with_pyasc_text():
    @asc2.jit
    def k(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress):
        a = asc2.copy_in(asc2.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asc2.TensorLocation.L0A)
        b = asc2.copy_in(asc2.global_tensor(b_ptr, [16, 16]), [0, 0], [16, 16], asc2.TensorLocation.L0B)
        asc2.matmul_acc(a, b, asc2.matmul(a, b), hf32=False)
    with pytest.raises(CodegenError, match="Incorrect use of accumulator in matmul operation.") as e:
        k[1](np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float16))
    assert e.value.line == line_of(k, "hf32=False")
    assert "asc2.zeros_acc" in str(e.value)


# -- ConstExpr values, zeros / number / static_range, dtypes, runtime bounds -----------------------------
@asc2.jit
def sum_rows(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, shape: asc2.ConstExpr,
             rows: int, cols: asc2.ConstExpr[int]):
    tile_rows, tile_cols = shape
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    o_gm = asc2.global_tensor(out_ptr, [rows, 1 * tile_cols])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        acc = asc2.zeros([1, shape[1]], dtype=asc2.float32)
        for c in asc2.static_range(0, cols // tile_cols):
            acc = acc + asc2.copy_in(x_gm, [r, c * tile_cols], [tile_rows, tile_cols])
        if x_ptr.dtype == asc2.float32:
            acc = acc * asc2.number(2, asc2.float32)
        asc2.copy_out(acc, o_gm, [r, 0])


@pytest.mark.parametrize("shape", [(1, 16), [1, 16]])
def test_constexpr_tuples_static_range_number_and_runtime_loop_bounds(shape):
    x = randn((7, 64), np.float32, seed=13)
    out = np.zeros((7, 16), np.float32)
    sum_rows[3](x, out, shape, 7, 64)
    np.testing.assert_allclose(out, 2 * x.reshape(7, 4, 16).sum(axis=1), rtol=1e-6)


@asc2.jit
def scale_dynamic(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, tile: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [n])
    o_gm = asc2.global_tensor(out_ptr, [n])
    for i in range(asc2.ceildiv(n, tile)):
        asc2.copy_out(asc2.copy_in(x_gm, [i * tile], [tile], pad_value=0.0) * 3.0, o_gm, [i * tile])


@asc2.jit
def scale_static(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: asc2.ConstExpr, tile: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [n])
    o_gm = asc2.global_tensor(out_ptr, [n])
    for i in range(asc2.ceildiv(n, tile)):
        asc2.copy_out(asc2.copy_in(x_gm, [i * tile], [tile], pad_value=0.0) * 3.0, o_gm, [i * tile])


def test_runtime_and_constexpr_lengths_give_the_same_result():
    x = randn(1000, np.float32, seed=14)
    outs = []
    for k in (scale_dynamic, scale_static):
        out = np.zeros_like(x)
        k[1](x, out, x.size, 256)
        outs.append(out)
    np.testing.assert_array_equal(outs[0], x * 3.0)
    np.testing.assert_array_equal(outs[1], x * 3.0)


def test_integer_division_of_runtime_ints_truncates():
    @asc2.jit
    def k(out_ptr: asc2.GlobalAddress, n: int, m: int):
        asc2.copy_out(n / m, asc2.global_tensor(out_ptr, [2]), [0])
        asc2.copy_out(-n / m, asc2.global_tensor(out_ptr, [2]), [1])
    out = np.zeros(2, np.int32)
    k[1](out, 7, 2)
    assert out.tolist() == [3, -3]


# -- options --------------------------------------------------------------------------------------------
def _reuse_kernel(level):
    @asc2.jit(reuse_alloc=level, always_compile=True)
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
        x_gm = asc2.global_tensor(x_ptr, [n * 1024])
        o_gm = asc2.global_tensor(out_ptr, [n * 1024])
        for i in range(n):
            a = asc2.copy_in(x_gm, [i * 1024], [1024])
            b = asc2.exp(a)
            c = asc2.abs(b)
            d = c + 1.0
            asc2.copy_out(d, o_gm, [i * 1024])
    return k


def test_reuse_alloc_levels_shrink_the_ub_plan_and_keep_results():
    x = randn(4 * 1024, np.float32, seed=15)
    peaks = {}
    for level in (0, 1, 2):
        k = _reuse_kernel(level)
        out = np.zeros_like(x)
        k[1](x, out, 4)
        np.testing.assert_allclose(out, np.abs(np.exp(x)) + 1.0, rtol=1e-6)
        peaks[level] = k.last_launch["peak_ub_bytes"]
    # pyasc-dev's compiler counts the same (its memory_consumed for this kernel)
    assert peaks[0] == 4 * 4096          # every tile its own buffer
    assert peaks[1] == peaks[2] == 4096  # exp, abs and + 1.0 each overwrite the tile they read


def test_reuse_alloc_out_of_range_and_vf_fusion_on_c220_are_rejected():
    k = _reuse_kernel(3)
    with pytest.raises(RuntimeError, match="'reuse_alloc' is only allowed to be 0, 1, 2"):
        k[1](np.zeros(1024, np.float32), np.zeros(1024, np.float32), 1)

    @asc2.jit(vf_fusion=True, always_compile=True)
    def v(x_ptr: asc2.GlobalAddress):
        pass
    v[1](np.zeros(8, np.float32))
    config.set_platform(config.Backend.Model, C220)
    with pytest.raises(RuntimeError, match="VF fusion is not supported for the c220 architecture"):
        v[1](np.zeros(8, np.float32))


# -- hints and messages speak the kernel's dialect ------------------------------------------------------
def test_an_august_kernel_hint_names_august_functions():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress):
        t = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64], asc2.TensorLocation.L0A)
        asc2.copy_out(asc2.exp(t), asc2.global_tensor(out_ptr, [64]), [0])
    with pytest.raises(CodegenError, match="asc2.exp expects a tile in UB, got a tile in L0A") as e:
        k[1](np.zeros(64, np.float16), np.zeros(64, np.float16))
    assert "hint: L0A/L0B tiles only feed asc2.matmul" in str(e.value)

    @asctile.jit
    def t(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(a[0], asctile.global_tensor(out_ptr, [64]), [0])
    with pytest.raises(CodegenError, match="'Tile' object is not subscriptable") as e:
        t[1](np.zeros(64, np.float32), np.zeros(64, np.float32))
    assert "hint: tiles cannot be indexed; use asctile.copy_in with offsets" in str(e.value)


def test_an_april_kernel_hint_keeps_april_names():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        a = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(a[0], asc2.tensor(out_ptr, [64]), offsets=[0])
    with pytest.raises(CodegenError, match="'Tile' object is not subscriptable") as e:
        k[1](np.zeros(64, np.float32), np.zeros(64, np.float32))
    assert "hint: tiles cannot be indexed; use asc2.load with offsets" in str(e.value)


def test_no_message_or_hint_hard_codes_a_module_spelling():
    import io
    import tokenize
    from pathlib import Path
    root = Path(asc.__file__).parent
    found = []
    for path in [*(root / "language").rglob("*.py"), *(root / "frontend").rglob("*.py"), *(root / "sim").rglob("*.py")]:
        if path.name == "dialect.py":
            continue
        prev = None
        for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if tok.type == tokenize.STRING:
                docstring = prev is None or prev.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                                                          tokenize.NL)
                if not docstring and re.search(r"(?<![@\w.])(asc2|TileLocation|TensorLocation)\.", tok.string):
                    found.append(f"{path.name}:{tok.start[0]}")
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                prev = tok
    assert found == []

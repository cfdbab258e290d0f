"""Numerics against float64 references, with inputs chosen where a plausible bug shows: accumulation dtype
over long columns, rounding ties and negatives, saturation, epsilon near the mean square, softmax of
large inputs, bfloat16 rounding (docs/simulator.md, Numerics)."""
from __future__ import annotations

import re
import warnings

import ml_dtypes
import numpy as np
import pytest

import asc
import asc2
from asc.frontend.errors import CodegenError

BF16 = ml_dtypes.bfloat16


@asc2.jit
def fn_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, S: asc.ConstExpr, OS: asc.ConstExpr,
              fn: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, S), list(S), offsets=[0] * len(S))
    asc2.store(fn(x), asc2.tensor(out_ptr, OS), offsets=[0] * len(OS))


@asc2.jit
def fn2_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, S: asc.ConstExpr,
               OS: asc.ConstExpr, fn: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, S), list(S), offsets=[0] * len(S))
    y = asc2.load(asc2.tensor(y_ptr, S), list(S), offsets=[0] * len(S))
    asc2.store(fn(x, y), asc2.tensor(out_ptr, OS), offsets=[0] * len(OS))


def run(fn, x, out_shape, out_dtype=None):
    out = np.zeros(out_shape, out_dtype or x.dtype)
    fn_kernel[1](x, out, x.shape, tuple(out_shape), fn)
    return out


def run2(fn, x, y, out_dtype=None):
    out = np.zeros(x.shape, out_dtype or x.dtype)
    fn2_kernel[1](x, y, out, x.shape, x.shape, fn)
    return out


# -- accumulation ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype,tol", [(np.float16, 1e-3), (BF16, 8e-3)], ids=["float16", "bfloat16"])
def test_long_column_sums_match_float64(dtype, tol):
    # 4096 values of ~0.1 per column: accumulating in the narrow type loses whole units (a float16
    # running sum past 256 steps by 0.25), the float32 accumulation the hardware uses does not.
    x = (np.random.default_rng(7).uniform(0.05, 0.15, (4096, 16)).astype(np.float32)).astype(dtype)
    ref = x.astype(np.float64).sum(axis=0)
    out = run(lambda t: asc2.reduce_sum(t, 0), x, (16,))
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=tol)
    full = run(lambda t: asc2.full([16], asc2.reduce_sum(t), dtype=t.dtype), x[:1024], (16,))
    np.testing.assert_allclose(full.astype(np.float64), x[:1024].astype(np.float64).sum(), rtol=tol)


def test_float32_sums_are_float32_accurate():
    x = np.random.default_rng(8).standard_normal((1024, 16)).astype(np.float32) + 100
    np.testing.assert_allclose(run(lambda t: asc2.reduce_sum(t, 0), x, (16,)), x.astype(np.float64).sum(axis=0),
                               rtol=1e-5)


def test_integer_sums_wrap_in_their_type():
    x = np.full((4, 64), 20000, np.int16)              # 80000 per column, 1 280 000 per row... in int16
    out = run(lambda t: asc2.reduce_sum(t, 0), x, (64,))
    np.testing.assert_array_equal(out, np.full(64, np.int16(80000 - 65536)))


# -- float -> int: nearest even, saturation --------------------------------------------------------------------
TIES = [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5, 0.49, -0.51, 1.25, -1.75, 126.5, -126.5, 0.0, -0.0]


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.float16, np.int16), (BF16, np.int16)],
                         ids=["f32-i32", "f16-i16", "bf16-i16"])
def test_float_to_int_rounds_half_to_even_on_both_signs(src, dst):
    x = np.array([TIES * 2], np.float32).astype(src)
    out = run(lambda t: t.to(getattr(asc, np.dtype(dst).name)), x, x.shape, dst)
    np.testing.assert_array_equal(out, np.rint(x.astype(np.float64)).astype(dst))
    assert out[0, :8].tolist() == [0, 2, 2, 4, 0, -2, -2, -4]


@pytest.mark.parametrize("src,dst,big", [(np.float32, np.int32, 3e9), (np.float16, np.int16, 60000.0),
                                         (BF16, np.int16, 1e6)], ids=["f32-i32", "f16-i16", "bf16-i16"])
def test_float_to_int_saturates_at_both_limits(src, dst, big):
    info = np.iinfo(dst)
    vals = [big, -big, np.inf, -np.inf, float(info.max) + 0.0, float(info.min)] + [1.0] * 10
    x = np.array([vals * 2], np.float64).astype(np.float32).astype(src)
    out = run(lambda t: t.to(getattr(asc, np.dtype(dst).name)), x, x.shape, dst)
    expected = np.clip(np.rint(x.astype(np.float64)), info.min, info.max).astype(dst)
    np.testing.assert_array_equal(out, expected)
    assert out[0, 0] == info.max and out[0, 1] == info.min and out[0, 2] == info.max and out[0, 3] == info.min


def test_int_narrowing_wraps():
    x = np.array([[32767, 32768, -32769, 70000, 65535, -1, 128, -129] * 4], np.int32)
    np.testing.assert_array_equal(run(lambda t: t.to(asc.int16), x, x.shape, np.int16), x.astype(np.int16))
    x16 = np.array([[127, 128, -129, 255, 256, -1, 300, -300] * 4], np.int16)
    np.testing.assert_array_equal(run(lambda t: t.to(asc.int8), x16, x16.shape, np.int8), x16.astype(np.int8))


# -- float -> float: round to nearest even, overflow to infinity ---------------------------------------------
def test_float32_to_float16_rounds_ties_to_even_and_overflows_to_inf():
    vals = [2049.0, 2051.0, -2049.0, -2051.0, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 65520.0, 70000.0,
            -70000.0, 65504.0, 6e-8, 2.9e-8, 1e-8, 0.1, 1 / 3, -1 / 3]
    x = np.array([vals * 2], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # overflow is the result, not a warning to the user
        out = run(lambda t: t.to(asc.float16), x, x.shape, np.float16)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, x.astype(np.float16))
    assert out[0, :4].tolist() == [2048.0, 2052.0, -2048.0, -2052.0]
    assert np.isposinf(out[0, 6]) and np.isposinf(out[0, 7]) and np.isneginf(out[0, 8])


def test_float32_to_bfloat16_rounds_ties_to_even():
    vals = [1 + 2 ** -8, 1 + 3 * 2 ** -8, -(1 + 2 ** -8), -(1 + 3 * 2 ** -8), 1 + 2 ** -8 + 2 ** -20,
            3.0e38, 1e-40, 0.1] * 2
    x = np.array([vals * 2], np.float32)
    out = run(lambda t: t.to(asc.bfloat16), x, x.shape, BF16)
    np.testing.assert_array_equal(out.astype(np.float32), x.astype(BF16).astype(np.float32))
    assert out[0, :5].astype(np.float32).tolist() == [1.0, 1 + 2 ** -6, -1.0, -(1 + 2 ** -6), 1 + 2 ** -7]


@pytest.mark.parametrize("op,ref", [("add", np.add), ("mul", np.multiply), ("sub", np.subtract)])
def test_bfloat16_arithmetic_rounds_once_to_nearest_even(op, ref):
    # a + b with b a quarter / three quarters of a bfloat16 step, products near ties: truncation or double
    # rounding through float16 would differ in the last bit.
    a = np.array([[1.0, 1.0, -1.0, 3.0, 1.5, 255.0, 1.0078125, 0.3] * 4], np.float32)
    b = np.array([[2 ** -8, 3 * 2 ** -8, -(2 ** -8), 2 ** -6, 1.0078125, 1.5, 1.0078125, 0.7] * 4], np.float32)
    x, y = a.astype(BF16), b.astype(BF16)
    out = run2(lambda s, t: getattr(s, f"__{op}__")(t), x, y)
    expected = ref(x.astype(np.float64), y.astype(np.float64)).astype(np.float32).astype(BF16)
    np.testing.assert_array_equal(out.astype(np.float32), expected.astype(np.float32))


def test_float16_arithmetic_overflows_to_inf_not_wraps():
    x = np.array([[60000.0, -60000.0, 65504.0, 1.0] * 8], np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = run2(lambda s, t: s + t, x, x)
    assert np.isposinf(out[0, 0]) and np.isneginf(out[0, 1]) and np.isposinf(out[0, 2]) and out[0, 3] == 2


# -- rms_norm -------------------------------------------------------------------------------------------------
@asc2.jit
def rms_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
               R: asc.ConstExpr[int], C: asc.ConstExpr[int], eps: asc.ConstExpr[float]):
    x = asc2.load(asc2.tensor(x_ptr, [R, C]), [R, C], offsets=[0, 0])
    g = asc2.load(asc2.tensor(g_ptr, [1, C]), [1, C], offsets=[0, 0])
    asc2.store(asc2.rms_norm(x, g, eps), asc2.tensor(out_ptr, [R, C]), offsets=[0, 0])


def rms_ref(x, g, eps):
    x = x.astype(np.float64)
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * g.astype(np.float64)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 2e-6), (np.float16, 1e-3)], ids=["float32", "float16"])
def test_rms_norm_with_epsilon_near_the_mean_square(dtype, tol):
    eps = 1e-6
    C = 64
    rng = np.random.default_rng(9)
    rows = [np.full(C, 1e-3), rng.uniform(-1e-3, 1e-3, C), np.full(C, 3e-3), rng.standard_normal(C),
            np.zeros(C), np.full(C, 1e-4), rng.uniform(-2e-3, 2e-3, C), np.full(C, -1e-3)]
    x = np.stack(rows).astype(dtype)
    g = (rng.uniform(0.5, 1.5, (1, C))).astype(dtype)
    out = np.zeros_like(x)
    rms_kernel[1](x, g, out, 8, C, eps)
    eps_t = float(np.asarray(eps, dtype))     # the epsilon is a scalar of the input's dtype
    ref = rms_ref(x, g, eps_t)
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=tol, atol=tol * 1e-2)
    # The first row has mean square ~ eps: the result is x / sqrt(ms + eps) * g, not x / (sqrt(ms) + eps).
    x0 = x[0].astype(np.float64)
    np.testing.assert_allclose(out[0].astype(np.float64), x0 / np.sqrt(np.mean(x0 * x0) + eps_t) * g[0], rtol=tol)
    assert abs(float(out[0, 0] / g[0, 0]) - 0.7071) < 0.01
    assert np.all(out[4] == 0)


@asc2.jit
def rms_1d_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                  C: asc.ConstExpr[int], G: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [C]), [C], offsets=[0])
    g = asc2.load(asc2.tensor(g_ptr, [G]), [G], offsets=[0])
    asc2.store(asc2.rms_norm(x, g, 1e-6), asc2.tensor(out_ptr, [C]), offsets=[0])


def test_rms_norm_of_a_1d_tile_normalises_the_one_row_and_checks_gamma_against_it():
    rng = np.random.default_rng(11)
    x = rng.standard_normal(64).astype(np.float32)
    g = rng.uniform(0.5, 1.5, 64).astype(np.float32)
    out = np.zeros_like(x)
    rms_1d_kernel[1](x, g, out, 64, 64)
    np.testing.assert_allclose(out.astype(np.float64), rms_ref(x, g, 1e-6), rtol=2e-6, atol=1e-8)
    with pytest.raises(CodegenError, match=re.escape("gamma's last dimension 32 differs from the input's 64")):
        rms_1d_kernel[1](x, g[:32], out, 64, 32)


# -- softmax --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-6), (np.float16, 1e-3)], ids=["float32", "float16"])
def test_softmax_of_large_inputs_is_finite_and_exact(dtype, tol):
    C = 64
    rng = np.random.default_rng(10)
    rows = [np.full(C, 1000.0), np.full(C, -1000.0), rng.uniform(90, 110, C), rng.uniform(-110, -90, C),
            np.r_[200.0, np.zeros(C - 1)], np.r_[np.full(C - 1, -3e4), 0.0], rng.standard_normal(C) * 30,
            np.linspace(-60000, 60000, C)]
    x = np.stack(rows).astype(dtype)
    out = run(asc2.softmax, x, x.shape)
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    ref = e / e.sum(axis=-1, keepdims=True)
    assert np.all(np.isfinite(out.astype(np.float64)))
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=tol, atol=tol * 1e-3)
    np.testing.assert_allclose(out.astype(np.float64).sum(axis=-1), 1.0, rtol=C * tol)
    assert np.all(out[0] == out[0, 0]) and abs(float(out[0, 0]) - 1 / C) <= tol / C


# -- layer_norm -----------------------------------------------------------------------------------------------
@asc2.jit
def layer_norm_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress,
                      out_ptr: asc.GlobalAddress, mean_ptr: asc.GlobalAddress, third_ptr: asc.GlobalAddress,
                      R: asc.ConstExpr[int], C: asc.ConstExpr[int], eps: asc.ConstExpr[float],
                      rstd: asc.ConstExpr[bool]):
    x = asc2.load(asc2.tensor(x_ptr, [R, C]), [R, C], offsets=[0, 0])
    g = asc2.load(asc2.tensor(g_ptr, [C]), [C], offsets=[0])
    b = asc2.load(asc2.tensor(b_ptr, [C]), [C], offsets=[0])
    out, mean, third = asc2.layer_norm(x, g, b, eps, output_rstd=rstd)
    asc2.store(out, asc2.tensor(out_ptr, [R, C]), offsets=[0, 0])
    asc2.store(mean, asc2.tensor(mean_ptr, [R]), offsets=[0])
    asc2.store(third, asc2.tensor(third_ptr, [R]), offsets=[0])


@pytest.mark.parametrize("dtype,tol,rstd", [(np.float32, 1e-5, True), (np.float32, 1e-5, False),
                                            (np.float16, 1e-3, True)], ids=["f32-rstd", "f32-var", "f16-rstd"])
def test_layer_norm_with_variance_near_epsilon_matches_float64(dtype, tol, rstd):
    # rows of different means and spreads (one with variance ~ eps, one constant): the statistics are per
    # row over the last axis, the variance is the population variance of x - mean, and eps goes inside
    # the square root; gamma scales and beta shifts every row column by column.
    C, eps = 64, 1e-5
    rng = np.random.default_rng(11)
    rows = [np.linspace(-1, 1, C) * 3e-3 + 0.5, rng.standard_normal(C) * 4 + 10, np.full(C, 7.0),
            rng.uniform(-2, 2, C), rng.standard_normal(C) * 1e-3 - 0.5, np.r_[np.ones(C // 2), -np.ones(C // 2)],
            rng.uniform(100, 101, C), rng.standard_normal(C)]
    x = np.stack(rows).astype(dtype)
    g, b = rng.uniform(0.5, 2.0, C).astype(dtype), rng.uniform(-1, 1, C).astype(dtype)
    out, mean, third = np.zeros_like(x), np.zeros(8, np.float32), np.zeros(8, np.float32)
    layer_norm_kernel[1](x, g, b, out, mean, third, 8, C, eps, rstd)
    x64 = x.astype(np.float64)
    m = x64.mean(axis=-1)
    v = ((x64 - m[:, None]) ** 2).mean(axis=-1)
    ref = (x64 - m[:, None]) / np.sqrt(v[:, None] + eps) * g.astype(np.float64) + b.astype(np.float64)
    np.testing.assert_allclose(mean, m, rtol=1e-6)
    np.testing.assert_allclose(third, 1 / np.sqrt(v + eps) if rstd else v, rtol=1e-4, atol=0 if rstd else 1e-9)
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=tol, atol=tol * 4)
    np.testing.assert_allclose(out[2].astype(np.float64), b.astype(np.float64), rtol=tol, atol=tol)  # constant row


# -- narrow-float unary math: computed in float32, rounded once -----------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("fn,ref", [(asc2.rsqrt, lambda v: 1 / np.sqrt(v)), (asc2.sqrt, np.sqrt),
                                    (asc2.exp, np.exp)], ids=["rsqrt", "sqrt", "exp"])
def test_narrow_float_unary_math_rounds_once(dtype, fn, ref):
    # rounding 1/sqrt(x) twice (sqrt to the narrow type, then the reciprocal) differs in the last bit for
    # a good part of these inputs; the float32 result rounded once does not.
    x = np.linspace(0.01, 9.0, 256, dtype=np.float32).reshape(8, 32).astype(dtype)
    out = run(fn, x, x.shape)
    with np.errstate(divide="ignore"):
        expected = ref(x.astype(np.float32)).astype(np.float32).astype(dtype)     # float32, rounded once
    np.testing.assert_array_equal(out.astype(np.float32), expected.astype(np.float32))


@asc2.jit
def rms_block_eps_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                         eps_ptr: asc.GlobalAddress, R: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    b = asc2.block_idx()
    n = asc2.block_num()
    eps = asc2.load(asc2.tensor(eps_ptr, [n]), offsets=[b])     # a runtime epsilon, one per block
    x = asc2.load(asc2.tensor(x_ptr, [n * R, C]), [R, C], offsets=[b * R, 0])
    g = asc2.load(asc2.tensor(g_ptr, [1, C]), [1, C], offsets=[0, 0])
    asc2.store(asc2.rms_norm(x, g, eps), asc2.tensor(out_ptr, [n * R, C]), offsets=[b * R, 0])


def test_rms_norm_with_a_runtime_epsilon_per_block():
    R, C = 4, 64
    x = np.random.default_rng(12).uniform(-2e-3, 2e-3, (4 * R, C)).astype(np.float32)
    g = np.random.default_rng(13).uniform(0.5, 1.5, (1, C)).astype(np.float32)
    eps = np.array([1e-6, 1e-4, 1.0, 0.0], np.float32)
    out = np.zeros_like(x)
    rms_block_eps_kernel[4](x, g, out, eps, R, C)
    ref = np.concatenate([rms_ref(x[i * R:(i + 1) * R], g, float(eps[i])) for i in range(4)])
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=2e-6)

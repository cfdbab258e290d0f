"""The August cube surface: matmul with a bias row and HF32 operands, matmul_acc(hf32=), the UB -> L1
copy, copy(..., distrib=) and the locations each copy connects; numerics against numpy, rejected forms
with pyasc's message and the user's line."""
from __future__ import annotations

import re

import inspect

import numpy as np
import pytest

from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.sim.ops.arith import hf32

from kernel_checks import randn


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def hf32_reference(x):
    """float32 -> 12 significant bits (HF32: 1 + 8 + 11 bits), rounded toward zero (the rounding of
    SetHF32TransMode(true), which pyasc-dev's lowering sets with hf32=True)."""
    m, e = np.frexp(x.astype(np.float64))
    return np.ldexp(np.trunc(m * 2.0 ** 12), e - 12).astype(np.float32)


# -- matmul(bias=, hf32=) ---------------------------------------------------------------------------------
@asctile.jit
def matmul_bias(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress,
                c_ptr: asctile.GlobalAddress, m: asctile.ConstExpr, k: asctile.ConstExpr, n: asctile.ConstExpr,
                via_l1: asctile.ConstExpr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [m, k]), [0, 0], [m, k], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [k, n]), [0, 0], [k, n], asctile.TensorLocation.L0B)
    bias_gm = asctile.global_tensor(bias_ptr, [n])
    if via_l1:
        bias = asctile.copy(asctile.copy_in(bias_gm, [0], [n], asctile.TensorLocation.L1), [0], [n],
                            asctile.TensorLocation.BT)
    else:
        bias = asctile.copy_in(bias_gm, [0], [n], asctile.TensorLocation.BT)
    asctile.copy_out(asctile.matmul(a, b, bias), asctile.global_tensor(c_ptr, [m, n]), [0, 0])


@pytest.mark.parametrize("bias_dtype, via_l1", [(np.float32, False), (np.float16, True), (np.float32, True)])
def test_matmul_adds_the_bias_row_to_every_row(bias_dtype, via_l1):
    a, b = randn((32, 64), np.float16, seed=1), randn((64, 48), np.float16, seed=2)
    bias = randn(48, bias_dtype, seed=3) * 10
    c = np.zeros((32, 48), np.float32)
    matmul_bias[1](a, b, bias, c, 32, 64, 48, via_l1)
    expect = a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32)
    np.testing.assert_allclose(c, expect, rtol=1e-5, atol=1e-4)


@asctile.jit
def matmul_f32(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
               d_ptr: asctile.GlobalAddress, use_hf32: asctile.ConstExpr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    asctile.copy_out(asctile.matmul(a, b, hf32=use_hf32), asctile.global_tensor(c_ptr, [16, 16]), [0, 0])
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b, hf32=use_hf32)
    asctile.matmul_acc(acc, a, b, hf32=use_hf32)
    asctile.copy_out(acc, asctile.global_tensor(d_ptr, [16, 16]), [0, 0])


def test_hf32_rounds_float32_operands_to_eleven_mantissa_bits_toward_zero_before_the_product():
    a = randn((16, 32), np.float32, seed=4) * 3
    b = randn((32, 16), np.float32, seed=5) * 3
    c, d = np.zeros((16, 16), np.float32), np.zeros((16, 16), np.float32)
    matmul_f32[1](a, b, c, d, True)
    ra, rb = hf32_reference(a), hf32_reference(b)
    assert np.any(ra != a) and np.all(np.abs(ra - a) < np.abs(a) * 2.0 ** -11) and np.all(np.abs(ra) <= np.abs(a))
    expect = ra.astype(np.float64) @ rb.astype(np.float64)
    # float32 accumulation: the error bound scales with the sum of |products| (an element that cancels to
    # ~0.3 out of products of ~300 differs in the fifth digit with the summation order of the BLAS in use)
    bound = (np.abs(ra).astype(np.float64) @ np.abs(rb).astype(np.float64)) * 2.0 ** -20
    assert np.all(np.abs(c - expect) <= bound)
    np.testing.assert_array_equal(d, 2 * c)      # the accumulator adds the same rounded product twice
    exact = a.astype(np.float64) @ b.astype(np.float64)
    assert np.max(np.abs(c - exact)) > 1e-4  # the rounding is visible ...
    matmul_f32[1](a, b, c, d, False)
    np.testing.assert_allclose(c, exact, rtol=1e-5, atol=1e-5)  # ... and absent without hf32


def test_hf32_rounds_toward_zero_and_keeps_specials():
    one = np.float32(1.0)
    ulp = np.float32(2.0 ** -11)
    below = np.float32(one + ulp - np.float32(2.0 ** -23))  # the float32 just below the next HF32 value
    x = np.array([one + ulp / 2, one + 3 * ulp / 2, below, -below,
                  np.inf, -np.inf, 65504.0, 3.4e38], np.float32)
    got = hf32(x)
    np.testing.assert_array_equal(got[:4], [one, one + ulp, one, -one])
    assert np.isinf(got[4]) and np.isinf(got[5]) and got[6] == 65504.0
    assert np.isnan(hf32(np.array([np.nan], np.float32)))[0]
    np.testing.assert_array_equal(got[:4], hf32_reference(x[:4]))


def test_hf32_on_float16_operands_is_rejected_at_its_line():
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0A)
        b = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0B)
        c = asctile.matmul(a, b, hf32=True)
    with pytest.raises(CodegenError, match="HF32 mode can only be set when input tensor dtype is float32") as e:
        k[1](np.zeros((16, 16), np.float16), np.zeros((16, 16), np.float32))
    assert e.value.line == line_of(k, "hf32=True")


@pytest.mark.parametrize("shape, dtype, where, message", [
    ([16], "float32", "BT", "Bias shape 16 must match last output dimension 32"),
    ([64], "float32", "BT", "Bias shape 64 must match last output dimension 32"),
    ([2, 16], "float32", "L1", "Bias must be 1D tensor, got shape (2, 16)"),
    ([32], "float32", "L0A", "Direct data transfer from L0A to BT is not supported"),
])
def test_a_bias_of_the_wrong_shape_or_place_is_rejected_at_its_line(shape, dtype, where, message):
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress, shape: asctile.ConstExpr,
          where: asctile.ConstExpr):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
        b = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
        bias = asctile.copy_in(asctile.global_tensor(bias_ptr, shape), [0] * len(shape), shape, where)
        c = asctile.matmul(a, b, bias)
    message = message.replace("@matmul bias", "matmul bias")
    with pytest.raises(CodegenError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        k[1](np.zeros((64, 32), np.float16), np.zeros(shape, np.float32), tuple(shape), where)
    assert e.value.line == line_of(k, "c = asctile.matmul(a, b, bias)")


# -- UB -> L1, and the locations a copy connects ----------------------------------------------------------
@asctile.jit
def scaled_operand(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                   distrib: asctile.ConstExpr):
    a_ub = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32]) * 2.0
    if distrib:
        a_l1 = asctile.copy(a_ub, location=asctile.TensorLocation.L1, distrib=asctile.DistribMode.FullVec0)
    else:
        a_l1 = asctile.copy(a_ub, location=asctile.TensorLocation.L1)
    a = asctile.copy(a_l1, [0, 0], [32, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    c = asctile.copy(asctile.matmul(a, b).to(asctile.float16), location="UB", distrib=asctile.DistribMode.FullVec0)
    asctile.copy_out(c, asctile.global_tensor(c_ptr, [32, 16]), [0, 0])


@pytest.mark.parametrize("distrib", [False, True])
def test_a_vector_result_goes_through_ub_to_l1_into_the_cube(distrib):
    a, b = randn((32, 32), np.float16, seed=6), randn((32, 16), np.float16, seed=7)
    c = np.zeros((32, 16), np.float16)
    scaled_operand[1](a, b, c, distrib)
    expect = ((a * np.float16(2)).astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    np.testing.assert_allclose(c.astype(np.float32), expect.astype(np.float32), rtol=1e-3, atol=1e-3)


@asctile.jit
def ub_windows(x_ptr: asctile.GlobalAddress, sum_ptr: asctile.GlobalAddress, tail_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 64]), [0, 0], [16, 64])
    lo = asctile.copy(a, [0, 0], [16, 32])
    hi = asctile.copy(a, [0, 32], [16, 32])
    asctile.copy_out(lo + hi, asctile.global_tensor(sum_ptr, [16, 32]), [0, 0])
    w = asctile.copy(a, [8, 0], [16, 64])  # rows 8..23 of a 16-row tile: w's rows 8.. lie past the source
    asctile.copy_out(w, asctile.global_tensor(tail_ptr, [16, 64]), [0, 0], real_shape=[8, 64])


def test_an_august_copy_of_a_ub_tile_into_ub_is_refused_as_pyasc_devs_compiler_refuses_it():
    """pyasc-dev's front end and interpreter (and its docstring's example) take a UB -> UB window; its compiler
    has no data mover for it, so the kernel never runs on a device."""
    x = randn((16, 64), np.float32, seed=21)
    with pytest.raises(CodegenError, match="Direct data transfer from UB to UB is not supported") as e:
        ub_windows[1](x, np.zeros((16, 32), np.float32), np.zeros((16, 64), np.float32))
    assert e.value.line == line_of(ub_windows, "lo = asctile.copy(a")
    assert "copy_in each window from global memory" in str(e.value)


def test_an_illegal_location_pair_names_the_legal_ones():
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress):
        a_l0a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0A)
        a = asctile.copy(a_l0a, location=asctile.TensorLocation.UB)
    with pytest.raises(CodegenError, match="dst tile location is not supported") as e:
        k[1](np.zeros((32, 32), np.float16))
    assert e.value.line == line_of(k, "a = asctile.copy(a_l0a")
    text = str(e.value)
    assert "L0A -> UB has no lowering" in text and "UB -> L1" in text and "L1 -> L0A / L0B / BT" in text


# -- copy(..., distrib=) ----------------------------------------------------------------------------------
@asctile.jit
def distrib_kernel(a_ptr: asctile.GlobalAddress, cols: asctile.ConstExpr, mode: asctile.ConstExpr,
                   dst: asctile.ConstExpr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, cols]), [0, 0], [32, cols], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(a_ptr, [cols, cols]), [0, 0], [cols, cols], asctile.TensorLocation.L0B)
    c = asctile.matmul(a, b).to(asctile.float16)
    u = asctile.copy(c, location=dst, distrib=mode)


@pytest.mark.parametrize("cols, mode, dst, exc, message", [
    (48, "SplitByN", "UB", CodegenError, "Splitting by N axis requires that it be a multiple of 32, got 48"),
    (32, "JoinByM", "UB", CodegenError, "distrib=DistribMode.JoinByM is defined for UB -> L1 copies, not L0C -> UB"),
    (32, "SplitByM", "UB", CodegenError, "needs the two vector sub-blocks of a cube core (cv_ratio=2)"),
    (32, "FullVec1", "UB", CodegenError, "needs the two vector sub-blocks of a cube core (cv_ratio=2)"),
])
def test_distrib_modes_are_checked_like_pyasc_and_sub_block_modes_are_refused(cols, mode, dst, exc, message):
    with pytest.raises(exc, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        distrib_kernel[1](np.zeros((64, 64), np.float16), cols, getattr(asctile.DistribMode, mode), dst)
    assert e.value.line == line_of(distrib_kernel, "u = asctile.copy(c")


@asctile.jit
def distrib_shape_kernel(a_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr, mode: asctile.ConstExpr,
                         shape: asctile.ConstExpr):
    u = asctile.copy_in(asctile.global_tensor(a_ptr, [rows, 64]), [0, 0], [rows, 64])
    v = asctile.copy(u, shape=shape, location="L1", distrib=mode)


@pytest.mark.parametrize("rows, mode, shape, message", [
    (32, "JoinByM", (32, 64), "Joining by axis is only supported for the joined shape (64, 64), got (32, 64)"),
    (32, "JoinByN", (32, 64), "Joining by axis is only supported for the joined shape (32, 128), got (32, 64)"),
    (32, "SplitByM", (32, 64), "Splitting by axis is only supported for the split shape (16, 64), got (32, 64)"),
    (32, "SplitByN", (32, 64), "Splitting by axis is only supported for the split shape (32, 32), got (32, 64)"),
    (15, "SplitByM", None, "Splitting by M axis requires that it be a multiple of 2, got 15"),
])
def test_split_and_join_modes_check_the_shape_they_produce(rows, mode, shape, message):
    with pytest.raises(CodegenError, match=re.escape(message)):
        distrib_shape_kernel[1](np.zeros((rows, 64), np.float16), rows, getattr(asctile.DistribMode, mode), shape)


def test_distrib_modes_have_pyascs_values():
    assert [(m.name, m.value) for m in asctile.DistribMode] == [
        ("FullVec0", 0), ("FullVec1", 1), ("SplitByM", 2), ("SplitByN", 3), ("JoinByM", 4), ("JoinByN", 5)]


def test_distrib_must_be_a_distrib_mode():
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress):
        a_ub = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32])
        a = asctile.copy(a_ub, location="L1", distrib="SplitByM")
    with pytest.raises(CodegenError, match="'distrib' argument must be DistribMode or None, got str") as e:
        k[1](np.zeros((32, 32), np.float16))
    assert e.value.line == line_of(k, "distrib=")


@asctile.jit
def float32_result_copies(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                          d_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([32, 32], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    c_ub = asctile.copy(acc, location="UB")  # a float32 result, as pyasc's copy docstring shows
    asctile.copy_out(c_ub + 1.0, asctile.global_tensor(c_ptr, [32, 32]), [0, 0])
    c_l1 = asctile.copy(acc, location=asctile.TensorLocation.L1)
    c_l0a = asctile.copy(c_l1, [0, 0], [32, 32], asctile.TensorLocation.L0A)
    asctile.copy_out(asctile.matmul(c_l0a, asctile.copy_in(asctile.global_tensor(d_ptr, [32, 32]), [0, 0], [32, 32],
                                                           asctile.TensorLocation.L0B)),
                     asctile.global_tensor(d_ptr, [32, 32]), [0, 0])


def test_august_copies_float32_results_out_of_l0c():
    a, b = randn((32, 32), np.float16, seed=8), randn((32, 32), np.float16, seed=9)
    ab = a.astype(np.float32) @ b.astype(np.float32)
    d0 = randn((32, 32), np.float32, seed=10)
    c, d = np.zeros((32, 32), np.float32), d0.copy()
    float32_result_copies[1](a, b, c, d)
    np.testing.assert_allclose(c, ab + 1.0, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(d, ab.astype(np.float64) @ d0.astype(np.float64), rtol=1e-4, atol=1e-4)

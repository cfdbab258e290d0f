"""Elementwise tile ops against numpy / torch references: arithmetic, comparisons, where, unary math,
shifts, integer wrap-around, dtype promotion and the operand rules (spec §2.0, §2.5, §2.7, §2.11)."""
from __future__ import annotations

import math
import re

import ml_dtypes
import numpy as np
import pytest
import torch

import asc
import asc2
from asc.frontend.errors import CodegenError

from kernel_checks import assert_reported, randn

BF16 = ml_dtypes.bfloat16
N = 256
FLOATS = [np.float16, BF16, np.float32]
INTS = [np.int8, np.int16, np.int32]
ALL = FLOATS + INTS


def _name(d):
    return np.dtype(d).name


@asc2.jit
def binary_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                  R: asc.ConstExpr[int], C: asc.ConstExpr[int], fn: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [R, C]), [R, C], offsets=[0, 0])
    y = asc2.load(asc2.tensor(y_ptr, [R, C]), [R, C], offsets=[0, 0])
    asc2.store(fn(x, y), asc2.tensor(out_ptr, [R, C]), offsets=[0, 0])


@asc2.jit
def unary_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int],
                 fn: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num(), unroll_factor=2, parallel=True):
        asc2.store(fn(asc2.load(x_gm, [T], offsets=[i * T])), o_gm, offsets=[i * T])


def run_binary(fn, x, y, out_dtype=None):
    out = np.zeros(x.shape, out_dtype or x.dtype)
    binary_kernel[1](x, y, out, x.shape[0], x.shape[1], fn)
    return out


def rounded(ref, dtype):
    """A float64/float32 reference rounded once to the result dtype, as the simulator rounds each op."""
    return np.asarray(ref).astype(dtype)


# -- arithmetic ----------------------------------------------------------------------------------------
ARITH = {
    "add": (asc2.add, np.add), "sub": (asc2.sub, np.subtract), "mul": (asc2.mul, np.multiply),
    "maximum": (asc2.maximum, np.maximum), "minimum": (asc2.minimum, np.minimum),
    "+": (lambda a, b: a + b, np.add), "-": (lambda a, b: a - b, np.subtract), "*": (lambda a, b: a * b, np.multiply),
}


@pytest.mark.parametrize("dtype", ALL, ids=_name)
@pytest.mark.parametrize("op", list(ARITH))
def test_binary_arithmetic(op, dtype):
    fn, ref = ARITH[op]
    x = randn((4, 64), dtype, seed=1)
    y = randn((4, 64), dtype, seed=2)
    out = run_binary(fn, x, y)
    if np.dtype(dtype).kind == "i":
        expected = ref(x.astype(np.int64), y.astype(np.int64)).astype(dtype)  # wraps like the hardware
    else:
        expected = rounded(ref(x.astype(np.float32), y.astype(np.float32)), dtype)
    np.testing.assert_array_equal(out.astype(np.float64), expected.astype(np.float64))


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
@pytest.mark.parametrize("fn", [asc2.div, lambda a, b: a / b, lambda a, b: a // b], ids=["div", "/", "//"])
def test_float_division_and_floordiv_is_true_division(fn, dtype):
    x = randn((4, 64), dtype, seed=3)
    y = (np.abs(randn((4, 64), np.float32, seed=4)) + 0.5).astype(dtype)
    out = run_binary(fn, x, y)
    np.testing.assert_array_equal(out.astype(np.float32),
                                  rounded(x.astype(np.float32) / y.astype(np.float32), dtype).astype(np.float32))


def test_integer_tile_by_tile_division_is_not_supported():
    x = np.ones((1, 32), np.int32)
    with pytest.raises(CodegenError, match=re.escape("integer tile / tile division is not supported by pyasc v2")) as e:
        run_binary(asc2.div, x, x)
    assert "integer tile / tile division is not supported by pyasc v2" in str(e.value)
    assert "hint: " in str(e.value)


@pytest.mark.parametrize("dtype,big", [(np.int8, 127), (np.int16, 32767), (np.int32, 2**31 - 1)], ids=str)
def test_integer_arithmetic_wraps(dtype, big):
    x = np.full((1, 64), big, dtype)
    y = np.full((1, 64), 1, dtype)
    np.testing.assert_array_equal(run_binary(asc2.add, x, y), np.full((1, 64), np.iinfo(dtype).min, dtype))
    np.testing.assert_array_equal(run_binary(asc2.sub, -x - 1, y), np.full((1, 64), big, dtype))
    prod = run_binary(asc2.mul, x, np.full((1, 64), 3, dtype))
    np.testing.assert_array_equal(prod, (np.int64(big) * 3 * np.ones((1, 64), np.int64)).astype(dtype))


# -- tile (op) scalar -------------------------------------------------------------------------------------
@asc2.jit
def scalar_rhs_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, s, fn: asc.ConstExpr,
                      LITERAL: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
    if LITERAL is None:
        r = fn(x, s)
    else:
        r = fn(x, LITERAL)
    asc2.store(r, asc2.tensor(out_ptr, [64]), offsets=[0])


@pytest.mark.parametrize("dtype", ALL, ids=_name)
@pytest.mark.parametrize("op", ["+", "-", "*", "max", "min"])
def test_tile_op_scalar_keeps_the_tile_dtype(op, dtype):
    fn = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "max": asc2.maximum, "min": asc2.minimum}[op]
    ref = {"+": np.add, "-": np.subtract, "*": np.multiply, "max": np.maximum, "min": np.minimum}[op]
    x = randn(64, dtype, seed=5)
    is_int = np.dtype(dtype).kind == "i"
    literal = 3 if is_int else 0.75
    out = np.zeros_like(x)
    # a Python literal: converted to the tile's dtype (a lone tile's dtype wins)
    scalar_rhs_kernel[1](x, out, 0, fn, literal)
    wide = x.astype(np.int64 if is_int else np.float32)
    np.testing.assert_array_equal(out.astype(np.float64), ref(wide, literal).astype(dtype).astype(np.float64))
    # a runtime scalar argument of another dtype: also converted to the tile's dtype
    out2 = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out2, np.int32(3) if is_int else 0.75, fn, None)
    np.testing.assert_array_equal(out2.astype(np.float64), out.astype(np.float64))


def test_float_tile_times_int_runtime_scalar():
    x = randn(64, np.float32, seed=6)
    out = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out, 3, lambda a, b: a * b, None)        # int32 -> float32: same width
    np.testing.assert_array_equal(out, x * 3)
    h = x.astype(np.float16)
    with pytest.raises(CodegenError, match=re.escape("Arithmetic cast from int32 to float16 is not supported")) as e:  # int32 -> float16: pyasc cannot
        scalar_rhs_kernel[1](h, h.copy(), 3, lambda a, b: a * b, None)
    assert "Arithmetic cast from int32 to float16 is not supported" in str(e.value)
    assert "value.cast(asc.float32)" in str(e.value).split("hint: ")[1]
    scalar_rhs_kernel[1](h, out.astype(np.float16), 3, lambda a, b: a * b.cast(asc.float32), None)  # the fix


def test_unsigned_scalar_operand_is_rejected():
    x = np.zeros(64, np.float32)
    with pytest.raises(CodegenError, match="Unsigned dtype operands not supported, got float32 and uint8"):
        scalar_rhs_kernel[1](x, x.copy(), np.uint8(3), lambda a, b: a + b, None)


def test_division_by_runtime_scalar_and_scalar_divided_by_tile_is_rejected():
    x = randn(64, np.float32, seed=7)
    out = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out, 4.0, lambda a, b: a / b, None)
    np.testing.assert_array_equal(out, x / np.float32(4))


# -- dtype promotion between tiles ------------------------------------------------------------------------
PROMOTION = [
    (np.int8, np.int16, np.int16), (np.int16, np.int32, np.int32), (np.int8, np.int32, np.int32),
    (np.int16, np.float16, np.float16), (np.int16, BF16, BF16), (np.int32, np.float32, np.float32),
    (np.float16, np.float32, np.float32), (BF16, np.float32, np.float32), (np.float16, BF16, np.float16),
    (BF16, np.float16, BF16), (np.float16, np.int16, np.float16),
]


@pytest.mark.parametrize("a,b,res", PROMOTION, ids=_name)
def test_tile_tile_dtype_promotion(a, b, res):
    x = randn((1, 64), a, seed=8)
    y = randn((1, 64), b, seed=9)
    out = run_binary(asc2.add, x, y, out_dtype=res)
    expected = (x.astype(np.float64) + y.astype(np.float64)).astype(res)
    np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("a,b", [(np.int8, np.float16), (np.int8, np.float32), (np.int32, np.float16),
                                 (np.float32, np.int16), (np.float16, np.int32)], ids=_name)
def test_tile_tile_dtype_promotion_errors(a, b):
    x, y = np.zeros((1, 64), a), np.zeros((1, 64), b)
    with pytest.raises(CodegenError, match=re.escape(f"Unable to infer common dtype between {_name(a)} and {_name(b)}")) as e:
        run_binary(asc2.add, x, y, out_dtype=np.float32)
    assert f"Unable to infer common dtype between {_name(a)} and {_name(b)}" in str(e.value)


def test_shape_mismatch_and_no_implicit_broadcasting():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        t = asc2.tensor(x_ptr, [4, 32])
        a = asc2.load(t, [4, 32], offsets=[0, 0])
        b = asc2.load(t, [1, 32], offsets=[0, 0])
        c = a + b
    with pytest.raises(CodegenError, match=re.escape("Shape mismatch: [4, 32] vs. [1, 32]")) as e:
        k[1](np.zeros((4, 32), np.float32))
    assert_reported(e.value, "Shape mismatch: [4, 32] vs. [1, 32]", "c = a + b")


def test_at_least_one_operand_must_be_a_tile():
    with pytest.raises(TypeError, match="At least one operand must be tile, got <class 'int'> and <class 'float'>"):
        asc2.add(1, 2.0)


# -- shifts -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", INTS, ids=_name)
def test_shifts(dtype):
    x = randn(64, dtype, seed=10)
    out = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out, 0, lambda a, b: a << b, 2)
    np.testing.assert_array_equal(out, (x.astype(np.int64) << 2).astype(dtype))
    scalar_rhs_kernel[1](x, out, 0, asc2.right_shift, 3)
    np.testing.assert_array_equal(out, x >> 3)  # arithmetic shift keeps the sign
    assert np.any(x < 0) and np.all(out[x < 0] < 0)
    scalar_rhs_kernel[1](x, out, 1, asc2.left_shift, None)  # runtime shift amount
    np.testing.assert_array_equal(out, (x.astype(np.int64) << 1).astype(dtype))


def test_a_shift_by_zero_is_the_smallest_amount_allowed():
    x = np.arange(-32, 32, dtype=np.int32)
    out = np.zeros_like(x)
    for shift in (asc2.left_shift, asc2.right_shift):
        scalar_rhs_kernel[1](x, out, 0, shift, 0)
        np.testing.assert_array_equal(out, x)
    with pytest.raises(CodegenError, match="Left shift requires positive integer operand, got True"):
        scalar_rhs_kernel[1](x, out, 0, asc2.left_shift, True)


def test_shift_errors():
    x = np.zeros(64, np.int32)
    with pytest.raises(CodegenError, match="Left shift requires positive integer operand, got -1"):
        scalar_rhs_kernel[1](x, x.copy(), 0, asc2.left_shift, -1)
    with pytest.raises(CodegenError, match="Right shift requires positive integer operand, got 1.5"):
        scalar_rhs_kernel[1](x, x.copy(), 0, asc2.right_shift, 1.5)
    f = np.zeros(64, np.float32)
    with pytest.raises(CodegenError, match="Operation not support this dtype: float32"):
        scalar_rhs_kernel[1](f, f.copy(), 0, asc2.left_shift, 1)


# -- comparisons and where -------------------------------------------------------------------------------------
CMPS = {"==": (lambda a, b: a == b, np.equal), "!=": (lambda a, b: a != b, np.not_equal),
        ">": (lambda a, b: a > b, np.greater), ">=": (lambda a, b: a >= b, np.greater_equal),
        "<": (lambda a, b: a < b, np.less), "<=": (lambda a, b: a <= b, np.less_equal),
        "equal": (asc2.equal, np.equal), "not_equal": (asc2.not_equal, np.not_equal),
        "greater": (asc2.greater, np.greater), "greater_equal": (asc2.greater_equal, np.greater_equal),
        "less": (asc2.less, np.less), "less_equal": (asc2.less_equal, np.less_equal)}


@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.int16, np.int32], ids=_name)
@pytest.mark.parametrize("op", list(CMPS))
def test_comparisons_give_boolean_tiles(op, dtype):
    fn, ref = CMPS[op]
    x = randn((2, 64), dtype, seed=11)
    y = x.copy()
    y[:, ::3] = randn((2, 64), dtype, seed=12)[:, ::3]  # equal in 2/3 of the lanes
    # a comparison yields an int1 tile: select with it, and convert it to int8 0/1
    out = run_binary(lambda a, b: asc2.where(fn(a, b), a, b), x, y)
    np.testing.assert_array_equal(out.astype(np.float64), np.where(ref(x, y), x, y).astype(np.float64))
    flags = run_binary(lambda a, b: fn(a, b).to(asc.int8), x, y, out_dtype=np.int8)
    np.testing.assert_array_equal(flags, ref(x, y).astype(np.int8))


def test_comparison_result_type_in_ir():
    x = np.zeros((1, 32), np.float32)
    ir = binary_kernel.ir(x, x, np.zeros((1, 32), np.int8), 1, 32, lambda a, b: (a < b).to(asc.int8))
    assert "tile<1x32xint1, UB>" in ir


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32], ids=_name)
def test_comparison_with_scalar(dtype):
    x = randn(64, dtype, seed=13)
    out = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out, 0, lambda a, b: asc2.where(a >= b, a, asc2.zeros_like(a)), 0)
    np.testing.assert_array_equal(out, np.where(x >= 0, x, 0).astype(dtype))


def test_where_with_scalar_branches_and_leaky_relu():
    x = randn(64, np.float32, seed=14)
    out = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out, 0.1, lambda a, alpha: asc2.where(a >= 0, a, a * alpha), None)
    np.testing.assert_array_equal(out, np.where(x >= 0, x, x * np.float32(0.1)))
    scalar_rhs_kernel[1](x, out, 0, lambda a, _: asc2.where(a > 0, 1.0, -1.0), None)
    np.testing.assert_array_equal(out, np.where(x > 0, 1.0, -1.0).astype(np.float32))


def test_where_errors():
    x = np.zeros(64, np.float32)
    with pytest.raises(CodegenError, match="'mask' argument must be Tile, got <class 'bool'>"):
        scalar_rhs_kernel[1](x, x.copy(), 0, lambda a, _: asc2.where(True, a, a), None)
    with pytest.raises(CodegenError, match="boolean tile"):
        scalar_rhs_kernel[1](x, x.copy(), 0, lambda a, _: asc2.where(a, a, a), None)
    y = np.zeros((2, 32), np.float32)
    with pytest.raises(CodegenError, match="Tile shape doesn't match the required shape"):
        binary_kernel[1](y, y, y.copy(), 2, 32, lambda a, b: asc2.where(a > 0, a.reshape(64), b))


# -- unary math -----------------------------------------------------------------------------------------------
def _erf(v):
    return np.vectorize(math.erf)(v.astype(np.float64))


UNARY = {
    "sin": (asc2.sin, np.sin, None), "cos": (asc2.cos, np.cos, None), "tan": (asc2.tan, np.tan, (-1.2, 1.2)),
    "sinh": (asc2.sinh, np.sinh, None), "cosh": (asc2.cosh, np.cosh, None), "tanh": (asc2.tanh, np.tanh, None),
    "exp": (asc2.exp, np.exp, None), "exp2": (asc2.exp2, np.exp2, None),
    "log": (asc2.log, np.log, (0.1, 5)), "log2": (asc2.log2, np.log2, (0.1, 5)),
    "floor": (asc2.floor, np.floor, None), "ceil": (asc2.ceil, np.ceil, None), "abs": (asc2.abs, np.abs, None),
    "erf": (asc2.erf, _erf, None), "sqrt": (asc2.sqrt, np.sqrt, (0, 9)),
    "rsqrt": (asc2.rsqrt, lambda v: 1 / np.sqrt(v), (0.1, 9)), "relu": (asc2.relu, lambda v: np.maximum(v, 0), None),
    "negative": (asc2.negative, np.negative, None), "-x": (lambda t: -t, np.negative, None),
    "+x": (lambda t: +t, lambda v: v, None),
    "method.exp": (lambda t: t.exp(), np.exp, None), "method.abs": (lambda t: t.abs(), np.abs, None),
    "method.rsqrt": (lambda t: t.rsqrt(), lambda v: 1 / np.sqrt(v), (0.1, 9)),
}


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
@pytest.mark.parametrize("op", list(UNARY))
def test_unary_math(op, dtype):
    fn, ref, domain = UNARY[op]
    lo, hi = domain or (-3, 3)
    x = (np.random.default_rng(15).uniform(lo, hi, 1000).astype(np.float32)).astype(dtype)
    out = np.zeros_like(x)
    unary_kernel[4](x, out, x.size, 128, fn)
    expected = rounded(ref(x.astype(np.float64)), dtype)
    tol = {np.dtype(np.float32): 1e-5, np.dtype(np.float16): 1e-3, np.dtype(BF16): 8e-3}[np.dtype(dtype)]
    np.testing.assert_allclose(out.astype(np.float64), expected.astype(np.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("fn", [asc2.sin, asc2.log, asc2.abs, asc2.relu, asc2.softmax, asc2.rsqrt])
def test_unary_functions_without_a_scalar_form_need_a_tile(fn):
    with pytest.raises(TypeError, match="'input' argument must be Tile, got <class 'float'>"):
        fn(1.0)


@pytest.mark.parametrize("dtype", INTS, ids=_name)
def test_unary_math_on_int_tiles_is_rejected(dtype):
    x = np.zeros(64, dtype)
    with pytest.raises(CodegenError, match=re.escape(f"Operation not support this dtype: {_name(dtype)}")) as e:
        unary_kernel[1](x, x.copy(), 64, 64, asc2.exp)
    assert f"Operation not support this dtype: {_name(dtype)}" in str(e.value)


@pytest.mark.parametrize("dtype", INTS, ids=_name)
def test_relu_accepts_int_tiles(dtype):
    x = randn(300, dtype, seed=16)
    out = np.zeros_like(x)
    unary_kernel[2](x, out, x.size, 64, asc2.relu)
    np.testing.assert_array_equal(out, np.maximum(x, 0))


def test_negative_of_int_tile_is_not_supported_clearly():
    x = np.zeros(64, np.int32)
    with pytest.raises(CodegenError, match=re.escape("unary minus on an integer tile (int32) is not supported by pyasc v2")) as e:
        unary_kernel[1](x, x.copy(), 64, 64, lambda t: -t)
    assert "unary minus on an integer tile (int32) is not supported by pyasc v2" in str(e.value)
    assert "x * -1" in str(e.value)


def test_int_times_minus_one_is_the_portable_negation():
    x = randn(64, np.int16, seed=17)
    out = np.zeros_like(x)
    unary_kernel[1](x, out, 64, 64, lambda t: t * -1)
    np.testing.assert_array_equal(out, -x)


def test_gelu_erf_form_float16():
    x = (np.random.default_rng(18).uniform(-4, 4, 4096).astype(np.float32)).astype(np.float16)
    out = np.zeros_like(x)
    unary_kernel[8](x, out, x.size, 128, lambda t: t * (asc2.erf(t * asc2.sqrt(0.5)) + 1) * 0.5)
    expected = (0.5 * x.astype(np.float64) * (1 + _erf(x / np.sqrt(2.0)))).astype(np.float16)
    np.testing.assert_allclose(out.astype(np.float32), expected.astype(np.float32), atol=5e-2, rtol=5e-2)


def test_gelu_tanh_form_float32():
    x = np.random.default_rng(19).uniform(-4, 4, 4096).astype(np.float32)
    out = np.zeros_like(x)
    k, c = math.sqrt(2 / math.pi), 0.044715
    unary_kernel[8](x, out, x.size, 64, lambda t: t * (asc2.tanh((t + t * t * t * c) * k) + 1) * 0.5)
    expected = 0.5 * x * (1 + np.tanh(k * (x + c * x ** 3)))
    np.testing.assert_allclose(out, expected, atol=1e-5, rtol=1e-5)


def test_elementwise_on_torch_tensors():
    x = torch.randn(1000, dtype=torch.float16)
    out = torch.zeros_like(x)
    unary_kernel[4](x, out, x.numel(), 128, asc2.abs)
    assert torch.equal(out, x.abs())


@pytest.mark.parametrize("fn,ref", [
    (lambda a, s: asc2.sub(s, a), lambda x, s: s - x),
    (lambda a, s: asc2.div(s, a), lambda x, s: s / x),
    (lambda a, s: asc2.maximum(s, a), lambda x, s: np.maximum(s, x)),
    (lambda a, s: asc2.where(asc2.less(s, a), 1.0, 0.0), lambda x, s: (s < x).astype(np.float32)),
    (lambda a, s: asc2.where(asc2.greater_equal(s, a), 1.0, 0.0), lambda x, s: (s >= x).astype(np.float32)),
], ids=["sub", "div", "maximum", "less", "greater_equal"])
def test_function_forms_accept_the_scalar_first(fn, ref):
    x = np.random.default_rng(20).uniform(1, 2, 64).astype(np.float32)
    out = np.zeros_like(x)
    scalar_rhs_kernel[1](x, out, np.float32(1.5), fn, None)
    np.testing.assert_array_equal(out, ref(x, np.float32(1.5)).astype(np.float32))


def test_int8_comparisons_are_c310_only():
    import asc.runtime.config as config
    x = randn((1, 64), np.int8, seed=21)
    y = randn((1, 64), np.int8, seed=22)
    out = run_binary(lambda a, b: asc2.where(a > b, a, b), x, y)
    np.testing.assert_array_equal(out, np.maximum(x, y))
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(CodegenError, match=re.escape("can only be lowered with i16 or i32 tile operands")) as e:
        run_binary(lambda a, b: asc2.where(a > b, a, b), x, y)
    assert "can only be lowered with i16 or i32 tile operands" in str(e.value) and ".to(asc.int16)" in str(e.value)
    out = run_binary(lambda a, b: asc2.where(a.to(asc.int16) > b.to(asc.int16), a, b), x, y)
    np.testing.assert_array_equal(out, np.maximum(x, y))


@pytest.mark.parametrize("dtype", INTS, ids=_name)
def test_integer_tile_divided_by_a_scalar_truncates(dtype):
    x = np.array([[-7, 7, -8, 9] * 16], dtype)
    out = np.zeros_like(x)
    binary_kernel[1](x, x, out, 1, 64, lambda a, b: a / 2)
    np.testing.assert_array_equal(out[0, :4], [-3, 3, -4, 4])
    binary_kernel[1](x, x, out, 1, 64, lambda a, b: a // 2)
    np.testing.assert_array_equal(out[0, :4], [-3, 3, -4, 4])

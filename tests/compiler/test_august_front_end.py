"""Where pyasc-dev's front end (the reference for asctile kernels) differs from April pyasc: errors of
August-dialect kernels carry pyasc-dev's texts while the same mistake in an April kernel keeps the April
text; August tiles have scalar-first operators and asctile.cast."""
from __future__ import annotations

import math
import re

import ml_dtypes
import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError, UnsupportedSyntaxError
from asc.sim.executor import KernelRuntimeError

X = np.arange(1024, dtype=np.float32)


def raises(exc, text):
    return pytest.raises(exc, match=re.escape(text))


def test_range_argument_count_is_quoted_in_august_only():
    @asctile.jit
    def august(x_ptr: asctile.GlobalAddress):
        for i in range(0, 4, 1, 2):
            pass

    @asc2.jit
    def april(x_ptr: asc.GlobalAddress):
        for i in asc2.range(0, 4, 1, 2):
            pass
    with raises(CodegenError, "ValueError: 'range' expects from 1 to 3 arguments, got 4"):
        august[1](X)
    with pytest.raises(CodegenError, match=r"\nValueError: range expects from 1 to 3 arguments, got 4"):
        april[1](X)


def test_parallel_keyword_of_asctile_range_names_range():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        for i in asctile.range(4, unroll_factor=2, parallel=True):
            pass
    with raises(CodegenError, "TypeError: range.__init__() got an unexpected keyword argument 'parallel'"):
        k[1](X)


def test_while_is_rejected_in_august_kernels_and_runs_in_april_ones():
    @asctile.jit
    def august(x_ptr: asctile.GlobalAddress, n: int):
        x_gm = asctile.global_tensor(x_ptr, [n])
        i = asctile.block_idx()
        while i < n:
            i = i + 1

    @asc2.jit
    def april(out_ptr: asc.GlobalAddress, n: int):
        o = asc2.tensor(out_ptr, [64])
        i = asc2.block_idx()
        while i < n:
            i = i + 1
        asc2.store(asc2.full([64], i, dtype=asc.int32), o, offsets=[0])
    with raises(UnsupportedSyntaxError, "'while' statement is not supported in JIT function"):
        august[1](X, 8)
    out = np.zeros(64, np.int32)
    april[1](out, 5)
    assert np.all(out == 5)


@pytest.mark.parametrize("dtype, op, allowed", [
    (np.int32, "exp", "float16, float32"),
    (np.int32, "sqrt", "float16, float32"),
    (ml_dtypes.bfloat16, "exp", "float16, float32"),
    (ml_dtypes.bfloat16, "abs", "int8, int16, int32, int64, float16, float32"),
])
def test_unary_dtype_text_in_august(dtype, op, allowed):
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, fn: asctile.ConstExpr):
        x_gm = asctile.global_tensor(x_ptr, [64])
        out_gm = asctile.global_tensor(out_ptr, [64])
        asctile.copy_out(fn(asctile.copy_in(x_gm, [0], [64])), out_gm, [0])
    x = np.arange(64).astype(dtype)
    name = np.dtype(dtype).name
    with raises(CodegenError, f"RuntimeError: 'input' dtype must be one of {allowed}, got {name}"):
        k[1](x, x.copy(), getattr(asctile, op))


def test_unary_dtype_text_in_april_is_unchanged():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [64])
        out_gm = asc2.tensor(out_ptr, [64])
        asc2.store(asc2.exp(asc2.load(x_gm, [64], offsets=[0])), out_gm, offsets=[0])
    x = np.arange(64, dtype=np.int32)
    with raises(CodegenError, "RuntimeError: Operation not support this dtype: int32"):
        k[1](x, x.copy())


def test_float16_accumulator_is_rejected_at_zeros_acc_in_august():
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress):
        acc = asctile.zeros_acc([16, 16], asctile.float16)
    with pytest.raises(CodegenError, match=re.escape("'dtype' dtype must be float32, got float16")) as e:
        k[1](np.ones(256, np.float16))
    assert "asctile.zeros_acc([16, 16], asctile.float16)" in str(e.value)


def test_incompatible_matmul_shapes_in_both_dialects():
    @asctile.jit
    def august(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
        b = asctile.copy_in(asctile.global_tensor(b_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0B)
        asctile.matmul_acc(asctile.zeros_acc([16, 16], asctile.float32), a, b)

    @asc2.jit
    def april(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress):
        a = asc2.load(asc2.tensor(a_ptr, [16, 32]), [16, 32], offsets=[0, 0], location=asc2.TileLocation.L0A)
        b = asc2.load(asc2.tensor(b_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
        asc2.matmul_acc(a, b, asc2.zeros_acc([16, 16], asc.float32))
    a, b = np.ones((16, 32), np.float16), np.ones((16, 16), np.float16)
    with raises(CodegenError, "RuntimeError: Input tensors have incompatible shapes: (16, 32), (16, 16)"):
        august[1](a, b)
    with raises(CodegenError, "RuntimeError: Input tiles have incompatible shapes: [16, 32], [16, 16]"):
        april[1](a, b)


def test_offsets_must_match_the_tensor_rank_in_copy_in_and_copy_out():
    @asctile.jit
    def load_one(x_ptr: asctile.GlobalAddress):
        asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0], [64])

    @asctile.jit
    def store_three(x_ptr: asctile.GlobalAddress):
        x_gm = asctile.global_tensor(x_ptr, [8, 64])
        asctile.copy_out(asctile.copy_in(x_gm, [0, 0], [8, 64]), x_gm, [0, 0, 0])
    x = np.zeros((8, 64), np.float32)
    with raises(CodegenError, "ValueError: 'offsets' must have 2 values, got 1"):
        load_one[1](x)
    with raises(CodegenError, "ValueError: 'offsets' must have 2 values, got 3"):
        store_three[1](x)


def test_shapes_that_do_not_broadcast_use_upstreams_text_in_august():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, a_len: asctile.ConstExpr, b_shape: asctile.ConstExpr):
        x_gm = asctile.global_tensor(x_ptr, [8, 64])
        a = asctile.copy_in(x_gm, [0, 0], [8, a_len])
        b = asctile.copy_in(x_gm, [0, 0], b_shape)
        a + b
    x = np.zeros((8, 64), np.float32)
    with raises(CodegenError, "RuntimeError: Shapes are not broadcastable: (8, 16) vs. (8, 32)"):
        k[1](x, 16, (8, 32))


def test_scalar_first_operators_in_august_kernels():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x_gm = asctile.global_tensor(x_ptr, [1, 64])
        out_gm = asctile.global_tensor(out_ptr, [4, 64])
        x = asctile.copy_in(x_gm, [0, 0], [1, 64])
        asctile.copy_out(1.5 + x, out_gm, [0, 0])
        asctile.copy_out(2.0 - x, out_gm, [1, 0])
        asctile.copy_out(0.5 * x, out_gm, [2, 0])
        asctile.copy_out(3.0 / x, out_gm, [3, 0])
    x = np.linspace(0.25, 8, 64, dtype=np.float32)
    out = np.zeros((4, 64), np.float32)
    k[1](x, out)
    np.testing.assert_array_equal(out, np.stack([np.float32(1.5) + x, np.float32(2.0) - x, np.float32(0.5) * x,
                                                 np.float32(3.0) / x]))


def test_scalar_first_operator_stays_an_error_in_april_kernels():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(2.0 - x, asc2.tensor(out_ptr, [64]), offsets=[0])
    with raises(CodegenError, "'Tile' object has no attribute '__rsub__'"):
        k[1](X, X.copy())


def test_asctile_cast_converts_like_to():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, h_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(asctile.cast(x, asctile.float16), asctile.global_tensor(h_ptr, [64]), [0])
    x = np.linspace(-3, 3, 64, dtype=np.float32) + np.float32(1e-4)
    h = np.zeros(64, np.float16)
    k[1](x, h)
    np.testing.assert_array_equal(h, x.astype(np.float16))


def _half_sum(a, b):
    return a + b / 2.0


def test_a_plain_python_helper_is_called_with_the_traced_tiles_as_pyasc_dev_does():
    @asctile.jit(always_compile=True)
    def k(x_ptr, out_ptr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(_half_sum(x, x) + math.sqrt(4.0), asctile.global_tensor(out_ptr, [64]), [0])
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    k[1](x, out)
    np.testing.assert_array_equal(out, 1.5 * x + 2.0)


def test_a_cached_kernel_naming_a_plain_callable_is_refused_at_its_line_as_pyasc_dev_does():
    """pyasc-dev computes a cached kernel's key from its source and refuses any plain callable it names."""
    @asctile.jit
    def k(x_ptr, out_ptr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(x * math.pi + _half_sum(x, x), asctile.global_tensor(out_ptr, [64]), [0])
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    with pytest.raises(CodegenError, match="Unsupported function referenced: <function _half_sum") as e:
        k[1](x, out)
    assert "_half_sum(x, x)" in str(e.value) and "always_compile=True" in e.value.hint
    assert not out.any()


@asctile.jit
def _helper_naming_sqrt(t):
    return t * math.sqrt(2.0)


def test_a_plain_callable_in_a_jit_helper_is_refused_at_the_helpers_line():
    @asctile.jit
    def k(x_ptr, out_ptr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(_helper_naming_sqrt(x), asctile.global_tensor(out_ptr, [64]), [0])
    x = np.ones(64, dtype=np.float32)
    with pytest.raises(CodegenError, match="Unsupported function referenced: <built-in function sqrt>") as e:
        k[1](x, np.zeros(64, np.float32))
    assert e.value.line == _helper_naming_sqrt.first_line + 1


def test_a_local_name_shadowing_a_plain_function_is_not_a_reference():
    @asctile.jit
    def k(x_ptr, out_ptr, _half_sum: float):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(x * _half_sum, asctile.global_tensor(out_ptr, [64]), [0])
    x = np.ones(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    k[1](x, out, 3.0)
    np.testing.assert_array_equal(out, 3.0 * x)


@asctile.jit
def select_by_length(x_ptr, out_ptr, n):
    x_gm = asctile.global_tensor(x_ptr, [64])
    x = asctile.copy_in(x_gm, [0], [64])
    # the else branch loads at a negative offset (an error) whenever it runs
    y = x + 1.0 if n > 10 else asctile.copy_in(x_gm, [0 - n], [64])
    asctile.copy_out(y, asctile.global_tensor(out_ptr, [64]), [0])


def test_a_runtime_conditional_expression_over_tiles_runs_only_the_taken_branch():
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    select_by_length[1](x, out, 11)
    np.testing.assert_array_equal(out, x + 1.0)
    with raises(KernelRuntimeError, "load of tensor 'x_ptr' at negative offsets [-10]"):
        select_by_length[1](x, out, 10)


def test_a_runtime_conditional_expression_needs_one_tile_type():
    @asctile.jit
    def k(x_ptr, out_ptr, n):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        y = x if n > 10 else x.to(asctile.float16)
        asctile.copy_out(y, asctile.global_tensor(out_ptr, [64]), [0])
    with raises(CodegenError, "Conditional operator has inconsistent result types"):
        k[1](np.zeros(64, np.float32), np.zeros(64, np.float32), 3)

"""The frontend: the supported Python subset, control flow and carried values (spec §4.4-4.6); device functions,
unsupported syntax and the error report format are in test_frontend_syntax.py."""
from __future__ import annotations

import re

import inspect

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import assert_reported, location, randn

ROWS, COLS = 8, 64


def _x():
    return randn((ROWS, COLS), np.float32, seed=7)


# -- runtime loops --------------------------------------------------------------------------------
@asc2.jit
def row_sums_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int],
                    UF: asc.ConstExpr[int], PAR: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [rows, C])
    o_gm = asc2.tensor(out_ptr, [rows, 8])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=UF, parallel=PAR):
        s = asc2.reduce_sum(asc2.load(x_gm, [1, C], offsets=[r, 0]))
        asc2.store(asc2.full([1, 8], s, dtype=asc.float32), o_gm, offsets=[r, 0])


@pytest.mark.parametrize("uf,par", [(1, False), (2, True), (3, False), (4, True)])
@pytest.mark.parametrize("cores", [1, 3])
def test_asc2_range_with_unroll_factor_and_parallel(uf, par, cores):
    x = randn((7, 64), np.float32)
    out = np.zeros((7, 8), np.float32)
    row_sums_kernel[cores](x, out, 7, 64, uf, par)
    np.testing.assert_allclose(out, np.repeat(x.sum(axis=1, keepdims=True), 8, axis=1), rtol=1e-5, atol=1e-5)
    ir = row_sums_kernel.ir(x, out, 7, 64, uf, par)
    assert f"unroll_factor={uf}, parallel={par}" in ir


def test_plain_range_is_asc2_range_and_a_runtime_loop():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int):
        x_gm = asc2.tensor(x_ptr, [n_tiles * 32])
        o_gm = asc2.tensor(out_ptr, [n_tiles * 32])
        for i in range(n_tiles, unroll_factor=2, parallel=True):
            asc2.store(asc2.load(x_gm, [32], offsets=[i * 32]) + 1.0, o_gm, offsets=[i * 32])
    x = randn(160, np.float32)
    out = np.zeros_like(x)
    k[1](x, out, 5)
    np.testing.assert_array_equal(out, x + np.float32(1))
    ir = k.ir(x, out, 5)
    assert ir.count("scf.for") == 1 and ir.count("tile.load") == 1


def test_plain_range_over_a_compile_time_count_is_still_a_runtime_loop():
    # pyasc unrolls only asc.static_range while tracing; a Python range over a ConstExpr count stays one
    # loop (its trips share the body's buffers), however small the count
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [n_tiles * 32])
        o_gm = asc2.tensor(out_ptr, [n_tiles * 32])
        for i in range(n_tiles):
            asc2.store(asc2.load(x_gm, [32], offsets=[i * 32]) * 2.0, o_gm, offsets=[i * 32])
    x = randn(64, np.float32)
    out = np.zeros_like(x)
    k[1](x, out, 2)
    np.testing.assert_array_equal(out, x * np.float32(2))
    ir = k.ir(x, out, 2)
    assert ir.count("scf.for") == 1 and ir.count("tile.load") == 1


def test_range_with_start_stop_step_and_negative_step():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, start: int, stop: int, step: int):
        o = asc2.tensor(out_ptr, [64])
        for i in asc2.range(start, stop, step):
            asc2.store(asc2.full([8], i, dtype=asc.int32), o, offsets=[i * 8])
    out = np.full(64, -1, np.int32)
    k[1](out, 1, 8, 3)
    expected = np.full(64, -1, np.int32)
    for i in range(1, 8, 3):
        expected[i * 8:(i + 1) * 8] = i
    np.testing.assert_array_equal(out, expected)
    out[:] = -1
    k[1](out, 7, 0, -2)
    expected[:] = -1
    for i in range(7, 0, -2):
        expected[i * 8:(i + 1) * 8] = i
    np.testing.assert_array_equal(out, expected)
    out[:] = -1
    k[1](out, 5, 5, 1)  # empty loop
    assert np.all(out == -1)


@pytest.mark.parametrize("call,exc,msg", [
    ("asc2.range(1, 2, 3, 4)", ValueError, "range expects from 1 to 3 arguments, got 4"),
    ("asc2.range(4, unroll_factor='2')", TypeError, "'unroll_factor' argument must be int, got <class 'str'>"),
    ("asc2.range(4, parallel=1)", TypeError, "'parallel' argument must be bool, got <class 'int'>"),
    ("asc2.range(4, unroll_factor=0)", ValueError, "Loop unroll factor must be 1 or greater, got 0"),
])
def test_range_argument_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        eval(call)


def test_loop_variable_is_a_runtime_int32():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [32])
        for i in range(4):
            asc2.store(asc2.full([8], i * 10 + asc2.block_idx(), dtype=asc.int32), o, offsets=[i * 8])
    out = np.zeros(32, np.int32)
    k[1](out)
    np.testing.assert_array_equal(out, np.repeat([0, 10, 20, 30], 8))
    assert "^(%" in k.ir(out) and ": int32):" in k.ir(out)


# -- static_range -----------------------------------------------------------------------------------
def test_static_range_is_unrolled_at_trace_time():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, N: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [N * 16])
        o_gm = asc2.tensor(out_ptr, [N * 16])
        for i in asc.static_range(N):
            # i is a Python int: it can size a tile and index a ConstExpr tuple
            t = asc2.load(x_gm, [16], offsets=[i * 16])
            asc2.store(t * float(i + 1), o_gm, offsets=[i * 16])
    x = randn(48, np.float32)
    out = np.zeros_like(x)
    k[1](x, out, 3)
    np.testing.assert_array_equal(out, x * np.repeat(np.arange(1, 4, dtype=np.float32), 16))
    ir = k.ir(x, out, 3)
    assert "scf.for" not in ir and ir.count("tile.load") == 3


def test_static_range_assignments_persist_and_python_range_of_shapes():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, N: asc.ConstExpr[int]):
        o = asc2.tensor(out_ptr, [32])
        acc = asc2.zeros([32], dtype=asc.float32)
        total = 0
        for i in asc.static_range(1, N + 1):
            acc = acc + float(i)
            total = total + i
        asc2.store(acc + float(total), o, offsets=[0])
    out = np.zeros(32, np.float32)
    k[1](out, 4)
    assert np.all(out == 20)


def test_static_range_needs_compile_time_bounds():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        for i in asc.static_range(n):
            pass
    with pytest.raises(CodegenError, match=re.escape("static_range bounds must be compile-time ints")) as e:
        k[1](np.zeros(4, np.float32), 4)
    assert_reported(e.value, "static_range bounds must be compile-time ints", "asc.static_range(n)")


# -- if -----------------------------------------------------------------------------------------------
def test_compile_time_if_traces_only_the_taken_branch():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, MODE: asc.ConstExpr[int]):
        o = asc2.tensor(out_ptr, [8])
        if MODE == 1:
            v = asc2.full([8], 1.0, dtype=asc.float32)
        elif MODE == 2:
            v = asc2.full([8], 2.0, dtype=asc.float32)
        else:
            v = undefined_name_never_traced  # noqa: F821
        asc2.store(v, o, offsets=[0])
    out = np.zeros(8, np.float32)
    k[1](out, 2)
    assert np.all(out == 2)
    ir = k.ir(out, 1)
    assert "scf.if" not in ir
    with pytest.raises(CodegenError, match="undefined_name_never_traced is not defined"):
        k[1](out, 3)


def test_runtime_if_merges_values_per_block():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, limit: int):
        o = asc2.tensor(out_ptr, [asc2.block_num() * 8])
        b = asc2.block_idx()
        v = asc2.full([8], 0.0, dtype=asc.float32)
        s = b * 1
        if b < limit:
            v = asc2.full([8], 1.0, dtype=asc.float32)
            s = s + 100
        else:
            v = v - 1.0
        asc2.store(v + asc2.full([8], s, dtype=asc.int32).to(asc.float32), o, offsets=[b * 8])
    out = np.zeros(6 * 8, np.float32)
    k[6](out, 2)
    expected = np.array([1 + 100, 1 + 101, -1 + 2, -1 + 3, -1 + 4, -1 + 5], np.float32)
    np.testing.assert_array_equal(out, np.repeat(expected, 8))
    assert "scf.if" in k.ir(out, 2)


def test_runtime_if_without_else_and_names_defined_inside_do_not_escape():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [8])
        if asc2.block_idx() == 0:
            fresh = asc2.full([8], 1.0, dtype=asc.float32)
        asc2.store(fresh, o, offsets=[0])
    with pytest.raises(CodegenError, match=re.escape("fresh is not defined")) as e:
        k[1](np.zeros(8, np.float32))
    assert "fresh is not defined" in str(e.value)
    assert location(e.value)[1] == k.first_line + 4


def test_condition_on_a_tile_is_rejected():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [8]), [8], offsets=[0])
        if x > 0:
            pass
    with pytest.raises(CodegenError, match=re.escape("Condition expression must be evaluated as PlainValue, got <class ")) as e:
        k[1](np.zeros(8, np.float32))
    assert_reported(e.value, "Condition expression must be evaluated as PlainValue, got <class "
                    "'asc.language.tile.tile.Tile'>", "if x > 0:")


def test_if_on_a_reduction_result_is_a_runtime_branch():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [asc2.block_num() * 16])
        o_gm = asc2.tensor(out_ptr, [asc2.block_num() * 16])
        off = asc2.block_idx() * 16
        x = asc2.load(x_gm, [16], offsets=[off])
        y = x
        if asc2.reduce_max(x) > 0:
            y = x * 2.0
        asc2.store(y, o_gm, offsets=[off])
    x = np.concatenate([-np.ones(16), np.ones(16), -np.ones(16)]).astype(np.float32)
    out = np.zeros_like(x)
    k[3](x, out)
    np.testing.assert_array_equal(out, np.concatenate([-np.ones(16), 2 * np.ones(16), -np.ones(16)]))


def test_conditional_expression():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [asc2.block_num() * 8])
        b = asc2.block_idx()
        v = 5 if b > 1 else b
        asc2.store(asc2.full([8], v, dtype=asc.int32), o, offsets=[b * 8])
    out = np.zeros(32, np.int32)
    k[4](out)
    np.testing.assert_array_equal(out, np.repeat([0, 1, 5, 5], 8))


def test_conditional_expression_type_mismatch():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        v = 1.5 if asc2.block_idx() > 1 else asc2.block_idx()
    with pytest.raises(CodegenError, match="Conditional operator has inconsistent result types: float32 / int32"):
        k[1](np.zeros(8, np.float32))


def test_conditional_expression_with_a_compile_time_condition_takes_one_branch():
    # `axis if axis >= 0 else rank + axis` over a ConstExpr stays a Python int, usable as a tuple index and a
    # shape; the branch not taken is not evaluated (here it would index past the tuple)
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, shape: asctile.ConstExpr,
          axis: asctile.ConstExpr):
        x = asctile.global_tensor(x_ptr, shape)
        o = asctile.global_tensor(out_ptr, shape)
        ax = axis if axis >= 0 else len(shape) + axis
        width = shape[ax] if ax < len(shape) else shape[len(shape)]
        asctile.copy_out(asctile.copy_in(x, [0, 0], [shape[0], width]) * 2.0, o, [0, 0])
    x = np.arange(4 * 16, dtype=np.float32).reshape(4, 16)
    for axis in (1, -1):
        out = np.zeros_like(x)
        k[1](x, out, (4, 16), axis)
        np.testing.assert_array_equal(out, 2 * x)


# -- while ------------------------------------------------------------------------------------------
def test_while_loop_with_carried_values():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        o = asc2.tensor(out_ptr, [asc2.block_num() * 8])
        i = asc2.block_idx() * 1
        acc = asc2.zeros([8], dtype=asc.int32)
        while i < n:
            acc = acc + i
            i = i + 1
        asc2.store(acc, o, offsets=[asc2.block_idx() * 8])
    out = np.zeros(4 * 8, np.int32)
    k[4](out, 5)
    np.testing.assert_array_equal(out, np.repeat([sum(range(b, 5)) for b in range(4)], 8))
    assert "scf.while" in k.ir(out, 5)


def test_while_else_and_tile_condition_are_rejected():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        t = asc2.zeros([8], dtype=asc.int32)
        while t < 3:
            t = t + 1
    with pytest.raises(CodegenError, match="Condition expression must be evaluated as PlainValue"):
        k[1](np.zeros(8, np.float32))


# -- carried variables ----------------------------------------------------------------------------
@asc2.jit
def literal_seed_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int):
    x_gm = asc2.tensor(x_ptr, [n_tiles * 64])
    o_gm = asc2.tensor(out_ptr, [8])
    acc = 0.0
    for i in asc2.range(n_tiles):
        acc = acc + asc2.reduce_sum(asc2.load(x_gm, [64], offsets=[i * 64]))
    asc2.store(asc2.full([8], acc, dtype=asc.float32), o_gm, offsets=[0])


def test_carried_literal_reassigned_to_a_scalar_message():
    with pytest.raises(CodegenError, match=re.escape("'acc' was re-assigned to an object with different type: initial type is ")) as e:
        literal_seed_kernel[1](np.zeros(128, np.float32), np.zeros(8, np.float32), 2)
    # Reported at the loop that carries 'acc'; the context shows the re-assignment below it.
    assert_reported(e.value, "'acc' was re-assigned to an object with different type: initial type is "
                    "float, new type is PlainValue",
                    "for i in asc2.range(n_tiles):")
    assert "acc = acc + asc2.reduce_sum(" in str(e.value)
    assert "asc2.reduce_sum(asc2.full(" in str(e.value).split("hint: ")[1]  # the fix names the seed


def test_carried_scalar_seeded_with_a_reduction_runs():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int):
        x_gm = asc2.tensor(x_ptr, [n_tiles * 64])
        o_gm = asc2.tensor(out_ptr, [8])
        acc = asc2.reduce_sum(asc2.full([1, 64], 0.0, dtype=asc.float32))
        m = asc.number(-1000.0, asc.float32)
        for i in asc2.range(n_tiles, unroll_factor=2):
            t = asc2.load(x_gm, [64], offsets=[i * 64])
            acc = acc + asc2.reduce_sum(t)
            m = asc2.reduce_max(asc2.maximum(t, m))
        asc2.store(asc2.full([8], acc, dtype=asc.float32), o_gm, offsets=[0])
        asc2.store(asc2.full([1], m, dtype=asc.float32), o_gm, offsets=[7])
    x = randn(5 * 64, np.float32)
    out = np.zeros(8, np.float32)
    k[1](x, out, 5)
    np.testing.assert_allclose(out[:7], x.sum(), rtol=1e-5)
    assert out[7] == x.max()


def test_carried_tile_through_a_runtime_loop():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int):
        x_gm = asc2.tensor(x_ptr, [n_tiles, 32])
        o_gm = asc2.tensor(out_ptr, [1, 32])
        acc = asc2.zeros([1, 32], dtype=asc.float32)
        for i in range(n_tiles):
            acc = acc + asc2.load(x_gm, [1, 32], offsets=[i, 0])
        asc2.store(acc, o_gm, offsets=[0, 0])
    x = randn((6, 32), np.float32)
    out = np.zeros((1, 32), np.float32)
    k[1](x, out, 6)
    np.testing.assert_allclose(out[0], x.sum(axis=0), rtol=1e-5)


def test_carried_python_int_becomes_a_runtime_value():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [asc2.block_num() * 8])
        v = 1
        if asc2.block_idx() > 1:
            v = 7
        asc2.store(asc2.full([8], v, dtype=asc.int32), o, offsets=[asc2.block_idx() * 8])
    out = np.zeros(32, np.int32)
    k[4](out)
    np.testing.assert_array_equal(out, np.repeat([1, 1, 7, 7], 8))


def test_carried_python_int_updated_with_runtime_arithmetic_is_rejected():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        count = 0
        for i in range(n):
            count = count + 2
    with pytest.raises(CodegenError, match="'count' was re-assigned to an object with different type: initial type "
                                           "is int, new type is PlainValue\n"):
        k[1](np.zeros(8, np.int32), 7)


def test_carried_tile_changing_dtype_is_rejected():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        acc = asc2.zeros([8], dtype=asc.float32)
        for i in range(n):
            acc = acc.to(asc.float16)
    with pytest.raises(CodegenError, match="'acc'") as e:
        k[1](np.zeros(8, np.float32), 2)
    assert "'acc'" in str(e.value) and "float32" in str(e.value) and "float16" in str(e.value)


def test_parallel_loop_with_a_carried_scalar_runs_in_order_and_warns():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n * 64])
        acc = asc2.reduce_sum(asc2.full([64], 0.0, dtype=asc.float32))
        for i in asc2.range(n, parallel=True):
            acc = acc * 0.5 + asc2.reduce_sum(asc2.load(x_gm, [64], offsets=[i * 64]))
        asc2.store(acc, asc2.tensor(out_ptr, [1]), offsets=[0])
    x = np.arange(3 * 64, dtype=np.float32) / 64
    out = np.zeros(1, np.float32)
    k[1](x, out, 3)
    expect = 0.0
    for i in range(3):  # order matters: each trip halves what the earlier trips summed
        expect = expect * 0.5 + x[i * 64:(i + 1) * 64].astype(np.float64).sum()
    np.testing.assert_allclose(out[0], expect, rtol=1e-6)
    line = inspect.getsourcelines(k.fn)[1] + 4
    (w,) = [w for w in k.last_launch["warnings"] if "carries" in w]
    assert f":{line}: loop with parallel=True carries 'acc'" in w and "drop parallel=True" in w


def test_names_defined_inside_a_runtime_loop_do_not_escape():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        o = asc2.tensor(out_ptr, [8])
        for i in range(n):
            inner = asc2.full([8], 1.0, dtype=asc.float32)
        asc2.store(inner, o, offsets=[0])
    with pytest.raises(CodegenError, match="inner is not defined"):
        k[1](np.zeros(8, np.float32), 2)


# -- with asc2.mask ---------------------------------------------------------------------------------
def test_mask_count_region_and_names_not_escaping():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, count: int):
        x_gm = asc2.tensor(x_ptr, [64])
        o_gm = asc2.tensor(out_ptr, [64])
        x = asc2.load(x_gm, [64], offsets=[0])
        y = x
        with asc2.mask(count=count, other=-1.0):
            y = x * 2.0
        asc2.store(y, o_gm, offsets=[0])
    x = randn(64, np.float32)
    out = np.zeros_like(x)
    k[1](x, out, 20)
    # The assignment inside the with-block does not survive it (pyasc's nested scope): y is x.
    np.testing.assert_array_equal(out, x)

    @asc2.jit
    def k2(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, count: int):
        x_gm = asc2.tensor(x_ptr, [64])
        o_gm = asc2.tensor(out_ptr, [64])
        x = asc2.load(x_gm, [64], offsets=[0])
        with asc2.mask(count=count, other=-1.0):
            asc2.store(x * 2.0, o_gm, offsets=[0])
    k2[1](x, out, 20)
    np.testing.assert_array_equal(out[:20], x[:20] * 2)
    np.testing.assert_array_equal(out[20:], -1.0)


def test_mask_bits_region():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [64])
        o_gm = asc2.tensor(out_ptr, [64])
        x = asc2.load(x_gm, [64], offsets=[0])
        with asc2.mask(bits=(0, 0b1011)):
            asc2.store(x + 1.0, o_gm, offsets=[0])
    x = randn(64, np.float32)
    out = np.full_like(x, 9)
    k[1](x, out)
    expected = np.zeros(64, np.float32)
    expected[[0, 1, 3]] = x[[0, 1, 3]] + 1
    np.testing.assert_array_equal(out, expected)


def test_mask_bits_cover_one_256_byte_repeat_low_word_then_high_word():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, N: asc.ConstExpr[int]):
        x = asc2.load(asc2.tensor(x_ptr, [N]), [N], offsets=[0])
        with asc2.mask(bits=(0b101, 0b11), other=7.0):
            asc2.store(x + 1.0, asc2.tensor(out_ptr, [N]), offsets=[0])
    x = np.zeros(256, np.float16)     # 128 float16 lanes per repeat: low word 0..63, high word 64..127
    out = np.zeros_like(x)
    k[1](x, out, 256)
    np.testing.assert_array_equal(np.nonzero(out == 1)[0], [0, 1, 64, 66, 128, 129, 192, 194])
    assert np.all(out[out != 1] == 7)
    x = np.zeros(128, np.float32)     # 64 float32 lanes per repeat: the low word only
    out = np.zeros_like(x)
    k[1](x, out, 128)
    np.testing.assert_array_equal(np.nonzero(out == 1)[0], [0, 1, 64, 65])


@pytest.mark.parametrize("hi,lo,lanes", [(-(2 ** 63), 0, [127]), (2 ** 62, 0, [126]), (0, -(2 ** 63), [63]),
                                         (1, 1 << 62, [62, 64])], ids=["hi-63", "hi-62", "lo-63", "lo-62+hi-0"])
def test_mask_bits_reach_the_top_bit_of_each_word(hi, lo, lanes):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, HI: asc.ConstExpr[int], LO: asc.ConstExpr[int]):
        x = asc2.load(asc2.tensor(x_ptr, [128]), [128], offsets=[0])
        with asc2.mask(bits=(HI, LO), other=7.0):
            asc2.store(x + 1.0, asc2.tensor(out_ptr, [128]), offsets=[0])
    out = np.zeros(128, np.float16)               # 128 float16 lanes: low word 0..63, high word 64..127
    k[1](np.zeros(128, np.float16), out, hi, lo)
    np.testing.assert_array_equal(np.nonzero(out == 1)[0], lanes)


@pytest.mark.parametrize("kwargs,exc,msg", [
    ({}, ValueError, "One of 'count', 'bits' must be provided"),
    ({"bits": (1, 2, 3)}, RuntimeError, "Expected two integers in 'bits', got 3"),
])
def test_mask_argument_errors(kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        asc2.mask(**kwargs)


def test_with_needs_a_mask_and_one_item():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        with asc2.mask(count=4), asc2.mask(count=2):
            pass
    with pytest.raises(CodegenError, match="Only one item in with-statement is supported"):
        k[1](np.zeros(8, np.float32))


# -- assert -------------------------------------------------------------------------------------------
@asc2.jit
def assert_kernel(out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
    assert T % 8 == 0, f"T must be a multiple of 8, got {T}"
    o = asc2.tensor(out_ptr, [T])
    asc2.store(asc2.full([T], 1.0, dtype=asc.float32), o, offsets=[0])


def test_assert_on_compile_time_values():
    out = np.zeros(16, np.float32)
    assert_kernel[1](out, 16)
    assert np.all(out == 1)
    with pytest.raises(CodegenError, match=re.escape("AssertionError: T must be a multiple of 8, got 12")) as e:
        assert_kernel[1](out, 12)
    assert_reported(e.value, "AssertionError: T must be a multiple of 8, got 12", "assert T % 8 == 0", hint=False)


def test_assert_without_message_and_on_runtime_value():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
        assert T > 100
    with pytest.raises(CodegenError, match="ValueError: miss message"):
        k[1](np.zeros(8, np.float32), 8)

    @asc2.jit
    def k2(out_ptr: asc.GlobalAddress, n: int):
        assert n > 0, "positive"
    with pytest.raises(CodegenError, match=re.escape("An assertion turned out to test a runtime value")) as e:
        k2[1](np.zeros(8, np.float32), 8)
    assert_reported(e.value, "An assertion turned out to test a runtime value", "assert n > 0")
    assert "only compile-time values are supported" in str(e.value)


# -- the source analyses' list of a tree's nodes -------------------------------------------------------------------
def test_a_trees_kept_node_list_is_ast_walks_order_and_made_once():
    """The dialect reads the first tile-module alias in ``ast.walk``'s order (breadth first): the kept list
    must be that order (a depth-first list would meet a nested call's alias first), every node once."""
    import ast
    from asc.frontend.syntax_nodes import nodes_of
    tree = ast.parse(inspect.getsource(row_sums_kernel.fn)).body[0]
    got = nodes_of(tree)
    want = list(ast.walk(tree))
    assert len(got) == len(want) and all(g is w for g, w in zip(got, want))
    assert nodes_of(tree) is got

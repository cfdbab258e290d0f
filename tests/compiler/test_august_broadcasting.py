"""Implicit broadcasting of the August binary ops (pyasc-dev: operands are cast to a common dtype and
broadcast to a common shape with NumPy's rule), and April's rejection of the same kernels (pyasc
``7065cd7`` has no implicit broadcasting)."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import randn


def raises(exc, text):
    return pytest.raises(exc, match=re.escape(text))


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


@asctile.jit
def row_col(x_ptr: asctile.GlobalAddress, r_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
            out_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr, cols: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [rows, cols]), [0, 0], [rows, cols])
    r = asctile.copy_in(asctile.global_tensor(r_ptr, [rows]), [0], [rows]).reshape(rows, 1)
    c = asctile.copy_in(asctile.global_tensor(c_ptr, [cols]), [0], [cols])
    y = (x - r) * c.reshape(1, cols) + c  # [R, C] - [R, 1], * [1, C], + [C] (rank padded on the left)
    asctile.copy_out(asctile.maximum(y, r) / r, asctile.global_tensor(out_ptr, [rows, cols]), [0, 0])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_rows_columns_and_lower_rank_operands_broadcast_like_numpy(dtype):
    x, r, c = randn((8, 64), dtype, seed=1), randn(8, dtype, seed=2) + 3, randn(64, dtype, seed=3)
    out = np.zeros_like(x)
    row_col[1](x, r, c, out, 8, 64)
    f = np.float32
    y = ((x.astype(f) - r[:, None].astype(f)).astype(dtype).astype(f) * c.astype(f)).astype(dtype).astype(f)
    y = (y + c.astype(f)).astype(dtype).astype(f)
    expected = (np.maximum(y, r[:, None].astype(f)).astype(dtype).astype(f) / r[:, None].astype(f)).astype(dtype)
    np.testing.assert_array_equal(out, expected)


def test_a_broadcast_operand_costs_one_broadcast_op_like_an_explicit_broadcast_to():
    @asctile.jit
    def implicit(x_ptr: asctile.GlobalAddress, r_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
        r = asctile.copy_in(asctile.global_tensor(r_ptr, [8]), [0], [8]).reshape(8, 1)
        asctile.copy_out(x * r, asctile.global_tensor(out_ptr, [8, 64]), [0, 0])

    @asctile.jit
    def explicit(x_ptr: asctile.GlobalAddress, r_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
        r = asctile.copy_in(asctile.global_tensor(r_ptr, [8]), [0], [8]).reshape(8, 1)
        asctile.copy_out(x * r.broadcast_to(8, 64), asctile.global_tensor(out_ptr, [8, 64]), [0, 0])

    x, r = randn((8, 64), np.float32), randn(8, np.float32, seed=4)
    outs = []
    for k in (implicit, explicit):
        out = np.zeros_like(x)
        k[1](x, r, out)
        outs.append(out)
    np.testing.assert_array_equal(outs[0], x * r[:, None])
    np.testing.assert_array_equal(outs[0], outs[1])
    assert implicit.last_launch["ticks"] == explicit.last_launch["ticks"]
    ops = [op.name for op in implicit.compile((x, r, x), {})[0].fn.body.ops]
    assert ops.count("tile.broadcast") == 1


def test_both_operands_broadcast_and_comparisons_broadcast_too():
    @asctile.jit
    def outer(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
              m_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [16]), [0], [16]).reshape(16, 1)
        b = asctile.copy_in(asctile.global_tensor(b_ptr, [32]), [0], [32]).reshape(1, 32)
        asctile.copy_out(a + b, asctile.global_tensor(out_ptr, [16, 32]), [0, 0])
        asctile.copy_out(asctile.where(a > b, 1.0, 0.0), asctile.global_tensor(m_ptr, [16, 32]), [0, 0])

    a, b = randn(16, np.float32, seed=5), randn(32, np.float32, seed=6)
    out, m = np.zeros((16, 32), np.float32), np.zeros((16, 32), np.float32)
    outer[1](a, b, out, m)
    np.testing.assert_array_equal(out, a[:, None] + b[None, :])
    np.testing.assert_array_equal(m, (a[:, None] > b[None, :]).astype(np.float32))


def test_where_broadcasts_its_sources_to_the_mask_in_august():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, r_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
        r = asctile.copy_in(asctile.global_tensor(r_ptr, [8]), [0], [8]).reshape(8, 1)
        asctile.copy_out(asctile.where(x > 0, x, r), asctile.global_tensor(out_ptr, [8, 64]), [0, 0])

    x, r = randn((8, 64), np.float32, seed=7), randn(8, np.float32, seed=8)
    out = np.zeros_like(x)
    k[1](x, r, out)
    np.testing.assert_array_equal(out, np.where(x > 0, x, r[:, None]))


def test_mixed_dtypes_are_cast_before_broadcasting():
    @asctile.jit
    def k2(x_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])  # float32
        c = asctile.copy_in(asctile.global_tensor(c_ptr, [64]), [0], [64])            # float16
        asctile.copy_out(x + c, asctile.global_tensor(out_ptr, [8, 64]), [0, 0])

    x, c = randn((8, 64), np.float32, seed=9), randn(64, np.float16, seed=10)
    out = np.zeros_like(x)
    k2[1](x, c, out)
    np.testing.assert_array_equal(out, x + c.astype(np.float32))


def test_shapes_that_do_not_broadcast_are_rejected_with_upstreams_text_and_line():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, shape_a: asctile.ConstExpr, shape_b: asctile.ConstExpr):
        x_gm = asctile.global_tensor(x_ptr, [8, 64])
        a = asctile.zeros(shape_a, asctile.float32)
        b = asctile.zeros(shape_b, asctile.float32)
        asctile.copy_out(a * b, x_gm, [0, 0])

    x = np.zeros((8, 64), np.float32)
    with raises(CodegenError, "RuntimeError: Shapes are not broadcastable: (8, 64) vs. (8, 32)") as e:
        k[1](x, (8, 64), (8, 32))
    assert f":{line_of(k, 'a * b')}:" in str(e.value)
    with raises(CodegenError, "RuntimeError: Shapes are not broadcastable: (4, 64) vs. (8, 1)"):
        k[1](x, (4, 64), (8, 1))
    with raises(CodegenError, "RuntimeError: Shapes are not broadcastable: (2, 8, 64) vs. (3, 1, 64)"):
        k[1](x, (2, 8, 64), (3, 1, 64))


def test_where_source_that_does_not_broadcast_to_the_mask_uses_upstreams_text():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
        asctile.where(x > 0, x, asctile.zeros([8, 32], asctile.float32))

    with raises(CodegenError, "RuntimeError: Cannot broadcast tensor with shape (8, 32) to (8, 64)"):
        k[1](np.zeros((8, 64), np.float32))


def test_april_kernels_still_reject_tiles_of_different_shapes():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [8, 64]), [8, 64], offsets=[0, 0])
        r = asc2.load(asc2.tensor(x_ptr, [512]), [8], offsets=[0]).reshape(8, 1)
        asc2.store(x - r, asc2.tensor(out_ptr, [8, 64]), offsets=[0, 0])

    x = np.zeros((8, 64), np.float32)
    with raises(CodegenError, "RuntimeError: Shape mismatch: [8, 64] vs. [8, 1]") as e:
        k[1](x, x.copy())
    assert "broadcast_to" in str(e.value)


def test_broadcast_to_takes_a_sequence_in_august_only():
    @asctile.jit
    def august(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        r = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(r.broadcast_to([4, 64]), asctile.global_tensor(out_ptr, [4, 64]), [0, 0])

    @asc2.jit
    def april(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        r = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(r.broadcast_to([4, 64]), asc2.tensor(out_ptr, [4, 64]), offsets=[0, 0])

    x = randn(64, np.float32, seed=11)
    out = np.zeros((4, 64), np.float32)
    august[1](x, out)
    np.testing.assert_array_equal(out, np.broadcast_to(x, (4, 64)))
    with raises(CodegenError, "All values in 'shape' must be integers"):
        april[1](x, out)


def test_august_binary_ops_check_pyasc_devs_dtypes_and_april_keeps_its_own():
    @asctile.jit
    def add8(x_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
        asctile.copy_out(x + 1, asctile.global_tensor(x_ptr, [1, 64]), [0, 0])

    @asctile.jit
    def cmp8(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
        y = asctile.where(x > 3, 1.0, 0.0)
        asctile.copy_out(y, asctile.global_tensor(out_ptr, [1, 64]), [0, 0])

    @asc2.jit
    def add8_april(x_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(x + 1, asc2.tensor(x_ptr, [64]), offsets=[0])

    x = np.arange(64, dtype=np.int8).reshape(1, 64)
    with raises(CodegenError, "RuntimeError: 'input' dtype must be one of int16, int32, int64, float16, bfloat16, "
                              "float32, got int8") as e:
        add8[1](x)
    assert f":{line_of(add8, 'x + 1')}:" in str(e.value)
    out = np.zeros((1, 64), np.float32)
    cmp8[1](x, out)  # comparisons take int8
    np.testing.assert_array_equal(out, (x > 3).astype(np.float32))
    y = x.reshape(64).copy()
    add8_april[1](y)  # pyasc 7065cd7 adds int8 tiles
    np.testing.assert_array_equal(y, np.arange(64, dtype=np.int8) + 1)

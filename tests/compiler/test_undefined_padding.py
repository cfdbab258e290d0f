"""Undefined padding: a copy_in with ``pad_value=None`` leaves its window's tail outside the tensor
undefined. The launch report warns where an undefined element is used in a way that reaches a result
(a store inside the tensor, a reduction mixing it into defined elements), at that op's line and naming
the load's line -- not at the load, so tail tiles that only go through element-wise ops to a clipped
store run clean."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc2
from asc.runtime import last_launch_report

TILE = 16


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def warnings():
    return last_launch_report()["warnings"]


def undefined_warnings():
    return [w for w in warnings() if "undefined" in w]


def assert_warns_at(kernel, use_text, load_text, what):
    ws = undefined_warnings()
    use, load = line_of(kernel, use_text), line_of(kernel, load_text)
    hits = [w for w in ws if f".py:{use}:" in w.split(" ")[0] and what in w]
    assert hits, ws
    assert f".py:{load}:" in hits[0] and "pass pad_value=..., or real_shape" in hits[0], hits[0]
    assert not any(f".py:{load}:" in w.split(" ")[0] for w in ws), "the load itself is not reported"


@asc2.jit
def abs_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    off = asc2.block_idx() * TILE
    x = asc2.copy_in(x_gm, [off], [TILE])
    asc2.copy_out(asc2.abs(x) * 2.0 + 1.0, out_gm, [off])


def test_a_tail_tile_through_elementwise_ops_to_a_clipped_store_runs_clean():
    x = np.linspace(-3, 3, 37).astype(np.float32)
    out = np.zeros_like(x)
    abs_tail[3](x, out, x.size)
    np.testing.assert_allclose(out, np.abs(x) * 2 + 1)
    assert warnings() == []


@asc2.jit
def sum_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [asc2.block_num() * 8])
    off = asc2.block_idx() * TILE
    x = asc2.copy_in(x_gm, [off], [TILE])
    s = asc2.reduce_sum(x)
    asc2.copy_out(asc2.full([8], s, dtype=asc2.float32), out_gm, [asc2.block_idx() * 8])


def test_a_reduction_over_the_tail_warns_at_the_reduction_naming_the_load():
    x = np.ones(37, np.float32)
    out = np.zeros(3 * 8, np.float32)
    sum_tail[3](x, out, x.size)
    assert_warns_at(sum_tail, "s = asc2.reduce_sum(x)", "x = asc2.copy_in(x_gm",
                    "reduce_all(sum) reads 11 undefined element(s)")


def test_a_reduction_of_full_tiles_runs_clean():
    x = np.ones(48, np.float32)
    out = np.zeros(3 * 8, np.float32)
    sum_tail[3](x, out, x.size)
    np.testing.assert_array_equal(out, np.repeat([16, 16, 16], 8))
    assert warnings() == []


@asc2.jit
def shifted_store(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, m: int, shift: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [m])
    off = asc2.block_idx() * TILE
    x = asc2.copy_in(x_gm, [off], [TILE])
    y = asc2.exp(x)
    asc2.copy_out(y, out_gm, [off + shift])


def test_an_undefined_element_stored_inside_the_tensor_warns_at_the_store():
    x = np.zeros(37, np.float32)
    out = np.zeros(64, np.float32)
    shifted_store[3](x, out, x.size, out.size, 4)   # the last tile's 11-element tail lands in out[41:52]
    assert_warns_at(shifted_store, "asc2.copy_out(y, out_gm", "x = asc2.copy_in(x_gm",
                    "writes 11 undefined element(s) inside the tensor")


def test_a_shifted_store_whose_undefined_part_is_clipped_does_not_warn_of_it():
    x = np.zeros(37, np.float32)
    out = np.zeros(40, np.float32)
    shifted_store[3](x, out, x.size, out.size, 3)   # the tail starts at out[40]: outside the tensor
    np.testing.assert_array_equal(out[3:], 1.0)
    assert not undefined_warnings()   # (out[0:3] is not covered: that warning is another check's)


@asc2.jit
def select_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, defined_side: asc2.ConstExpr[bool]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [asc2.block_num() * 8])
    off = asc2.block_idx() * TILE
    x = asc2.copy_in(x_gm, [off], [TILE])
    inside = asc2.copy_in(x_gm, [off], [TILE], pad_value=-1.0) >= 0.0
    if defined_side:
        y = asc2.where(inside, x, 0.0)
    else:
        y = asc2.where(inside, 0.0, x)
    s = asc2.reduce_sum(y)
    asc2.copy_out(asc2.full([8], s, dtype=asc2.float32), out_gm, [asc2.block_idx() * 8])


def test_where_selecting_the_defined_side_runs_clean():
    x = np.ones(37, np.float32)
    out = np.zeros(3 * 8, np.float32)
    select_tail[3](x, out, x.size, True)
    np.testing.assert_array_equal(out, np.repeat([16, 16, 5], 8))
    assert warnings() == []


def test_where_selecting_the_undefined_side_warns_where_it_is_combined():
    x = np.ones(37, np.float32)
    out = np.zeros(3 * 8, np.float32)
    select_tail[3](x, out, x.size, False)
    assert_warns_at(select_tail, "s = asc2.reduce_sum(y)", "x = asc2.copy_in(x_gm", "reads 11 undefined element(s)")
    assert len(undefined_warnings()) == 1


@asc2.jit
def padded_sum(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, how: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [asc2.block_num() * 8])
    off = asc2.block_idx() * TILE
    if how == 0:
        x = asc2.copy_in(x_gm, [off], [TILE], pad_value=0.0)
    else:
        k = asc2.number(TILE, asc2.int32)
        if n - off < TILE:
            k = n - off
        x = asc2.copy_in(x_gm, [off], [TILE], real_shape=[k])
    asc2.copy_out(asc2.full([8], asc2.reduce_sum(x), dtype=asc2.float32), out_gm, [asc2.block_idx() * 8])


@pytest.mark.parametrize("how", [0, 1], ids=["pad_value", "real_shape"])
def test_with_pad_value_or_real_shape_nothing_warns(how):
    x = np.ones(37, np.float32)
    out = np.zeros(3 * 8, np.float32)
    padded_sum[3](x, out, x.size, how)
    np.testing.assert_array_equal(out, np.repeat([16, 16, 5], 8))
    assert warnings() == []


@asc2.jit
def row_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, axis: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, TILE])
    r = asc2.block_idx() * 4
    x = asc2.copy_in(x_gm, [r, 0], [4, TILE])
    if axis == 1:
        out_gm = asc2.global_tensor(out_ptr, [rows, 8])
        s = asc2.reduce_sum(x, 1, keep_dims=True)
        k = asc2.number(4, asc2.int32)
        if rows - r < 4:
            k = rows - r
        asc2.copy_out(asc2.broadcast_to(s, [4, 8]), out_gm, [r, 0], real_shape=[k, 8])
    else:
        out_gm = asc2.global_tensor(out_ptr, [asc2.block_num(), TILE])
        s = asc2.reduce_sum(x, 0, keep_dims=True)
        asc2.copy_out(s, out_gm, [asc2.block_idx(), 0])


def test_row_sums_of_a_tile_whose_tail_rows_are_undefined_run_clean():
    x = np.arange(6 * TILE, dtype=np.float32).reshape(6, TILE)
    out = np.zeros((6, 8), np.float32)
    row_tail[2](x, out, 6, 1)   # block 1: rows 4..7, rows 6 and 7 outside the tensor
    np.testing.assert_allclose(out, np.repeat(x.sum(axis=1, keepdims=True), 8, axis=1))
    assert warnings() == []


def test_column_sums_mixing_the_tail_rows_in_warn():
    x = np.ones((6, TILE), np.float32)
    out = np.zeros((2, TILE), np.float32)
    row_tail[2](x, out, 6, 0)
    ws = undefined_warnings()
    line = line_of(row_tail, "s = asc2.reduce_sum(x, 0")
    assert len(ws) == 1 and f".py:{line}:" in ws[0].split(" ")[0] and "reads 32 undefined element(s)" in ws[0], ws


@asc2.jit
def softmax_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, rows: int, cols: asc2.ConstExpr[int]):
    x_gm = asc2.global_tensor(x_ptr, [rows, cols])
    out_gm = asc2.global_tensor(out_ptr, [rows, cols])
    r = asc2.block_idx() * 4
    x = asc2.copy_in(x_gm, [r, 0], [4, TILE])
    y = asc2.softmax(x)
    k = asc2.number(4, asc2.int32)
    if rows - r < 4:
        k = rows - r
    asc2.copy_out(y, out_gm, [r, 0], real_shape=[k, cols])


def test_softmax_of_a_tile_whose_tail_rows_are_undefined_runs_clean():
    x = np.random.default_rng(0).standard_normal((6, TILE)).astype(np.float32)
    out = np.zeros_like(x)
    softmax_tail[2](x, out, 6, TILE)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5)
    assert warnings() == []


def test_softmax_over_rows_with_undefined_columns_warns_at_the_softmax():
    x = np.zeros((6, 8), np.float32)   # a 16-wide tile over 8-element rows: columns 8..15 undefined
    out = np.zeros_like(x)
    softmax_tail[2](x, out, 6, 8)
    assert_warns_at(softmax_tail, "y = asc2.softmax(x)", "x = asc2.copy_in(x_gm", "softmax reads")


@asc2.jit
def diverging(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [asc2.block_num() * 8])
    off = asc2.block_idx() * TILE
    x = asc2.copy_in(x_gm, [off], [TILE])
    y = x
    if asc2.block_idx() == 2:
        y = x * 2.0
    else:
        y = x + 1.0
    s = asc2.reduce_sum(y)
    asc2.copy_out(asc2.full([8], s, dtype=asc2.float32), out_gm, [asc2.block_idx() * 8])


def test_undefined_elements_are_followed_through_a_branch_the_blocks_take_differently():
    x = np.ones(37, np.float32)
    out = np.zeros(3 * 8, np.float32)
    diverging[3](x, out, x.size)   # block 2 (the tail tile) takes the other branch than blocks 0 and 1
    assert_warns_at(diverging, "s = asc2.reduce_sum(y)", "x = asc2.copy_in(x_gm", "reads 11 undefined element(s)")
    np.testing.assert_array_equal(out[:16], 32.0)

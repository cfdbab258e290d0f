"""A store of the fresh result of one element-wise op computes it straight into the destination window
when that gives the same memory as computing then copying, and steps aside everywhere else."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.runtime.launcher import KernelRuntimeError
from asc.sim.ops.arith import FreshBinary

from kernel_checks import randn


@pytest.fixture
def into_calls(monkeypatch):
    """Every FreshBinary.into call's answer (True: computed into the destination)."""
    calls = []
    real = FreshBinary.into

    def spy(self, out):
        done = real(self, out)
        calls.append(done)
        return done
    monkeypatch.setattr(FreshBinary, "into", spy)
    return calls


@asc2.jit
def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
               TILE: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    y_gm = asc2.tensor(y_ptr, [size])
    o_gm = asc2.tensor(out_ptr, [size])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(size, TILE), asc2.block_num(), parallel=True):
        x = asc2.load(x_gm, [TILE], offsets=[i * TILE])
        y = asc2.load(y_gm, [TILE], offsets=[i * TILE])
        asc2.store(x - y, o_gm, offsets=[i * TILE])


@pytest.mark.parametrize("checks", ["on", "off"])
def test_a_plain_store_of_a_fresh_difference_is_computed_into_the_output(checks, into_calls, monkeypatch):
    monkeypatch.setenv("ASC_CHECKS", checks)
    x, y = randn(4096, np.float32, seed=1), randn(4096, np.float32, seed=2)
    out = np.full_like(x, np.nan)
    add_kernel[4](x, y, out, 4096, 256)
    np.testing.assert_array_equal(out, x - y)
    assert into_calls and all(into_calls)


def test_an_output_updated_in_place_gets_the_same_values(into_calls):
    x, y = randn(2048, np.float32, seed=3), randn(2048, np.float32, seed=4)
    expected = x - y
    add_kernel[4](x, y, x, 2048, 256)     # x = x - y: the output is also an operand's buffer
    np.testing.assert_array_equal(x, expected)


def test_a_destination_sharing_memory_with_an_operand_is_computed_then_copied():
    a = np.arange(16, dtype=np.float32)
    b = np.ones(16, np.float32)
    fresh = FreshBinary("add", a[None, :8].reshape(1, 1, 8), b[None, :8].reshape(1, 1, 8), np.dtype(np.float32),
                        (1, 1, 8))
    assert not fresh.into(a[4:12].reshape(1, 1, 8))      # overlaps the first operand: left to the copy path
    np.testing.assert_array_equal(a, np.arange(16, dtype=np.float32))
    assert fresh.into(np.empty((1, 1, 8), np.float32))
    assert not fresh.into(np.empty((1, 1, 8), np.float64))  # another dtype: a cast, not this op's rounding


def test_a_clipped_tail_leaves_the_memory_past_the_tensor_alone(into_calls):
    x, y = randn(1000, np.float32, seed=5), randn(1000, np.float32, seed=6)
    out = np.full(1024, -7.0, np.float32)
    add_kernel[4](x, y, out, 1000, 256)   # the last tile has 232 of its 256 elements inside the tensor
    np.testing.assert_array_equal(out[:1000], x - y)
    np.testing.assert_array_equal(out[1000:], -7.0)


@asc2.jit
def real_shape_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, valid: int, TILE: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [TILE])
    o_gm = asc2.tensor(out_ptr, [TILE])
    x = asc2.load(x_gm, [TILE], offsets=[0])
    asc2.store(x * x, o_gm, offsets=[0], real_shape=[valid])


def test_a_store_with_real_shape_writes_only_its_part(into_calls):
    x = randn(64, np.float32, seed=7)
    out = np.full(64, -7.0, np.float32)
    real_shape_kernel[1](x, out, 40, 64)
    np.testing.assert_array_equal(out[:40], x[:40] * x[:40])
    np.testing.assert_array_equal(out[40:], -7.0)
    assert into_calls == []


@asc2.jit
def same_window_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, TILE: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [TILE * asc2.block_num()])
    o_gm = asc2.tensor(out_ptr, [TILE])
    x = asc2.load(x_gm, [TILE], offsets=[asc2.block_idx() * TILE])
    asc2.store(x + x, o_gm, offsets=[0])  # every block writes the same window


def test_a_racing_store_is_reported_before_anything_is_written(into_calls):
    x = randn(256, np.float32, seed=8)
    out = np.full(64, -7.0, np.float32)
    with pytest.raises(KernelRuntimeError, match="two blocks write the same elements|overlaps elements written"):
        same_window_kernel[4](x, out, 64)
    np.testing.assert_array_equal(out, -7.0)
    assert into_calls == []


@asc2.jit
def half_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, TILE: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [TILE])
    o_gm = asc2.tensor(out_ptr, [TILE])
    x = asc2.load(x_gm, [TILE], offsets=[0])
    asc2.store(x + x, o_gm, offsets=[0])


def test_a_narrow_float_op_keeps_its_float32_computation_and_one_rounding(into_calls):
    x = randn(64, np.float16, seed=9, scale=1000.0)
    out = np.zeros_like(x)
    half_kernel[1](x, out, 64)
    np.testing.assert_array_equal(out, (x.astype(np.float32) * 2).astype(np.float16))
    assert into_calls == []


@asc2.jit
def scaled_rows_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int],
                       REVERSE: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [rows, C])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        x = asc2.load(x_gm, [1, C], offsets=[r, 0])
        s = asc2.reduce_max(x)               # one scalar per row (per lane)
        if REVERSE:
            asc2.store(asc2.sub(s, x), o_gm, offsets=[r, 0])   # the scalar on the left
        else:
            asc2.store(x / 4.0 * s, o_gm, offsets=[r, 0])


@pytest.mark.parametrize("reverse", [False, True])
def test_a_store_of_a_tile_scaled_by_a_per_row_scalar_is_computed_into_the_output(reverse, into_calls):
    x = randn((37, 64), np.float32, seed=10)
    out = np.full_like(x, np.nan)
    scaled_rows_kernel[5](x, out, 37, 64, reverse)
    m = x.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(out, m - x if reverse else x / np.float32(4.0) * m)
    assert into_calls and all(into_calls)


@asc2.jit
def copy_out_rows_kernel(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, o_ptr: asc2.GlobalAddress, n: int):
    x = asc2.global_tensor(x_ptr, [n, 64])
    y = asc2.global_tensor(y_ptr, [n, 64])
    o = asc2.global_tensor(o_ptr, [n, 64])
    r = asc2.block_idx() * 8
    a = asc2.copy_in(x, [r, 0], [8, 64], pad_value=0.0)
    b = asc2.copy_in(y, [r, 0], [8, 64], pad_value=0.0)
    asc2.copy_out(a + b, o, [r, 0])


def test_a_fresh_sum_copied_out_past_the_last_row_writes_only_the_rows_inside():
    # The last block's window ends 3 rows past the tensor: August copy_out drops those rows, so the fused
    # store must step aside for the clipped path and still write the rows inside.
    n = 13
    x, y = randn((n, 64), np.float32, seed=3), randn((n, 64), np.float32, seed=4)
    backing = np.full((n + 3, 64), np.nan, np.float32)
    out = backing[:n]
    copy_out_rows_kernel[2](x, y, out, n)
    np.testing.assert_array_equal(out, x + y)
    assert np.isnan(backing[n:]).all()


@asc2.jit
def replicate_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int],
                     ORDER: asc.ConstExpr[str]):
    n = asc2.block_num()
    b = asc2.block_idx()
    o_gm = asc2.tensor(out_ptr, [n * T])
    if ORDER == "reversed":
        off = (n - 1 - b) * T
    elif ORDER == "rotated":
        off = (b + 1) % n * T
    else:
        off = b * T
    x = asc2.load(asc2.tensor(x_ptr, [T]), [T], offsets=[0])      # the same window in every block
    asc2.store(x * 2.0, o_gm, offsets=[off])


@pytest.mark.parametrize("checks", ["on", "off"])
@pytest.mark.parametrize("order", ["in-order", "reversed", "rotated"])
def test_a_fresh_result_every_block_shares_lands_in_each_blocks_own_window(order, checks, monkeypatch):
    monkeypatch.setenv("ASC_CHECKS", checks)
    # The operands are the same in every block (one lane of values), the store is per block: each window
    # gets the whole result, whichever order the blocks' windows come in.
    x = randn(64, np.float32, seed=11)
    out = np.full(6 * 64, np.nan, np.float32)
    replicate_kernel[6](x, out, 64, order)
    np.testing.assert_array_equal(out, np.tile(x * np.float32(2.0), 6))

"""The simulator's fast paths give exactly the results of running every lane and trip in program order,
and step aside where their condition does not hold."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.sim.executor import _interleaved

from kernel_checks import randn


# -- grid-stride loops run trip by trip (ascending induction values) -------------------------------------------
@asc2.jit
def last_row_kernel(out_ptr: asc.GlobalAddress, rows: int, START: asc.ConstExpr[int], STEP: asc.ConstExpr[int]):
    """Every iteration of a block stores its row index into the block's own slot: the last one must win."""
    o_gm = asc2.tensor(out_ptr, [asc2.block_num() * 8])
    for r in asc2.range(asc2.block_idx() * START, rows, STEP, parallel=True):
        asc2.store(asc2.full([8], r, dtype=asc.int32), o_gm, offsets=[asc2.block_idx() * 8])


@pytest.mark.parametrize("start,step,expected", [
    (1, 4, [8, 9, 6, 7]),        # grid stride, unequal trip counts: blocks 0 and 1 run one trip more
    (3, 2, [8, 9, 8, 9]),        # starts 0, 3, 6, 9 are more than a step apart: lane by lane
])
def test_a_block_writing_one_slot_in_every_iteration_keeps_the_last_iteration(start, step, expected):
    out = np.full(32, -1, np.int32)
    last_row_kernel[4](out, 10, start, step)
    np.testing.assert_array_equal(out.reshape(4, 8)[:, 0], expected)


def test_grid_stride_condition():
    trips = np.array([3, 3, 2])
    assert _interleaved(np.array([0, 1, 2]), np.asarray(3), trips)
    assert not _interleaved(np.array([0, 3, 6]), np.asarray(3), trips)      # a step or more apart
    assert not _interleaved(np.array([2, 1, 0]), np.asarray(3), trips)      # not ascending (shuffled blocks)
    assert not _interleaved(np.array([0, 1, 2]), np.array([3, 3, 4]), trips)  # no common step
    assert not _interleaved(np.array([0, 1, 2]), np.asarray(-3), trips)     # counting down
    assert not _interleaved(np.asarray(0), np.asarray(3), trips)            # the same start in every lane


@pytest.mark.parametrize("order", ["natural", "shuffle:3"])
def test_grid_stride_rows_give_the_same_result_in_any_block_order(order, monkeypatch):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [rows, C])
        o_gm = asc2.tensor(out_ptr, [rows, C])
        for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
            row = asc2.load(x_gm, [1, C], offsets=[r, 0])
            asc2.store(row * asc2.reduce_sum(row), o_gm, offsets=[r, 0])
    monkeypatch.setenv("ASC_BLOCK_ORDER", order)
    x = randn((37, 64), np.float32, seed=11)
    out = np.zeros_like(x)
    k[5](x, out, 37, 64)
    np.testing.assert_array_equal(out, x * x.sum(axis=1, keepdims=True, dtype=np.float32))

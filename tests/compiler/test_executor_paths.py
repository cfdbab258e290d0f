"""Executor paths that only per-block values reach: loops whose trip counts or steps differ between
blocks, masks whose count or fill value differ between blocks, and a masked op with several results."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2

from kernel_checks import randn


@asc2.jit
def count_trips(out_ptr: asc.GlobalAddress, START: asc.ConstExpr[int], STOP: asc.ConstExpr[int], DOWN: asc.ConstExpr[bool]):
    """out[b] = the trips block b's loop ran: range(b) counting up, or range(START, STOP, -(b + 1))."""
    acc = asc2.zeros([8], dtype=asc.float32)
    if DOWN:
        for _ in asc2.range(START, STOP, -(asc2.block_idx() + 1)):
            acc = acc + 1.0
    else:
        for _ in asc2.range(asc2.block_idx()):
            acc = acc + 1.0
    asc2.store(acc, asc2.tensor(out_ptr, [asc2.block_num() * 8]), offsets=[asc2.block_idx() * 8])


def test_a_carried_loop_whose_trip_count_differs_by_block_stops_each_block_at_its_own_count():
    out = np.full(5 * 8, -1.0, np.float32)
    count_trips[5](out, 0, 0, False)                    # 0, 1, 2, 3, 4 trips
    np.testing.assert_array_equal(out.reshape(5, 8)[:, 0], [0, 1, 2, 3, 4])


def test_a_loop_with_a_negative_step_per_block_runs_the_trips_range_gives():
    out = np.full(4 * 8, -1.0, np.float32)
    count_trips[4](out, 8, 0, True)                     # steps -1, -2, -3, -4 from 8 down to 0
    expected = [len(range(8, 0, -(b + 1))) for b in range(4)]
    assert expected == [8, 4, 3, 2]
    np.testing.assert_array_equal(out.reshape(4, 8)[:, 0], expected)


@asc2.jit
def masked_per_block(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, PER_BLOCK_COUNT: asc.ConstExpr[bool]):
    """Block b doubles the first 8 * (b + 1) elements (or the first 8) and fills the rest with b."""
    b = asc2.block_idx()
    x = asc2.load(asc2.tensor(x_ptr, [asc2.block_num() * 64]), [64], offsets=[b * 64])
    if PER_BLOCK_COUNT:
        with asc2.mask(count=b * 8 + 8, other=b * 1.0):
            asc2.store(x * 2.0, asc2.tensor(out_ptr, [asc2.block_num() * 64]), offsets=[b * 64])
    else:
        with asc2.mask(count=8, other=b * 1.0):
            asc2.store(x * 2.0, asc2.tensor(out_ptr, [asc2.block_num() * 64]), offsets=[b * 64])


@pytest.mark.parametrize("per_block_count", [True, False])
def test_a_mask_takes_each_block_s_own_count_and_fill_value(per_block_count):
    x = randn(4 * 64, np.float32, seed=31)
    out = np.zeros_like(x)
    masked_per_block[4](x, out, per_block_count)
    for b in range(4):
        n = 8 * (b + 1) if per_block_count else 8
        row, src = out[b * 64:(b + 1) * 64], x[b * 64:(b + 1) * 64]
        np.testing.assert_array_equal(row[:n], src[:n] * 2)
        np.testing.assert_array_equal(row[n:], np.full(64 - n, float(b), np.float32))


@asc2.jit
def masked_layer_norm(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress,
                      out_ptr: asc.GlobalAddress, mean_ptr: asc.GlobalAddress, rstd_ptr: asc.GlobalAddress):
    x = asc2.load(asc2.tensor(x_ptr, [8, 64]), [8, 64], offsets=[0, 0])
    g = asc2.load(asc2.tensor(g_ptr, [64]), [64], offsets=[0])
    beta = asc2.load(asc2.tensor(b_ptr, [64]), [64], offsets=[0])
    with asc2.mask(count=16, other=0.0):
        y, mean, rstd = asc2.layer_norm(x, g, beta, 1e-5)
        asc2.store(y, asc2.tensor(out_ptr, [8, 64]), offsets=[0, 0])
        asc2.store(mean, asc2.tensor(mean_ptr, [8]), offsets=[0])
        asc2.store(rstd, asc2.tensor(rstd_ptr, [8]), offsets=[0])


def test_a_mask_applies_to_the_normalised_output_of_layer_norm_and_not_to_its_statistics():
    x = randn((8, 64), np.float32, seed=32)
    g, beta = np.ones(64, np.float32), np.zeros(64, np.float32)
    out, mean, rstd = np.zeros((8, 64), np.float32), np.zeros(8, np.float32), np.zeros(8, np.float32)
    masked_layer_norm[1](x, g, beta, out, mean, rstd)
    m = x.mean(axis=1)
    r = 1 / np.sqrt(((x - m[:, None]) ** 2).mean(axis=1) + 1e-5)
    np.testing.assert_allclose(mean, m, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, r, rtol=1e-4)
    # count mode counts the tile's elements in order: the first 16 of row 0 are computed, the rest is `other`
    np.testing.assert_allclose(out[0, :16], ((x[0] - m[0]) * r[0])[:16], rtol=1e-4, atol=1e-5)
    assert np.all(out.reshape(-1)[16:] == 0)


@asc2.jit
def strided_marks(out_ptr: asc.GlobalAddress):
    """Block b writes the value i + 1 into slot i of its 8 slots for i in range(0, 8, b + 1): a parallel loop
    from 0 whose step differs by block."""
    o_gm = asc2.tensor(out_ptr, [asc2.block_num() * 64])
    b = asc2.block_idx()
    for i in asc2.range(0, 8, b + 1, parallel=True):
        asc2.store(asc2.full([8], i + 1, dtype=asc.int32), o_gm, offsets=[(b * 8 + i) * 8])


def test_a_parallel_loop_with_a_step_per_block_visits_each_block_s_own_slots():
    out = np.zeros(4 * 64, np.int32)
    strided_marks[4](out)
    slots = out.reshape(4, 8, 8)[:, :, 0]
    for b in range(4):
        expected = [i + 1 if i % (b + 1) == 0 else 0 for i in range(8)]
        np.testing.assert_array_equal(slots[b], expected)

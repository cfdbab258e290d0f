"""Sequential loops whose trips do not depend on each other run as one batch in the simulator: the
results, warnings and tick estimates must be exactly those of running the trips in turn, and loops
whose trips do depend on each other (through carried values or through memory) must run in turn."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.trace as trace_pipeline
from asc.sim.executor import KernelRuntimeError


def _loops(kernel, *args):
    compiled, _ = kernel.compile(args, {})
    loops = [op for op in compiled.fn.walk() if op.name == "scf.for"]
    return [op.id in compiled.batchable_loops for op in loops]


@asc2.jit
def add_rows(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
             C: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, C])
    y_gm = asc2.tensor(y_ptr, [rows, C])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        s = asc2.reduce_sum(asc2.load(x_gm, [1, C], offsets=[r, 0]))
        asc2.store(asc2.load(y_gm, [1, C], offsets=[r, 0]) * s, o_gm, offsets=[r, 0])


@asc2.jit
def running_sum(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int, T: asc.ConstExpr[int]):
    """out tile i = out tile i-1 + x tile i: each trip reads what the previous one stored."""
    x_gm = asc2.tensor(x_ptr, [n_tiles * T])
    o_gm = asc2.tensor(out_ptr, [n_tiles * T])
    asc2.store(asc2.load(x_gm, [T], offsets=[0]), o_gm, offsets=[0])
    for i in asc2.range(1, n_tiles):
        prev = asc2.load(o_gm, [T], offsets=[(i - 1) * T])
        asc2.store(prev + asc2.load(x_gm, [T], offsets=[i * T]), o_gm, offsets=[i * T])


@asc2.jit
def shift_right(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int, T: asc.ConstExpr[int]):
    """out tile i = x tile i-1 + 1 (in place when x is out: each trip reads the previous trip's result)."""
    x_gm = asc2.tensor(x_ptr, [n_tiles * T])
    o_gm = asc2.tensor(out_ptr, [n_tiles * T])
    for i in asc2.range(1, n_tiles):
        asc2.store(asc2.load(x_gm, [T], offsets=[(i - 1) * T]) + 1.0, o_gm, offsets=[i * T])


@asc2.jit
def carried_sum(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_tiles: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n_tiles * T])
    acc = asc2.reduce_sum(asc2.full([T], 0.0, dtype=asc.float32))
    for i in asc2.range(n_tiles):
        acc = acc + asc2.reduce_sum(asc2.load(x_gm, [T], offsets=[i * T]))
    asc2.store(asc2.full([T], acc, dtype=asc.float32), asc2.tensor(out_ptr, [T]), offsets=[0])


@asc2.jit
def atomic_rows(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, C])
    o_gm = asc2.tensor(out_ptr, [1, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        asc2.atomic_add(asc2.load(x_gm, [1, C], offsets=[r, 0]), o_gm, [0, 0])


def test_which_sequential_loops_are_batched():
    x = np.zeros((8, 64), np.float32)
    assert _loops(add_rows, x, x, x.copy(), 8, 64) == [True]        # independent trips
    v = np.zeros(256, np.float32)
    assert _loops(running_sum, v, v.copy(), 4, 64) == [False]       # reads what an earlier trip stored
    assert _loops(carried_sum, v, v.copy(), 4, 64) == [False]       # a carried value
    assert _loops(atomic_rows, x, x[:1].copy(), 8, 64) == [False]   # atomics: float order would change
    assert _loops(shift_right, v, v.copy(), 4, 64) == [True]        # distinct arrays: independent


def test_a_trip_reading_what_an_earlier_trip_stored_sees_it():
    x = np.arange(4 * 64, dtype=np.float32)
    out = np.zeros_like(x)
    running_sum[1](x, out, 4, 64)
    np.testing.assert_array_equal(out.reshape(4, 64), np.cumsum(x.reshape(4, 64), axis=0))


def test_the_same_array_for_input_and_output_runs_trips_in_turn():
    x = np.zeros(4 * 64, np.float32)
    shift_right[1](x, x, 4, 64)   # sequentially: tile i = (new) tile i-1 + 1
    np.testing.assert_array_equal(x.reshape(4, 64)[:, 0], [0, 1, 2, 3])
    y, out = np.zeros(4 * 64, np.float32), np.full(4 * 64, 9.0, np.float32)
    shift_right[1](y, out, 4, 64)  # distinct arrays: every tile reads the untouched input
    np.testing.assert_array_equal(out.reshape(4, 64)[:, 0], [9, 1, 1, 1])


def _launch_both_ways(monkeypatch, kernel, core_num, make_args):
    """(outputs, launch report) batched and with batching disabled, from fresh arguments each time."""
    results = []
    for batch in (True, False):
        with monkeypatch.context() as m:
            if not batch:
                m.setattr(trace_pipeline, "batchable_loops", lambda fn: frozenset())
            args = make_args()
            kernel[core_num](*args, always_compile=True)
            results.append(([np.array(a) for a in args if isinstance(a, np.ndarray)], kernel.last_launch))
    return results


@pytest.mark.parametrize("rows,core_num", [(64, 16), (37, 8), (5, 16)])
def test_batched_trips_give_the_results_and_ticks_of_trips_in_turn(monkeypatch, rows, core_num):
    def make_args():
        r = np.random.default_rng(rows)
        return (r.standard_normal((rows, 128)).astype(np.float32), r.standard_normal((rows, 128)).astype(np.float32),
                np.zeros((rows, 128), np.float32), rows, 128)
    (batched, report_b), (in_turn, report_t) = _launch_both_ways(monkeypatch, add_rows, core_num, make_args)
    for a, b in zip(batched, in_turn):
        np.testing.assert_array_equal(a, b)
    assert report_b == report_t
    x, y = make_args()[:2]
    np.testing.assert_allclose(batched[2], y * x.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-4)


def test_batched_trips_report_out_of_bounds_like_trips_in_turn(monkeypatch):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n_rows: int):
        x_gm = asc2.tensor(x_ptr, [4, 64])
        o_gm = asc2.tensor(out_ptr, [4, 64])
        for i in asc2.range(n_rows):
            asc2.store(asc2.load(x_gm, [2, 64], offsets=[i, 0]), o_gm, offsets=[i, 0])
    messages = []
    for batch in (True, False):
        with monkeypatch.context() as m:
            if not batch:
                m.setattr(trace_pipeline, "batchable_loops", lambda fn: frozenset())
            with pytest.raises(KernelRuntimeError, match="reads rows beyond the tensor") as e:
                k[1](np.ones((4, 64), np.float32), np.zeros((4, 64), np.float32), 4, always_compile=True)
            messages.append(str(e.value))
    assert messages[0] == messages[1]
    assert "at offsets [3, 0]" in messages[0] and "reads rows beyond the tensor's 4 rows" in messages[0]


# -- carried-value loops: the ops off the carried chain run for every trip at once -----------------------------------
@asc2.jit
def column_sums(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress, rows: int,
                cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, 8])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.zeros([1, C], dtype=asc.float32)
        biggest = asc2.full([1, C], -1e30, dtype=asc.float32)
        for j in asc2.range(cols // C):
            t = asc2.load(x_gm, [1, C], offsets=[r, j * C])    # off the chain: all trips in one batch
            acc = acc + t * (j + 1)                            # the chain, in order
            biggest = asc2.maximum(biggest, t)
        s = asc2.reduce_sum(acc) + asc2.reduce_max(biggest)
        asc2.store(asc2.full([1, 8], s, dtype=asc.float32), o_gm, offsets=[r, 0])


def test_carried_value_loop_with_hoisted_loads_matches_the_trip_by_trip_run():
    x = np.random.default_rng(5).standard_normal((12, 256)).astype(np.float32)
    compiled, _ = column_sums.compile((x, np.zeros((12, 8), np.float32), x, 12, 256, 64), {})
    inner = [op for op in compiled.fn.walk() if op.name == "scf.for"][1]
    assert inner.id in compiled.hoistable                  # the load and the index product are hoisted
    hoisted = [o.name for o in inner.regions[0].ops if o.id in compiled.hoistable[inner.id]]
    assert "tile.load" in hoisted and "tile.binary" not in hoisted[hoisted.index("tile.load"):]
    out = np.zeros((12, 8), np.float32)
    column_sums[4](x, out, np.zeros(1, np.float32), 12, 256, 64)
    hoisted_report = column_sums.last_launch
    alone = np.zeros((12, 8), np.float32)
    column_sums[4](x, alone, x, 12, 256, 64)              # aliased arguments: the trips run one by one
    w = np.arange(1, 5, dtype=np.float32).repeat(64)
    expected = (x * w).sum(axis=1) + x.max(axis=1)
    np.testing.assert_allclose(out[:, 0], expected, rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(out, alone)
    assert hoisted_report["ticks"] == column_sums.last_launch["ticks"]
    assert hoisted_report["pipes"] == column_sums.last_launch["pipes"]


@asc2.jit
def half_products(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress, rows: int,
                  cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        acc = asc2.full([1, C], 1.0, dtype=asc.float16)
        for j in asc2.range(cols // C):
            acc = asc2.load(x_gm, [1, C], offsets=[r, j * C]) * acc    # float16, rounded at every step
        asc2.store(acc, o_gm, offsets=[r, 0])


def test_a_float16_product_chain_rounds_at_every_trip_as_the_trip_by_trip_run():
    x = (1 + np.random.default_rng(6).standard_normal((6, 8 * 128)) * 0.3).astype(np.float16)
    out = np.zeros((6, 128), np.float16)
    half_products[3](x, out, np.zeros(1, np.float16), 6, 8 * 128, 128)
    ref = np.ones((6, 128), np.float16)
    for j in range(8):
        ref = (x[:, j * 128:(j + 1) * 128].astype(np.float32) * ref.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(out, ref)
    alone = np.zeros_like(out)
    ticks = half_products.last_launch["ticks"]
    half_products[3](x, alone, x, 6, 8 * 128, 128)    # aliased arguments: no hoisting
    np.testing.assert_array_equal(out, alone)
    assert half_products.last_launch["ticks"] == ticks

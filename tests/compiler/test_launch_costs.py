"""What makes a launch cheap keeps its results and checks: values are let go once no later op reads them,
floating-point errors stay quiet in every op, and an offset array's facts are found once and cannot go
stale."""
from __future__ import annotations

import tracemalloc
import warnings

import numpy as np
import pytest

import asc
import asc2
from asc.sim import lane_facts
from asc.sim.ops.arith import binary_values

N, TILE, BLOCKS = 1 << 18, 1024, 16


@asc2.jit
def chain_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int],
                 PER: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(PER, parallel=True):
        off = (asc2.block_idx() * PER + i) * T
        x = asc2.load(x_gm, [T], offsets=[off])
        y1 = x + 1.0
        y2 = y1 * 2.0
        y3 = y2 - 3.0
        y4 = y3 * 0.5
        asc2.store(y4 + 2.0, o_gm, offsets=[off])


def _launch_peak(monkeypatch, replay):
    monkeypatch.setenv("ASC_REPLAY", replay)
    x = np.arange(N, dtype=np.float32)
    out = np.zeros_like(x)
    chain_kernel[BLOCKS](x, out, N, TILE, N // TILE // BLOCKS)    # traced, and recorded when replay is on
    tracemalloc.start()
    try:
        chain_kernel[BLOCKS](x, out, N, TILE, N // TILE // BLOCKS)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(out, (((x + 1) * 2 - 3) * 0.5) + 2)
    return peak, x.nbytes


@pytest.mark.parametrize("replay", ["off", ""])
def test_a_launch_holds_only_the_values_still_to_be_read(monkeypatch, replay):
    # four intermediate tiles of the whole batch, each the size of x: kept to the end of the loop body
    # they would peak at 4x x's bytes; let go after their last reader, two are alive at a time
    peak, data = _launch_peak(monkeypatch, replay)
    assert peak < 2.5 * data, f"peak {peak / data:.2f}x the data"


@asc2.jit
def square_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    x = asc2.load(x_gm, [T], offsets=[asc2.block_idx() * T])
    asc2.store(x * x - x * x, o_gm, offsets=[asc2.block_idx() * T])


@pytest.mark.parametrize("replay", ["off", ""])
def test_overflow_in_a_launch_is_its_result_not_a_numpy_warning(monkeypatch, replay):
    monkeypatch.setenv("ASC_REPLAY", replay)
    x = np.full(64, 3e38, np.float32)
    out = np.zeros_like(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for _ in range(2):                          # the first launch runs in full, the second may replay
            square_kernel[2](x, out, 64, 32)
    assert np.isnan(out).all()                      # inf - inf


def test_an_op_helper_called_outside_a_launch_stays_quiet_too():
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        r = binary_values("mul", np.full(4, 3e38, np.float32), np.full(4, 3e38, np.float32), np.dtype(np.float32))
    assert np.isinf(r).all()


@pytest.mark.parametrize("replay", ["off", ""])
def test_a_relaunch_reuses_the_pages_of_the_last_launchs_arrays(monkeypatch, replay):
    """A launch over 4 MB tiles frees them at its end; the next one must not fault fresh pages in for its
    own (with glibc's defaults each launch faulted ~1000 4 KB pages per 4 MB tile back in, zeroed: the
    share of a launch's time numpy's own loop of the same size does not pay)."""
    resource = pytest.importorskip("resource")
    from asc.runtime import allocator, launcher  # noqa: F401  (importing the launcher tunes the allocator)
    if not allocator.tune():
        pytest.skip("the C allocator is not tuned here (not glibc, or ASC_MALLOC=system)")
    monkeypatch.setenv("ASC_REPLAY", replay)
    n = 1 << 20
    x = np.arange(n, dtype=np.float32)
    out = np.zeros_like(x)
    for _ in range(3):
        chain_kernel[BLOCKS](x, out, n, TILE, n // TILE // BLOCKS)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    chain_kernel[BLOCKS](x, out, n, TILE, n // TILE // BLOCKS)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    np.testing.assert_array_equal(out, (((x + 1) * 2 - 3) * 0.5) + 2)
    assert faults < 128, f"{faults} pages faulted in by a relaunch"


@pytest.mark.parametrize("values,step", [
    ([0, 5, 10, 15], 5),
    ([7, 7, 7, 7], 0),
    ([0, 5, 10, 16], None),          # the last lane one element off
    ([15, 10, 5, 0], None),          # evenly spaced, descending
    ([0, 10, 5, 15], None),          # the right span and ends, not in order
    ([0, 2**31 - 1], 2**31 - 1),     # int32 extremes: no wrap-around
    ([0, 2**31 - 2, 2**31 - 1], None),
])
def test_lane_spacing(values, step):
    v = np.array(values, np.int32)
    assert lane_facts.step(v, v.size) == step
    assert lane_facts.span(v) == (min(values), max(values))


def test_lane_facts_of_a_uniform_value_broadcast_to_the_lanes():
    assert lane_facts.step(np.asarray(3, np.int32), 16) == 0
    assert lane_facts.step(np.array([4], np.int64), 16) == 0
    assert lane_facts.span(np.asarray(-2, np.int64)) == (-2, -2)


def test_an_array_whose_facts_are_kept_cannot_change_under_them():
    v = np.arange(0, 40, 10, dtype=np.int32)
    assert lane_facts.step(v, 4) == 10
    with pytest.raises(ValueError):
        v[1] = 11
    w = np.arange(0, 40, 10, dtype=np.int32)      # another array with other values at a reused address
    w[1] = 11
    assert lane_facts.step(w, 4) is None

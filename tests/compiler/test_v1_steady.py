"""Block 0 of a traced launch runs a loop's periods until its engine state repeats, moved on, then adds the
later periods in one step (sim/pipes/steady.py). Whatever it adds must leave every buffer, report (ticks,
busy ticks, bytes, warnings) and error exactly as running each block's body in full does
(``ASC_V1_BLOCKS=each``): at the loop's last trip, at a trip whose addresses break the pattern, at a race only
one trip has, and with a warning of an early trip."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import asc
import asc.runtime as rt
import asc.runtime.config as config
from asc.sim.executor import KernelRuntimeError
from asc.sim.pipes import steady

BLOCKS, TRIPS, TILE = 4, 12, 64
PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]


@asc.jit
def looped(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, trips: asc.ConstExpr[int],
           tile: asc.ConstExpr[int], racy_trip: asc.ConstExpr[int], step: asc.ConstExpr[int],
           extra: asc.ConstExpr[int], last_count: asc.ConstExpr[int], tail: asc.ConstExpr[bool]):
    """Double-buffered copy-in, scale, copy-out over ``trips`` tiles. ``racy_trip``: the trip whose copy-in
    is not waited for; ``step``: the bytes z's copy-out moves a trip (below a tile: trips overwrite each
    other's output); ``extra``: elements the scale reads past the tile copied in (what no copy wrote);
    ``last_count``: the last trip's copy-out count; ``tail``: copies after the loop, over the loop's output."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * tile + 64)
    dst = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4 * (2 * tile + 64), 2 * tile + 64)
    for i in range(trips):
        k = i % 2
        asc.data_copy(src[k * tile:], x_gm[i * tile:], tile)
        if i != racy_trip:
            asc.set_flag(asc.HardEvent.MTE2_V, k)
            asc.wait_flag(asc.HardEvent.MTE2_V, k)
        asc.muls(dst[k * tile:], src[k * tile:], 2.0, tile + extra)
        asc.set_flag(asc.HardEvent.V_MTE3, k)
        asc.wait_flag(asc.HardEvent.V_MTE3, k)
        asc.data_copy(z_gm[i * step:], dst[k * tile:], last_count if i == trips - 1 else tile)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, k)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, k)
    if tail:
        asc.data_copy(src, z_gm, tile)      # reads back the loop's first output: MTE3_MTE2 orders it
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.adds(dst, src, 1.0, tile)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[(trips - 1) * step:], dst, tile)   # after the last trip's copy-out, on its pipe


def _run(monkeypatch, platform, **kw):
    """({mode: (z's bits, report, warnings issued) or the error's text} of ``looped`` run traced and block
    by block, the periods the traced run added without running them)."""
    config.set_platform(config.Backend.Model, platform)
    monkeypatch.setenv("ASC_REPLAY", "off")
    args = dict(trips=TRIPS, tile=TILE, racy_trip=-1, step=TILE, extra=0, last_count=TILE, tail=False)
    args.update(kw)
    n = args["trips"] * args["tile"]
    rng = np.random.default_rng(7)
    x = rng.random(BLOCKS * n, dtype=np.float32)
    z0 = rng.random(BLOCKS * n, dtype=np.float32)
    out, added = {}, {}
    for mode in ("", "each"):
        monkeypatch.setenv("ASC_V1_BLOCKS", mode)
        z = z0.copy()
        before = steady.STATS["periods added"]
        with warnings.catch_warnings(record=True) as issued:
            warnings.simplefilter("always")
            try:
                looped[BLOCKS](x, z, n, *args.values())
                out[mode] = (z.view(np.uint32).copy(), rt.last_launch_report(),
                             [(w.category, str(w.message), w.filename, w.lineno) for w in issued])
            except KernelRuntimeError as e:
                out[mode] = str(e)
        added[mode] = steady.STATS["periods added"] - before
    assert added["each"] == 0
    return out, added[""]


def _same(out):
    a, b = out[""], out["each"]
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
        return
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    assert a[2] == b[2]


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_a_steady_loop_is_added_up_and_leaves_what_each_block_leaves(monkeypatch, platform):
    """The plain loop: most periods are added, not run; buffers, ticks, busy ticks and bytes as in full."""
    out, added = _run(monkeypatch, platform)
    _same(out)
    assert added >= TRIPS // 2 - 3       # periods of two trips, all but the first ones compared
    assert out[""][1]["warnings"] == []


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_the_last_trip_of_another_count_runs_in_full(monkeypatch, platform):
    """The last trip copies out fewer elements (a different cost and coverage): it is not one of the
    periods added, and what follows the loop (copies over its output) sees the state the loop left."""
    out, added = _run(monkeypatch, platform, last_count=TILE // 2, tail=True)
    _same(out)
    assert added > 0


@pytest.mark.parametrize("racy_trip", [1, TRIPS - 1, TRIPS - 3])
def test_a_race_of_one_trip_is_raised_at_its_line(monkeypatch, racy_trip):
    """One trip does not wait for its copy-in: the race of that trip (early, in the middle of what would
    be added, the last), raised as running each block raises it."""
    out, _ = _run(monkeypatch, config.Platform.Ascend950PR_9599, racy_trip=racy_trip)
    _same(out)
    assert "read-after-write race" in out[""]


def test_trips_whose_output_meets_the_next_trips_run_in_full(monkeypatch):
    """z's copy-out moves half a tile a trip: each trip overwrites half of the previous one's output (GM
    accesses of one period meet the next's), so no period is added; the result is the full run's."""
    out, added = _run(monkeypatch, config.Platform.Ascend950PR_9599, step=TILE // 2)
    _same(out)
    assert added == 0


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_a_warning_of_an_early_trip_is_reported_once_at_its_line(monkeypatch, platform):
    """Every trip's scale reads 8 elements past its tile: the first trip reads bytes no copy wrote yet (an
    initcheck warning, once, at the scale's line); later trips read the other buffer's bytes, written. The
    block warned, so every block runs in full from block 0's data: with the periods added, the same."""
    out, added = _run(monkeypatch, platform, extra=8)
    _same(out)
    warned = [w for w in out[""][1]["warnings"] if "no instruction of block 0 wrote" in w]
    assert len(warned) == 1 and f"test_v1_steady.py:{looped.fn.__code__.co_firstlineno + 20}" in warned[0]
    assert added > 0

"""A loop's trips run as one lane step (``lane_trips.merge_trips``): once the copies are folded away, trips
that repeat one elementwise instruction on GM, each operand moved by its own step, run as one numpy call
over (blocks, trips). Whatever the trips do, the launch must leave every buffer, report and error exactly
as running each block in full does (``ASC_V1_BLOCKS=each``), and the merge must refuse trips whose
addresses do not move evenly or whose windows meet."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.sim.pipes import lane_trips

from test_v1_uniform_blocks import _outcome

N = 256
TILES = 4


@asc.jit
def trips_out(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int, step: int, last: int,
              unordered_last: asc.ConstExpr[bool], ub_last: int):
    """Trip i adds 1 to x's tile i and writes it to z at i * step, the last trip at ``last``; with
    ``unordered_last`` the last trip's add does not wait for its copy in (a race of that trip only); the
    last trip works in UB at element ``ub_last``, the others at 0."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * tiles * n, tiles * n)
    z_gm.set_global_buffer(z + b * (tiles + 1) * n, (tiles + 1) * n)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n + ub_last)
    for i in range(tiles):
        a = ub[ub_last:] if i == tiles - 1 else ub
        asc.data_copy(a, x_gm[i * n:], n)
        if not (unordered_last and i == tiles - 1):
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.adds(a, a, 1.0, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm[last if i == tiles - 1 else i * step:], a, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def trips_chain(z: asc.GlobalAddress, n: int, tiles: int):
    """Trip i reads z's tile i, which trip i - 1 wrote, and writes tile i + 1: the trips run in order."""
    b = asc.get_block_idx()
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z + b * (tiles + 1) * n, (tiles + 1) * n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    for i in range(tiles):
        asc.data_copy(a, z_gm[i * n:], n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.adds(a, a, 1.0, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm[(i + 1) * n:], a, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def _x(blocks):
    return np.arange(blocks * TILES * N, dtype=np.float32) - 100


def _z(blocks):
    return np.random.default_rng(7).random(blocks * (TILES + 1) * N, dtype=np.float32)


# (name, kernel, blocks, arguments, the trip counts of the merged steps)
CASES = [
    ("evenly spaced trips", trips_out, 2, lambda: (_x(2), _z(2), N, TILES, N, (TILES - 1) * N, False, 0), [TILES]),
    ("the last trip half a tile back (meets the one before)", trips_out, 2,
     lambda: (_x(2), _z(2), N, TILES, N, (TILES - 1) * N - N // 2, False, 0), [TILES - 1]),
    ("the last trip a tile further on", trips_out, 2,
     lambda: (_x(2), _z(2), N, TILES, N, TILES * N, False, 0), [TILES - 1]),
    # the copy out of the trip before it stays: the last trip overwrites part of its UB bytes
    ("the last trip in other UB bytes", trips_out, 2,
     lambda: (_x(2), _z(2), N, TILES, N, (TILES - 1) * N, False, 64), [TILES - 2]),
    ("trips half a tile apart (windows meet)", trips_out, 2,
     lambda: (_x(2), _z(2), N, TILES, N // 2, (TILES - 1) * N // 2, False, 0), []),
    ("each trip reads what the one before wrote", trips_chain, 2, lambda: (_z(2), N, TILES), []),
    ("a race in the last trip only", trips_out, 2,
     lambda: (_x(2), _z(2), N, TILES, N, (TILES - 1) * N, True, 0), None),
]


@pytest.mark.parametrize("name,kernel,blocks,make,merged", CASES, ids=[c[0] for c in CASES])
def test_merged_trips_leave_what_running_each_block_leaves(name, kernel, blocks, make, merged, monkeypatch):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    made = []
    real = lane_trips.merge_trips

    def spy(steps, nblk):
        out = real(steps, nblk)
        made.append([st.trips[0] for st in out if getattr(st, "trips", None)])
        return out
    monkeypatch.setattr(lane_trips, "merge_trips", spy)
    results = {}
    for mode in ("", "each"):
        monkeypatch.setenv("ASC_V1_BLOCKS", mode)
        args = make()
        results[mode] = _outcome(kernel, blocks, args), [a.copy() for a in args if isinstance(a, np.ndarray)]
    (rep, err), bufs = results[""]
    (rep_e, err_e), bufs_e = results["each"]
    assert err == err_e
    assert rep == rep_e
    for a, b in zip(bufs, bufs_e):
        np.testing.assert_array_equal(a, b)
    if merged is None:
        assert err is not None and "race" in err.lower()
    else:
        assert made and made[-1] == merged


def test_a_repeated_launch_replays_the_merged_trips(monkeypatch):
    """The tape keeps the merged step: a later launch of the structure computes every trip of every block."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.delenv("ASC_REPLAY", raising=False)
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)
    trips_out.__dict__.pop("_v1_tapes", None)
    x, z = _x(2), _z(2)
    trips_out[2](x, z, N, TILES, N, (TILES - 1) * N, False, 0)
    x2, z2 = x * 3, _z(2) + 5
    expect = z2.copy().reshape(2, TILES + 1, N)
    expect[:, :TILES] = x2.reshape(2, TILES, N) + 1
    trips_out[2](x2, z2, N, TILES, N, (TILES - 1) * N, False, 0)
    np.testing.assert_array_equal(z2.reshape(2, TILES + 1, N), expect)


def test_the_copies_are_folded_over_one_period_of_trips(monkeypatch):
    """Trips alike but for their GM addresses are one period, folded once; a last trip in other on-chip bytes
    is not another period of the same steps."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)
    found = []
    real = lane_trips._period

    def spy(steps):
        found.append(real(steps))
        return found[-1]
    monkeypatch.setattr(lane_trips, "_period", spy)
    for ub_last in (0, 64):
        x, z = _x(2), _z(2)
        trips_out[2](x, z, N, TILES, N, (TILES - 1) * N, False, ub_last)
        np.testing.assert_array_equal(z.reshape(2, TILES + 1, N)[:, :TILES], x.reshape(2, TILES, N) + 1)
    tile = N * 4
    assert found == [(3, {"x": tile, "z": tile}), None]


def test_repeated_random_programs_leave_what_running_each_block_leaves(monkeypatch):
    """Random programs (test_v1_replay.program) issued two or three times over: a periodic tape, its copies
    folded over one period only where each period reads what it wrote itself (not where a later period reads
    an earlier one's UB bytes); the blocks as lanes leave what running each block in full leaves."""
    from hypothesis import HealthCheck, example, given, settings
    from hypothesis import strategies as st
    import test_v1_replay as replay
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    monkeypatch.setenv("ASC_CHECKS", "off")     # a program may read what it never wrote: only the data is compared
    E = replay.E

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(replay._instructions(), min_size=1, max_size=6), st.integers(2, 3))
    # the second trip's add reads the x the first trip's last copy brought in
    @example([("add", 2, 0, 0, E), ("out", 2, 1, 0, E), ("in_x", 0, 3, 0, E)], 2)
    def check(prog, times):
        out = replay.traced_and_each_block(monkeypatch, tuple(prog) * times, seed=len(prog))
        if out is not None:
            np.testing.assert_array_equal(out[""][0], out["each"][0])
    check()

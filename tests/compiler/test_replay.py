"""A launch whose structure (scalar arguments, buffer sizes, blocks, switches) ran before replays the data
steps it recorded; it must give what running it in full gives, and anything that decides lanes or memory
from the data keeps the kernel running in full."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc2
from asc.sim import executor as executor_module
from asc.sim import replay
from asc.sim.executor import KernelRuntimeError


@pytest.fixture
def full_runs(monkeypatch):
    """Counts the launches that run the kernel in full (the others replay)."""
    count = [0]
    real = executor_module.Executor.run

    def run(self, values):
        count[0] += 1
        return real(self, values)
    monkeypatch.setattr(executor_module.Executor, "run", run)
    monkeypatch.delenv("ASC_REPLAY", raising=False)
    for kernel in (row_sum, axpy_in_place, data_branch, half_covered, scaled_by_total, int_ratio):
        for compiled in kernel.cache.values():
            compiled.tapes.clear()    # each test starts with nothing recorded
    return count


def _full(monkeypatch, launch):
    """``launch()`` with replay off: the reference."""
    monkeypatch.setenv("ASC_REPLAY", "off")
    try:
        launch()
    finally:
        monkeypatch.delenv("ASC_REPLAY")


def _report(kernel):
    r = dict(kernel.last_launch)
    r.pop("timeline", None)
    return r


@asc2.jit
def row_sum(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
            C: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, 8])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.zeros([1, C], dtype=asc.float32)
        for j in asc2.range(cols // C):
            acc = acc + asc2.load(x_gm, [1, C], offsets=[r, j * C])
        asc2.store(asc2.full([1, 8], asc2.reduce_sum(acc), dtype=asc.float32), out_gm, offsets=[r, 0])


def test_a_second_launch_of_the_same_structure_replays_and_matches_a_full_run(full_runs, monkeypatch):
    rng = np.random.default_rng(7)
    out = np.zeros((64, 8), np.float32)
    row_sum[8](rng.random((64, 256), dtype=np.float32), out, 64, 256, 64)
    assert full_runs[0] == 1
    x = rng.random((64, 256), dtype=np.float32) - 0.5
    row_sum[8](x, out, 64, 256, 64)
    assert full_runs[0] == 1                       # replayed
    replayed, report = out.copy(), _report(row_sum)
    expect = np.zeros_like(x[:, :64])
    for j in range(4):                             # the kernel's order: column tiles in turn
        expect = expect + x[:, j * 64:(j + 1) * 64]
    np.testing.assert_allclose(replayed[:, 0], expect.sum(axis=1), rtol=1e-5, atol=1e-6)
    out[:] = 0
    _full(monkeypatch, lambda: row_sum[8](x, out, 64, 256, 64))
    assert full_runs[0] == 2
    np.testing.assert_array_equal(replayed.view(np.int32), out.view(np.int32))
    assert report == _report(row_sum) and report["ticks"] > 0


def test_other_scalars_or_buffer_sizes_are_another_structure(full_runs):
    rng = np.random.default_rng(8)
    x = rng.random((64, 256), dtype=np.float32)
    out = np.zeros((64, 8), np.float32)
    row_sum[8](x, out, 64, 256, 64)
    row_sum[8](x, out, 48, 256, 64)                # fewer rows: recorded anew
    assert full_runs[0] == 2
    np.testing.assert_allclose(out[:48, 0], x[:48].sum(axis=1), rtol=1e-5)
    big = np.zeros((80, 8), np.float32)
    row_sum[8](x, big[:64], 64, 256, 64)           # the same sizes again: replayed
    assert full_runs[0] == 2
    row_sum[8](np.concatenate([x, x[:16]]), big, 64, 256, 64)   # a larger buffer: recorded anew
    assert full_runs[0] == 3
    np.testing.assert_allclose(big[:64, 0], x.sum(axis=1), rtol=1e-5)


@asc2.jit
def axpy_in_place(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    y_gm = asc2.tensor(y_ptr, [n])
    off = asc2.block_idx() * T
    y = asc2.load(y_gm, [T], offsets=[off])
    asc2.store(y + asc2.load(x_gm, [T], offsets=[off]) * 2.0, y_gm, offsets=[off])


def test_a_kernel_updating_its_argument_in_place_replays_on_the_new_contents(full_runs):
    x = np.arange(256, dtype=np.float32)
    y = np.ones(256, np.float32)
    for _ in range(3):
        axpy_in_place[4](x, y, 256, 64)
    assert full_runs[0] == 1
    np.testing.assert_array_equal(y, 1 + 6 * x)


@asc2.jit
def data_branch(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [T])
    out_gm = asc2.tensor(out_ptr, [T])
    x = asc2.load(x_gm, [T], offsets=[0])
    if asc2.reduce_sum(x) > 0.0:                    # which branch runs follows the data
        asc2.store(x, out_gm, offsets=[0])
    else:
        asc2.store(x * -1.0, out_gm, offsets=[0])


def test_a_kernel_whose_lanes_follow_its_data_always_runs_in_full(full_runs):
    out = np.zeros(64, np.float32)
    for sign in (1.0, -1.0, 1.0):
        x = np.full(64, sign, np.float32)
        data_branch[1](x, out, 64)
        np.testing.assert_array_equal(out, 1.0)
    assert full_runs[0] == 3
    compiled = data_branch.compile((x, out, 64), {})[0]
    assert compiled.structure is None and compiled.not_replayed == "scf.if depends on tile data"


@asc2.jit
def half_covered(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    out_gm = asc2.tensor(out_ptr, [n])
    off = asc2.block_idx() * T
    asc2.store(asc2.load(x_gm, [T], offsets=[off]), out_gm, offsets=[off])


def test_a_launch_that_warned_runs_in_full_again_and_warns_again(full_runs):
    x = np.ones(128, np.float32)
    for _ in range(2):
        half_covered[1](x, np.zeros(128, np.float32), 128, 64)     # one block: half the output unwritten
        assert any("64 of 128 element(s) were never written" in w for w in half_covered.last_launch["warnings"]), \
            half_covered.last_launch["warnings"]
    assert full_runs[0] == 2


@asc2.jit
def scaled_by_total(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [T])
    out_gm = asc2.tensor(out_ptr, [T])
    x = asc2.load(x_gm, [T], offsets=[0])
    inv = 1.0 / asc2.reduce_sum(x)
    asc2.store(x * inv, out_gm, offsets=[0])


@asc2.jit
def int_ratio(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [T])
    out_gm = asc2.tensor(out_ptr, [T])
    x = asc2.load(x_gm, [T], offsets=[0])
    q = 1000 // asc2.reduce_sum(x)                  # the divisor is data
    asc2.store(asc2.full([T], q, dtype=asc.int32), out_gm, offsets=[0])


def test_data_dependent_warnings_and_errors_come_back_when_replayed(full_runs, monkeypatch):
    out = np.zeros(64, np.float32)
    scaled_by_total[1](np.ones(64, np.float32), out, 64)
    assert scaled_by_total.last_launch["warnings"] == []
    scaled_by_total[1](np.zeros(64, np.float32), out, 64)       # replayed: 1 / 0 in scalar code
    assert full_runs[0] == 1
    (w,) = scaled_by_total.last_launch["warnings"]
    lines, first = inspect.getsourcelines(scaled_by_total.fn)
    line = first + next(i for i, text in enumerate(lines) if "1.0 /" in text)
    assert f":{line}:" in w and "scalar 1.0 / 0.0 gives inf" in w

    iout = np.zeros(64, np.int32)
    int_ratio[1](np.ones(64, np.int32), iout, 64)
    np.testing.assert_array_equal(iout, 1000 // 64)
    with pytest.raises(KernelRuntimeError) as replayed:
        int_ratio[1](np.zeros(64, np.int32), iout, 64)
    assert full_runs[0] == 2
    monkeypatch.setenv("ASC_REPLAY", "off")
    with pytest.raises(KernelRuntimeError) as full:
        int_ratio[1](np.zeros(64, np.int32), iout, 64)
    assert str(replayed.value) == str(full.value) and "integer division by zero" in str(full.value)


def test_arguments_sharing_memory_run_in_full(full_runs):
    buf = np.arange(256, dtype=np.float32)
    for _ in range(2):
        half_covered[2](buf, buf, 256, 128)   # one array under two names: its accesses are checked each time
    assert full_runs[0] == 2
    np.testing.assert_array_equal(buf, np.arange(256))


def test_replay_off_runs_every_launch_in_full(full_runs, monkeypatch):
    monkeypatch.setenv("ASC_REPLAY", "off")
    x, y = np.arange(256, dtype=np.float32), np.ones(256, np.float32)
    for _ in range(2):
        axpy_in_place[4](x, y, 256, 64)
    assert full_runs[0] == 2
    np.testing.assert_array_equal(y, 1 + 4 * x)


def test_each_launch_gets_its_own_report(full_runs):
    x, y = np.arange(256, dtype=np.float32), np.ones(256, np.float32)
    axpy_in_place[4](x, y, 256, 64)
    first = axpy_in_place.last_launch
    first["pipes"]["V"] = -1
    first["warnings"].append("changed by the caller")
    axpy_in_place[4](x, y, 256, 64)
    second = axpy_in_place.last_launch
    assert second is not first and second["pipes"]["V"] > 0 and second["warnings"] == []


def test_verify_mode_finds_a_replay_that_differs_from_the_full_run(monkeypatch):
    """``ASC_REPLAY=verify`` replays every recorded launch on changed data next to a full run: a replay
    step that went wrong is reported, not returned."""
    monkeypatch.setenv("ASC_REPLAY", "verify")
    real = replay._LoadStep.run

    def stale(self, slots, ex, datas):
        real(self, slots, ex, [d * 0 for d in datas])   # reads zeros instead of the buffer
    monkeypatch.setattr(replay._LoadStep, "run", stale)
    with pytest.raises(RuntimeError, match="replaying kernel 'axpy_in_place' differs from running it: buffers "
                                           r"\['y_ptr'\]"):
        axpy_in_place[2](np.arange(256, dtype=np.float32), np.ones(256, np.float32), 256, 128)


@asc2.jit
def padded_tail(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    out_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num(), parallel=True):
        x = asc2.load(x_gm, [T], offsets=[i * T], pad_value=1.0)     # the last tile: a padded tail
        asc2.store(x * 3.0 + asc2.reduce_sum(x), out_gm, offsets=[i * T])   # ... and a clipped store


@asc2.jit
def tile_grid(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, N: asc.ConstExpr[int], T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [N, N])
    out_gm = asc2.tensor(out_ptr, [N, N])
    row = (asc2.block_idx() // (N // T)) * T
    col = (asc2.block_idx() % (N // T)) * T
    asc2.store(asc2.exp(asc2.load(x_gm, [T, T], offsets=[col, row])), out_gm, offsets=[row, col])   # a 2-D grid


@asc2.jit
def decaying_sum(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int],
                 TILES: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, C * TILES])
    out_gm = asc2.tensor(out_ptr, [rows, C])
    r = asc2.block_idx()
    acc = asc2.zeros([1, C], dtype=asc.float32)
    for j in asc2.range(TILES):                     # a chain that is not a plain fold: trip by trip
        acc = acc * 0.5 + asc2.load(x_gm, [1, C], offsets=[r, j * C])
    asc2.store(acc, out_gm, offsets=[r, 0])


@asc2.jit
def squares(buf_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    off = asc2.block_idx() * asc2.block_idx() * T   # windows 0, 1, 4, 9 tiles in: no constant step
    buf = asc2.tensor(buf_ptr, [n])
    asc2.store(asc2.load(buf, [T], offsets=[off]) - 1.0, buf, offsets=[off])   # in place


@asc2.jit
def seeded_max(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, C: asc.ConstExpr[int],
               TILES: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [8, C * TILES])
    r = asc2.block_idx()
    acc = asc2.load(x_gm, [1, C], offsets=[r, 0])      # the fold starts from data
    for j in asc2.range(1, TILES):
        acc = asc2.maximum(acc, asc2.load(x_gm, [1, C], offsets=[r, j * C]))
    asc2.store(acc, asc2.tensor(out_ptr, [8, C]), offsets=[r, 0])


@asc2.jit
def undefined_tail(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    out_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num(), parallel=True):
        x = asc2.load(x_gm, [T], offsets=[i * T], pad_value=None)   # the last tile's tail is undefined ...
        asc2.store(x * 2.0, out_gm, offsets=[i * T])                 # ... and clipped away by the store


@asc2.jit
def split_lanes(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    b = asc2.block_idx()
    x = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[b * T])
    y = x
    if b % 2 == 0:                                  # the blocks' lanes go both ways
        y = x * 2.0
    else:
        y = x - 1.0
    asc2.store(y, asc2.tensor(out_ptr, [n]), offsets=[b * T])


@asc2.jit
def uneven_trips(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, C: asc.ConstExpr[int],
                 TILES: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [8, C * TILES])
    r = asc2.block_idx()
    acc = asc2.zeros([1, C], dtype=asc.float32)
    for j in asc2.range(r + 1):                     # block r runs r + 1 trips
        acc = acc * 0.5 + asc2.load(x_gm, [1, C], offsets=[r, j * C])
    asc2.store(acc, asc2.tensor(out_ptr, [8, C]), offsets=[r, 0])


_PATHS = {
    "an if whose lanes go both ways": (split_lanes, 4, lambda rng: (rng.random(256, dtype=np.float32),
                                                                    np.zeros(256, np.float32), 256, 64)),
    "a carried loop whose lanes run different trip counts": (
        uneven_trips, 8, lambda rng: (rng.random((8, 512), dtype=np.float32), np.zeros((8, 64), np.float32), 64, 8)),
    "an undefined tail clipped by the store": (undefined_tail, 3, lambda rng: (rng.random(1000, dtype=np.float32),
                                                                               np.zeros(1000, np.float32), 1000, 128)),
    "a fold seeded from data": (seeded_max, 8, lambda rng: (rng.standard_normal((8, 512), dtype=np.float32),
                                                            np.zeros((8, 64), np.float32), 64, 8)),
    "irregular 1-D windows": (squares, 4, lambda rng: (rng.random(640, dtype=np.float32), 640, 64)),
    "padded tail and clipped store": (padded_tail, 3, lambda rng: (rng.random(1000, dtype=np.float32),
                                                                   np.zeros(1000, np.float32), 1000, 128)),
    "2-D grid of output tiles": (tile_grid, 4, lambda rng: (rng.random((64, 64), dtype=np.float32),
                                                            np.zeros((64, 64), np.float32), 64, 32)),
    "a carried chain run trip by trip": (decaying_sum, 8, lambda rng: (rng.random((8, 256), dtype=np.float32),
                                                                       np.zeros((8, 64), np.float32), 8, 64, 4)),
    "rows handed out by block (row sum)": (row_sum, 4, lambda rng: (rng.random((20, 128), dtype=np.float32),
                                                                     np.zeros((20, 8), np.float32), 20, 128, 64)),
}


@pytest.mark.parametrize("path", sorted(_PATHS))
def test_each_recorded_path_replays_what_a_full_run_gives(path, full_runs, monkeypatch):
    kernel, blocks, make = _PATHS[path]
    for compiled in kernel.cache.values():
        compiled.tapes.clear()
    rng = np.random.default_rng(11)
    kernel[blocks](*make(rng))                      # recorded
    args = make(rng)                                # other data, the same structure
    out = 0 if kernel is squares else 1                # (squares works in place)
    start = args[out].copy()
    kernel[blocks](*args)
    assert full_runs[0] == 1, "the second launch was not replayed"
    replayed = args[out].copy()
    report = _report(kernel)
    args[out][...] = start
    _full(monkeypatch, lambda: kernel[blocks](*args))
    np.testing.assert_array_equal(replayed.view(np.uint32), args[out].view(np.uint32))
    assert report == _report(kernel)


@pytest.mark.parametrize("limit, size", [("_KEEP_BYTES", 1000), ("_TAPE_BYTES", 1)])
def test_a_launch_too_large_to_record_keeps_running_in_full(limit, size, full_runs, monkeypatch):
    """Recording keeps a launch's values alive, and a tape keeps its per-lane window arrays: past a budget
    the structure is run in full instead."""
    kernel, blocks, make = _PATHS["padded tail and clipped store"]
    for compiled in kernel.cache.values():
        compiled.tapes.clear()
    monkeypatch.setattr(replay, limit, size)
    rng = np.random.default_rng(3)
    for _ in range(2):
        args = make(rng)
        kernel[blocks](*args)
        np.testing.assert_allclose(args[1][:128], args[0][:128] * 3 + args[0][:128].sum(), rtol=1e-5)
    assert full_runs[0] == 2


@asc2.jit
def long_chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, C: asc.ConstExpr[int],
               TILES: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [8, C * TILES])
    out_gm = asc2.tensor(out_ptr, [8, C])
    r = asc2.block_idx()
    acc = asc2.zeros([1, C], dtype=asc.float32)
    for j in asc2.range(TILES):
        h = asc2.load(x_gm, [1, C], offsets=[r, j * C])
        spare = acc * 2.0                           # computed each trip, never read
        acc = acc * 0.5 + h
    asc2.store(acc, out_gm, offsets=[r, 0])


def test_a_replay_lets_each_value_go_after_its_last_use(full_runs):
    """64 trips of [8 lanes x 2048] float32 tiles (64 KiB each, four per trip): kept to the end they
    would take 16 MiB; let go after their last reader (or at once, when nothing reads them) the replay
    peaks at a few of them."""
    import tracemalloc
    x = np.random.default_rng(5).random((8, 2048 * 64), dtype=np.float32)
    out = np.zeros((8, 2048), np.float32)
    long_chain[8](x, out, 2048, 64)
    tracemalloc.start()
    try:
        long_chain[8](x, out, 2048, 64)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert full_runs[0] == 1
    assert peak < 2 << 20, peak
    expect = np.zeros((8, 2048), np.float32)
    for j in range(64):
        expect = expect * np.float32(0.5) + x[:, j * 2048:(j + 1) * 2048]
    np.testing.assert_allclose(out, expect, rtol=1e-6)


def test_verify_mode_finds_a_replay_that_warns_differently(monkeypatch):
    monkeypatch.setenv("ASC_REPLAY", "verify")
    real = replay._OpStep.run

    def warns(self, slots, ex, datas):
        ex.warn(None, "a warning only the replay gives")
        real(self, slots, ex, datas)
    monkeypatch.setattr(replay._OpStep, "run", warns)
    with pytest.raises(RuntimeError, match=r"differs from running it: buffers \[\], warnings \[\] / "
                                           r"\['a warning only the replay gives'\]"):
        axpy_in_place[2](np.arange(256, dtype=np.float32), np.ones(256, np.float32), 256, 128)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32"])
def test_verify_changes_every_element_of_the_data(dtype):
    """A data value recorded as a constant only shows when the replay runs on other data: every element
    must change, whatever its value (0, 0.5, the largest integer, a negative number)."""
    import ml_dtypes
    dt = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    if dtype == "bool":
        data = np.array([True, False])
    elif np.dtype(dt).kind in "iu":
        info = np.iinfo(dt)
        data = np.array([info.min, -1 if info.min else 1, 0, info.max], dtype=dt)
    else:
        data = np.array([0.0, 0.5, -0.5, -0.25, 1.0, -3.0, 1000.0, -1 / 6], dtype=dt)
    changed = replay._changed(data)
    assert changed.dtype == data.dtype and changed.shape == data.shape
    assert not np.any(changed == data), (data, changed)


def test_verify_mode_accepts_a_faithful_replay_and_a_shared_error(monkeypatch):
    monkeypatch.setenv("ASC_REPLAY", "verify")
    for compiled in row_sum.cache.values():
        compiled.tapes.clear()
    rng = np.random.default_rng(4)
    x, out = rng.random((16, 128), dtype=np.float32), np.zeros((16, 8), np.float32)
    row_sum[4](x, out, 16, 128, 64)                 # recorded, then checked against a full run: the same
    np.testing.assert_allclose(out[:, 0], x.sum(axis=1), rtol=1e-5)
    for compiled in int_ratio.cache.values():
        compiled.tapes.clear()
    iout = np.zeros(64, np.int32)
    int_ratio[1](np.full(64, -1, np.int32), iout, 64)   # the checked copy (data + 1) sums to 0: the full run
    np.testing.assert_array_equal(iout, -15)            # and the replay both stop at the division, alike


@asc2.jit
def gated_tail(x_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int,
               T: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[0], pad_value=None)   # the tail is undefined
    c = asc2.load(asc2.tensor(c_ptr, [T]), [T], offsets=[0])
    asc2.store(asc2.where(c > 0.0, x, 0.0), asc2.tensor(out_ptr, [T]), offsets=[0])   # the data pick the tail


def test_undefined_elements_that_the_data_route_into_a_store_warn_when_replayed(full_runs, monkeypatch):
    for compiled in gated_tail.cache.values():
        compiled.tapes.clear()
    x = np.arange(100, dtype=np.float32) + 1
    out = np.zeros(128, np.float32)
    c = np.where(np.arange(128) < 100, 1.0, -1.0).astype(np.float32)
    gated_tail[1](x, c, out, 100, 128)                 # the tail is never selected: recorded, no warning
    assert gated_tail.last_launch["warnings"] == []
    np.testing.assert_array_equal(out, np.concatenate([x, np.zeros(28, np.float32)]))
    c[:] = 1.0                                         # now the undefined tail is stored
    gated_tail[1](x, c, out, 100, 128)
    assert full_runs[0] == 1
    replayed = list(gated_tail.last_launch["warnings"])
    _full(monkeypatch, lambda: gated_tail[1](x, c, out, 100, 128))
    assert replayed == gated_tail.last_launch["warnings"]
    (w,) = replayed
    assert "store to 'out_ptr' writes 28 undefined element(s) inside the tensor" in w


def test_verify_mode_finds_a_replay_that_loses_a_warning(monkeypatch):
    monkeypatch.setenv("ASC_REPLAY", "verify")
    for compiled in scaled_by_total.cache.values():
        compiled.tapes.clear()
    real = replay._OpStep.run

    def quiet(self, slots, ex, datas):
        real(self, slots, ex, datas)
        ex.warnings.clear()
    monkeypatch.setattr(replay._OpStep, "run", quiet)
    # the checked copy of -0.5 everywhere (-x / 2 - 1/4) is all zeros: the full run divides by a zero sum
    with pytest.raises(RuntimeError, match=r"warnings \[.*non-finite.*\] / \[\]"):
        scaled_by_total[1](np.full(64, -0.5, np.float32), np.zeros(64, np.float32), 64)


@asc2.jit
def add_blocks(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int,
               T: asc.ConstExpr[int]):
    off = asc2.block_idx() * T
    x = asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[off])
    y = asc2.load(asc2.tensor(y_ptr, [n]), [T], offsets=[off])
    asc2.store(x + y, asc2.tensor(out_ptr, [n]), offsets=[off])   # computed straight into its windows


def test_a_shuffled_block_order_is_its_own_structure_and_replays_in_that_order(full_runs, monkeypatch):
    """With ASC_BLOCK_ORDER=shuffle the lanes' windows are not in lane order: the replayed store writes
    each lane's values to its own window, as the full run does."""
    monkeypatch.setenv("ASC_BLOCK_ORDER", "shuffle:101")
    for compiled in add_blocks.cache.values():
        compiled.tapes.clear()
    rng = np.random.default_rng(9)
    for _ in range(2):
        x, y = rng.random(512, dtype=np.float32), rng.random(512, dtype=np.float32)
        out = np.zeros(512, np.float32)
        add_blocks[8](x, y, out, 512, 64)
        np.testing.assert_array_equal(out, x + y)
    assert full_runs[0] == 1
    assert add_blocks.last_launch["block_order"] == "shuffle:101"
    monkeypatch.setenv("ASC_BLOCK_ORDER", "shuffle:102")     # another order: another structure
    add_blocks[8](x, y, out, 512, 64)
    assert full_runs[0] == 2

"""A v1 launch whose structure ran before replays the data ops it recorded (sim/pipes/replay.py): it must leave
every buffer bit for bit as a full run does and report the same (ticks, warnings), whether the blocks run the
same stream (lanes = blocks), differ (a branch on the block index) or depend on each other through GM; what
hands data back to Python or lets blocks write the same elements keeps the kernel running in full."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.runtime import last_launch_report, v1_launch
from asc.sim.executor import KernelRuntimeError

N = 256          # elements per block
SCALE = 2.0      # a module-level constant the kernels read


@pytest.fixture
def full_runs(monkeypatch):
    """Counts the launches that run the kernel's Python body (the others replay); nothing recorded at start."""
    count = [0]
    real = v1_launch._run_blocks

    def run(*a, **k):
        count[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(v1_launch, "_run_blocks", run)
    monkeypatch.delenv("ASC_REPLAY", raising=False)
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    for k in (scaled, diverging, reads_neighbour, data_branch, same_values, unwritten_tail, typed_copy):
        k.__dict__.pop("_v1_tapes", None)
    return count


def _report(kernel):
    r = dict(kernel.last_launch)
    r.pop("timeline", None)
    return r


def _full(monkeypatch, launch):
    monkeypatch.setenv("ASC_REPLAY", "off")
    try:
        launch()
    finally:
        monkeypatch.delenv("ASC_REPLAY")


def _same_as_full(monkeypatch, kernel, launch, outputs):
    """Launch (replayed) and launch in full on copies of the same inputs: buffers bit for bit, same report."""
    snap = [o.copy() for o in outputs]
    launch()
    replayed = [o.view(np.uint8).copy() for o in outputs]
    rep = _report(kernel)
    for o, s in zip(outputs, snap):
        o[...] = s
    _full(monkeypatch, launch)
    for a, o in zip(replayed, outputs):
        np.testing.assert_array_equal(a, o.view(np.uint8))
    assert rep == _report(kernel)


@asc.jit
def scaled(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    off = asc.get_block_idx() * n
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + off, n)
    zg.set_global_buffer(z + off, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(a, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(b, a, SCALE, n)
    asc.add(b, b, a, 64, 2, asc.BinaryRepeatParams(1, 1, 1, 8, 8, 8))      # a mask form too
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg, b, n)


def test_a_repeated_launch_replays_and_equals_a_full_run(full_runs, monkeypatch):
    rng = np.random.default_rng(0)
    z = np.zeros(4 * N, np.float32)
    for i in range(3):
        x = rng.standard_normal(4 * N).astype(np.float32)
        scaled[4](x, z, N)
        expect = x * np.float32(SCALE)
        expect[:] = np.where(np.arange(4 * N) % N < 128, expect + x, expect)
        np.testing.assert_array_equal(z, expect)
    assert full_runs[0] == 1
    _same_as_full(monkeypatch, scaled, lambda: scaled[4](x, z, N), [z])
    scaled[4](x, z, N // 2)          # another structure (a scalar argument changed): runs in full
    assert full_runs[0] == 3


def test_a_changed_module_constant_is_another_structure(full_runs, monkeypatch):
    x = np.ones(4 * N, np.float32)
    z = np.zeros_like(x)
    scaled[4](x, z, N)
    monkeypatch.setitem(globals(), "SCALE", 3.0)
    scaled[4](x, z, N)
    assert full_runs[0] == 2
    assert z[-1] == 3.0


@asc.jit
def diverging(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Block 0 runs an extra instruction; the last block copies out in two halves."""
    blk = asc.get_block_idx()
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + blk * n, n)
    zg.set_global_buffer(z + blk * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.muls(a, a, blk + 1.0, n)        # the same instruction with another scalar per block
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    if blk == 0:
        asc.adds(a, a, 1.0, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    if blk == asc.get_block_num() - 1:
        asc.data_copy(zg, a, n // 2)
        asc.data_copy(zg[n // 2:], a[n // 2:], n // 2)
    else:
        asc.data_copy(zg, a, n)


def test_blocks_that_issue_different_streams_replay_as_they_ran(full_runs, monkeypatch):
    x = np.arange(4 * N, dtype=np.float32)
    z = np.full_like(x, -1)
    diverging[4](x, z, N)
    _same_as_full(monkeypatch, diverging, lambda: diverging[4](x * 2, z, N), [z])
    assert full_runs[0] == 2        # the recording launch and the reference; the other one replayed
    expect = x * 2 * np.repeat(np.arange(1, 5, dtype=np.float32), N)
    expect[:N] += 1
    np.testing.assert_array_equal(z, expect)


@asc.jit
def reads_neighbour(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, n: int):
    """Block b writes z[b], then reads z[b + 1] into w[b] (blocks run in turn: what the launch before left
    there, but the last block reads z[0], which block 0 wrote in this launch)."""
    blk = asc.get_block_idx()
    xg, zg, wg, prev = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + blk * n, n)
    zg.set_global_buffer(z + blk * n, n)
    wg.set_global_buffer(w + blk * n, n)
    prev.set_global_buffer(z + (blk + 1) % asc.get_block_num() * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(a, prev, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(wg, a, n)


def test_blocks_reading_what_other_blocks_wrote_replay_in_block_order(full_runs, monkeypatch):
    x = np.arange(4 * N, dtype=np.float32)
    z, w = np.zeros_like(x), np.zeros_like(x)
    # blocks run concurrently on the device: the checks report it as the tile engine's would
    with pytest.raises(KernelRuntimeError, match=r"data_copy to 'z' overwrites elements block 0 read in the same "
                       r"launch \(block 1; block 0's read at line \d+\)") as e:
        reads_neighbour[4](x, z, w, N)
    import inspect
    lines, first = inspect.getsourcelines(reads_neighbour.fn)
    store = first + next(i for i, text in enumerate(lines) if "asc.data_copy(zg, a, n)" in text)
    assert e.value.category == "RaceError" and f":{store}:" in str(e.value)
    # unchecked, the blocks still replay in the order they ran
    monkeypatch.setenv("ASC_CHECKS", "off")
    z[:] = 0
    reads_neighbour[4](x, z, w, N)
    _same_as_full(monkeypatch, reads_neighbour, lambda: reads_neighbour[4](x + 1, z, w, N), [z, w])
    np.testing.assert_array_equal(w[:-N], x[N:])
    np.testing.assert_array_equal(w[-N:], x[:N] + 1)


@asc.jit
def data_branch(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """How much is copied depends on the data (get_value hands a value back to Python)."""
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x, n)
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_S, 0)
    asc.wait_flag(asc.HardEvent.MTE2_S, 0)
    m = n if a.get_value(0) > 0 else n // 2
    asc.set_flag(asc.HardEvent.S_MTE3, 0)
    asc.wait_flag(asc.HardEvent.S_MTE3, 0)
    asc.data_copy(zg, a, m)


def test_a_kernel_that_branches_on_data_always_runs_in_full(full_runs):
    for first in (1.0, -1.0):
        x = np.full(N, first, np.float32)
        z = np.zeros_like(x)
        data_branch[1](x, z, N)
        assert (z != 0).sum() == (N if first > 0 else N // 2)
    assert full_runs[0] == 2


@asc.jit
def same_values(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Every block writes the whole of z: allowed while the values agree."""
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n, n)
    zg.set_global_buffer(z, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, a, n)


def test_blocks_writing_the_same_elements_are_checked_on_every_launch(full_runs):
    x = np.ones(2 * N, np.float32)
    z = np.zeros(N, np.float32)
    same_values[2](x, z, N)
    same_values[2](x, z, N)
    x[N + 3] = 5.0
    with pytest.raises(KernelRuntimeError, match="different values"):
        same_values[2](x, z, N)
    assert full_runs[0] == 3


@asc.jit
def unwritten_tail(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Adds UB elements nothing wrote (they read as NaN, as in a full run)."""
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + asc.get_block_idx() * n, n)
    zg.set_global_buffer(z + asc.get_block_idx() * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(a, xg, n // 2)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.add(b, a, a, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, b, n)
    asc.data_copy(a, xg, n)       # the tail is written now: the next launch must not see it


def test_a_replay_reads_unwritten_memory_as_a_full_run_does(full_runs, monkeypatch):
    x = np.arange(2 * N, dtype=np.float32)
    z = np.zeros_like(x)
    unwritten_tail[2](x, z, N)
    unwritten_tail[2](x, z, N)
    _same_as_full(monkeypatch, unwritten_tail, lambda: unwritten_tail[2](x, z, N), [z])
    assert np.isnan(z[N // 2: N]).all() and not np.isnan(z[:N // 2]).any()


UPSTREAM = next((p / "shared" / "upstream" / "pyasc-v1" / "tutorials" for p in Path(__file__).resolve().parents
                 if (p / "shared" / "upstream" / "pyasc-v1").is_dir()), None)


def _tutorial(path):
    spec = importlib.util.spec_from_file_location("replay_" + path.replace("/", "_")[:-3], UPSTREAM / path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(UPSTREAM is None, reason="upstream pyasc v1 sources are not beside this repository")
@pytest.mark.parametrize("platform", [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599])
def test_upstream_tutorials_replay_bit_for_bit_and_verify(full_runs, monkeypatch, platform):
    config.set_platform(config.Backend.Model, platform)
    t1, t2 = _tutorial("01_add/add.py"), _tutorial("02_add_framework/add_framework.py")
    n = 8 * 2048
    rng = np.random.default_rng(1)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    z = np.zeros_like(x)
    launches = [(t1.vadd_kernel, lambda: t1.vadd_kernel[8](x, y, z, n // 8)),
                (t2.vadd_kernel, lambda: t2.vadd_kernel[8](x, y, z, n // 8, n // 8 // 16))]
    for kernel, launch in launches:
        monkeypatch.setenv("ASC_REPLAY", "verify")     # the recording launch is checked against a full run
        launch()
        monkeypatch.delenv("ASC_REPLAY")
        assert kernel._v1_tapes and all(t is not None and t.batched for t in kernel._v1_tapes.values())
        x[:] = rng.random(n, dtype=np.float32)
        _same_as_full(monkeypatch, kernel, launch, [z])
        np.testing.assert_array_equal(z, x + y)


# -- replays that skip on-chip round trips (sim/pipes/lane_steps.py) ---------------------------------------
E = 64              # elements per program slot (f32: 256 bytes)


@asc.jit
def program(x: asc.GlobalAddress, z: asc.GlobalAddress, prog: asc.ConstExpr):
    """A straight-line program over 4 UB slots and 4 slots of each block's x and z rows: copies in and out,
    vector instructions (also in place and on overlapping slots), a full barrier after each."""
    blk = asc.get_block_idx()
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x + blk * 4 * E, 4 * E)
    zg.set_global_buffer(z + blk * 4 * E, 4 * E)
    ub = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 0, 5 * E)
    for ins in prog:
        kind, a, b, c, n = ins
        if kind == "in_x":
            asc.data_copy(ub[a * E // 2:], xg[b * E:], n)
        elif kind == "in_z":
            asc.data_copy(ub[a * E // 2:], zg[b * E:], n)
        elif kind == "out":
            asc.data_copy(zg[b * E:], ub[a * E // 2:], n)
        elif kind == "add":
            asc.add(ub[a * E // 2:], ub[b * E // 2:], ub[c * E // 2:], n)
        elif kind == "muls":
            asc.muls(ub[a * E // 2:], ub[b * E // 2:], 3.0, n)
        else:
            asc.duplicate(ub[a * E // 2:], b, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def _instructions():
    from hypothesis import strategies as st
    slot = st.integers(0, 6)        # UB slots overlap by half (a slot is E elements, slots start every E / 2)
    gm = st.integers(0, 3)
    n = st.sampled_from([E, E // 2, 8])
    return st.one_of(
        st.tuples(st.sampled_from(["in_x", "in_z"]), slot, gm, st.just(0), n),
        st.tuples(st.just("out"), slot, gm, st.just(0), n),
        st.tuples(st.just("add"), slot, slot, slot, n),
        st.tuples(st.just("muls"), slot, slot, st.just(0), n),
        st.tuples(st.just("dup"), slot, st.integers(0, 9), st.just(0), n))


def traced_and_each_block(monkeypatch, prog, seed):
    """``program`` over 3 blocks on random data (``seed``), run traced and block by block in full
    (``ASC_V1_BLOCKS`` "" and "each"): {mode: (z's bits, launch report)}, or None where the program is
    rejected (a vector destination partly overlapping its source)."""
    rng = np.random.default_rng(seed)
    x = rng.random(3 * 4 * E, dtype=np.float32)
    z0 = rng.random(3 * 4 * E, dtype=np.float32)
    out = {}
    for mode in ("", "each"):
        monkeypatch.setenv("ASC_V1_BLOCKS", mode)
        z = z0.copy()
        try:
            program[3](x, z, tuple(prog))
        except ValueError as e:            # a vector destination partly overlapping its source: rejected
            assert "partly overlaps a source" in str(e)
            return None
        out[mode] = (z.view(np.uint32).copy(), last_launch_report())
    return out


def test_replays_that_read_through_copies_equal_the_full_run(monkeypatch):
    """Random programs (a read of what no instruction wrote included): the second launch replays with copies
    read through and copy-outs folded into their vector instruction; ``ASC_REPLAY=verify`` compares the
    buffers, the report and the error with a full run on changed data."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "verify")
    monkeypatch.setenv("ASC_CHECKS", "off")     # a program may read what it never wrote: only the data is compared

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(_instructions(), min_size=1, max_size=12))
    def check(prog):
        program.__dict__.pop("_v1_tapes", None)
        rng = np.random.default_rng(len(prog))
        x = rng.random(3 * 4 * E, dtype=np.float32)
        z = rng.random(3 * 4 * E, dtype=np.float32)
        try:
            program[3](x, z, tuple(prog))      # records (and, under verify, compares full and replayed runs)
        except ValueError as e:                # a vector destination partly overlapping its source: rejected
            assert "partly overlaps a source" in str(e)
            return
        program[3](x + 1, z, tuple(prog))      # replays
    check()


DTYPE = asc.float32     # a module-level dtype the kernel names (pyasc's DataType is unhashable)


@asc.jit
def typed_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, out_dtype: asc.ConstExpr):
    xg, zg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    a = asc.LocalTensor(DTYPE, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.muls(a, a, 2.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    b = asc.LocalTensor(out_dtype, asc.TPosition.VECOUT, n * 4, n)
    asc.data_copy(b, a, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(zg, b, n)


def test_dtype_constants_and_dtype_arguments_key_the_structure(full_runs):
    """A dtype at module level or passed as a ConstExpr is part of the launch's structure: the second launch
    replays instead of failing to build its key."""
    x = np.arange(N, dtype=np.float32)
    z = np.zeros_like(x)
    typed_copy[1](x, z, N, asc.float32)
    typed_copy[1](x + 1, z, N, asc.float32)
    assert full_runs[0] == 1
    np.testing.assert_array_equal(z, (x + 1) * 2)

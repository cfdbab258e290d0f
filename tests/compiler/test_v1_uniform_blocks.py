"""A first launch traces the body once with a symbolic block index and runs blocks 1.. as lanes
(sim/pipes/tracer.py), or, when it cannot, runs blocks 1.. that issue block 0's instructions again as block 0
ran (its checks and schedule, their own GM checks and data: sim/pipes/uniform.py). Whatever path a launch
takes, it must leave every buffer, report and error exactly as running each block in full does
(``ASC_V1_BLOCKS=each``)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import asc
import asc.runtime as rt
import asc.runtime.config as config
from asc.runtime import v1_launch
from asc.sim.executor import KernelRuntimeError
from asc.sim.pipes import tracer

import test_v1_races as races
import test_v1_replay as replay

N = 256
UPSTREAM = next((p / "shared" / "upstream" / "pyasc-v1" for p in Path(__file__).resolve().parents
                 if (p / "shared" / "upstream" / "pyasc-v1").is_dir()), None)


def _tutorial(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@asc.jit
def tail_block(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, last: int):
    """The last block copies fewer elements: another stream, its own class of blocks."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    m = last if b == asc.get_block_num() - 1 else n
    asc.data_copy(a, x_gm, m)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(a, a, 2.0, m)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, a, m)


@asc.jit
def past_the_end_in_block_2(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """The same stream in every block, but block 2's copy-in reaches past x: the error of block 2."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * (n + n // 2 * (b // 2)))
    z_gm.set_global_buffer(z + b * n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


@asc.jit
def bad_event_in_last_block(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Blocks 0-2 run; block 3's flag has an event id outside 0-7 (an error of the language layer)."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    ev = 8 if b == 3 else 0
    asc.set_flag(asc.HardEvent.MTE2_MTE3, ev)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, ev)
    asc.data_copy(z_gm, a, n)


@asc.jit
def shifted_windows(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, step: int):
    """Block b copies n elements of x at b * step to z at b * step: ``step`` < n makes the blocks' windows
    overlap (written with equal values when x is the same there, else a cross-block error)."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * step)
    z_gm.set_global_buffer(z + step * b)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(a, a, 1.0, n)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, a, n)


@asc.jit
def reversed_windows(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Block b takes the (blocks - 1 - b)-th window: addresses falling with the block."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + (asc.get_block_num() - 1 - b) * n, n)
    z_gm.set_global_buffer(z + (asc.get_block_num() - 1 - b) * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


@asc.jit
def fails_after_a_copy_out(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, hang: asc.ConstExpr[bool]):
    """Every block copies its window out, then races (a vector write of the buffer the copy-out still
    reads) or hangs (a wait no set_flag answers): block 0's error, with its copy-out in z as in full."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)
    if hang:
        asc.wait_flag(asc.HardEvent.V_MTE3, 1)
    asc.muls(a, a, 2.0, n)


@asc.jit
def race_in_block_1(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Block 1 alone skips the wait before its vector instruction: a race only that block has."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    if b != 1:
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(a, a, 3.0, n)
    if b == 1:
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


@asc.jit
def tiles_per_block(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Block b runs b + 1 tiles (``range`` of the block index): a stream per block."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    for i in range(b + 1):
        asc.data_copy(a, x_gm, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.adds(a, a, i, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm, a, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def tiles_and_tail(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tiles: int):
    """Every block the same tiles at its own offset (block arithmetic: b * tiles * n, // and % of it),
    duplicate and a reduction: traced once, blocks 1.. as lanes."""
    base = asc.get_block_idx() * tiles * n
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + base // 2 * 2, tiles * n)
    z_gm.set_global_buffer(z + base % n + base, tiles * n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    c = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, n * 4, n)
    asc.duplicate(c, 0.5, n)
    for i in range(tiles):
        asc.data_copy(a, x_gm[i * n:], n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.add(a, a, c, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm[i * n:], a, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


@asc.jit
def pairs_by_mod_and_floordiv(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, pair: asc.ConstExpr[bool]):
    """Block b writes z at (b % 2 + b // 2 * 2) * n, which is b * n in every block though neither part moves
    by one step; with ``pair`` it reads x at the start of its pair of blocks (b // 2 * 2 * n: a table)."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + (b // 2 * 2 if pair else b) * n, n)
    z_gm.set_global_buffer(z + (b % 2 + b // 2 * 2) * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    if b < asc.get_block_num():           # true in every block: the trace goes on
        asc.data_copy(a, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.adds(a, a, 1.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


@asc.jit
def rotated_reads(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, shift: int, split: asc.ConstExpr[bool]):
    """Block b reads x[(b + shift) % blocks] (the modulus wraps in the last blocks) and writes z[b]; with
    ``split``, blocks of an even index add 1 and odd ones 2 (a branch on b % 2, differing between blocks)."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + (b + shift) % asc.get_block_num() * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.adds(a, a, 2.0 if split and b % 2 else 1.0, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


def _launches():
    x = np.arange(4 * N, dtype=np.float32) - 100
    out = [
        ("tail", tail_block, 4, lambda: (x.copy(), np.zeros_like(x), N, N // 2)),
        ("past the end", past_the_end_in_block_2, 4, lambda: (x[:3 * N + N // 2].copy(), np.zeros_like(x), N)),
        ("same values", replay.same_values, 4, lambda: (x.copy(), np.zeros_like(x), N)),
        ("diverging", replay.diverging, 4, lambda: (x.copy(), np.zeros_like(x), N)),
        ("data branch", replay.data_branch, 1, lambda: (x.copy(), np.zeros_like(x), N)),
        ("reads neighbour", replay.reads_neighbour, 4, lambda: (x.copy(), np.zeros_like(x), np.zeros_like(x), N)),
        ("flagged tiles", races.copy_add_copy, 2, lambda: (x.copy(), np.zeros_like(x), 2, True, True, True)),
        ("missing flag", races.copy_add_copy, 2, lambda: (x.copy(), np.zeros_like(x), 2, True, False, True)),
        ("shift through gm", races.shift_through_gm, 2, lambda: (np.zeros(2 * N, np.float32), 0)),
        ("event id out of range in block 3", bad_event_in_last_block, 4, lambda: (x.copy(), np.zeros_like(x), N)),
        ("past the end in the last block only", shifted_windows, 4,
         lambda: (x[:4 * N - 64].copy(), np.zeros(4 * N, np.float32), N, N)),
        ("write past the end in the last block only", shifted_windows, 4,
         lambda: (x.copy(), np.zeros(4 * N - 64, np.float32), N, N)),
        ("windows overlap, equal values", shifted_windows, 4,
         lambda: (np.ones(4 * N, np.float32), np.zeros(4 * N, np.float32), N, N // 2)),
        ("windows overlap, other values", shifted_windows, 4,
         lambda: (x.copy(), np.zeros(4 * N, np.float32), N, N // 2)),
        ("uninitialised tail", shifted_windows, 4, lambda: (x.copy(), np.zeros(4 * N, np.float32), N - 4, N)),
        ("windows apart", shifted_windows, 4, lambda: (x.copy(), np.zeros(4 * N, np.float32), N // 2, N)),
        ("windows in reverse block order", reversed_windows, 4, lambda: (x.copy(), np.zeros_like(x), N)),
        ("race after a copy out", fails_after_a_copy_out, 4, lambda: (x.copy(), np.zeros_like(x), N, False)),
        ("hang after a copy out", fails_after_a_copy_out, 4, lambda: (x.copy(), np.zeros_like(x), N, True)),
        ("race in block 1 only", race_in_block_1, 4, lambda: (x.copy(), np.zeros_like(x), N)),
        ("range of the block index", tiles_per_block, 4, lambda: (x.copy(), np.zeros_like(x), N)),
        ("tiles with a tail of block arithmetic", tiles_and_tail, 2, lambda: (x.copy(), np.zeros_like(x), N // 2, 2)),
        ("% and // that add up to the block", pairs_by_mod_and_floordiv, 4,
         lambda: (x.copy(), np.zeros_like(x), N, False)),
        ("reads of the pair's first block (//)", pairs_by_mod_and_floordiv, 4,
         lambda: (x.copy(), np.zeros_like(x), N, True)),
        ("pairs over 3 blocks (the last one alone)", pairs_by_mod_and_floordiv, 3,
         lambda: (x.copy(), np.zeros_like(x), N, True)),
        ("reads rotated by 1 (% wraps in the last block)", rotated_reads, 4,
         lambda: (x.copy(), np.zeros_like(x), N, 1, False)),
        ("reads rotated by 3, past the end before %", rotated_reads, 4,
         lambda: (x.copy(), np.zeros_like(x), N, 3, False)),
        ("reads rotated by 4 (% gives the block)", rotated_reads, 4,
         lambda: (x.copy(), np.zeros_like(x), N, 4, False)),
        ("a branch on block % 2", rotated_reads, 4, lambda: (x.copy(), np.zeros_like(x), N, 1, True)),
        ("rotated reads past the end in the last block", rotated_reads, 4,
         lambda: (x[:3 * N + N // 2].copy(), np.zeros_like(x), N, 0, False)),
    ]
    if UPSTREAM is not None:
        t1 = _tutorial(UPSTREAM / "tutorials" / "01_add" / "add.py")
        t2 = _tutorial(UPSTREAM / "tutorials" / "02_add_framework" / "add_framework.py")
        y = np.arange(8 * 2048, dtype=np.float32)
        out += [("tutorial 01", t1.vadd_kernel, 8, lambda: (y.copy(), y + 1, np.zeros_like(y), 2048)),
                ("tutorial 02", t2.vadd_kernel, 8, lambda: (y.copy(), y + 1, np.zeros_like(y), 2048, 128))]
    return out


def _outcome(kernel, blocks, args):
    kernel.__dict__.pop("_v1_tapes", None)
    try:
        kernel[blocks](*args)
    except (KernelRuntimeError, ValueError) as e:
        return None, f"{type(e).__name__}: {e}"
    report = dict(rt.last_launch_report())
    return report, None


@pytest.mark.parametrize("platform", [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599])
@pytest.mark.parametrize("name,kernel,blocks,make", _launches(), ids=[c[0] for c in _launches()])
def test_blocks_run_as_block_0_leave_what_running_each_block_leaves(name, kernel, blocks, make, platform,
                                                                     monkeypatch):
    config.set_platform(config.Backend.Model, platform)
    monkeypatch.setenv("ASC_REPLAY", "off")
    results = {}
    for mode in ("", "untraced", "each"):
        monkeypatch.setenv("ASC_V1_BLOCKS", mode)
        args = make()
        results[mode] = _outcome(kernel, blocks, args), [a.view(np.uint8).copy() for a in args
                                                        if isinstance(a, np.ndarray)]
    (rep_e, err_e), bufs_e = results["each"]
    for mode in ("", "untraced"):
        (rep_u, err_u), bufs_u = results[mode]
        assert err_u == err_e
        assert rep_u == rep_e
        for a, b in zip(bufs_u, bufs_e):
            np.testing.assert_array_equal(a, b)


def test_uniform_blocks_skip_the_engine_for_blocks_1_on(monkeypatch):
    """The path is taken: only block 0 is issued to a full engine in a launch of identical blocks."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    seen = []
    real = v1_launch.BlockEngine

    class Counting(real):
        def __init__(self, launch, b):
            seen.append(b)
            super().__init__(launch, b)
    monkeypatch.setattr(v1_launch, "BlockEngine", Counting)
    monkeypatch.setattr(tracer, "BlockEngine", Counting)
    x = np.arange(4 * N, dtype=np.float32)
    z = np.zeros_like(x)
    shifted_windows[4](x, z, N, N)       # every block the same stream at its own offset
    np.testing.assert_array_equal(z, x + 1)
    assert seen == [0]
    seen.clear()
    tail_block[4](x, z, N, N)            # a decision on the last block (the same count): two classes
    np.testing.assert_array_equal(z, x * 2)
    assert seen == [0, 3]
    seen.clear()
    tail_block[4](x, z, N, N // 2)       # the last block's stream differs: a class of its own, run in full
    assert seen == [0, 3]


def test_random_programs_leave_the_same_buffers_either_way(monkeypatch):
    """Random straight-line programs (test_v1_replay.program: copies, vector instructions, reads of what
    nothing wrote) over 3 blocks: running blocks 1.. as block 0 equals running each in full."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    monkeypatch.setenv("ASC_REPLAY", "off")

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(replay._instructions(), min_size=1, max_size=10))
    def check(prog):
        out = replay.traced_and_each_block(monkeypatch, prog, seed=len(prog))
        if out is not None:
            np.testing.assert_array_equal(out[""][0], out["each"][0])
            assert out[""][1] == out["each"][1]
    check()


@pytest.mark.parametrize("name,path", [
    ("tutorial 01", "lanes"), ("tutorial 02", "lanes"), ("tiles with a tail of block arithmetic", "lanes"),
    ("windows apart", "lanes"),
    ("windows in reverse block order", "per block: an access moving backwards with the block"),
    ("past the end in the last block only", "per block: an access past its argument's end in a later block"),
    ("write past the end in the last block only", "per block: an access past its argument's end in a later block"),
    ("windows overlap, equal values", "per block: blocks whose GM windows overlap"),
    ("windows overlap, other values", "per block: blocks whose GM windows overlap"),
    ("reads neighbour", "per block: an access that does not move by one step per block"),  # (b + 1) % blocks
    ("% and // that add up to the block", "lanes"),
    ("reads of the pair's first block (//)", "per block: an access that does not move by one step per block"),
    ("reads rotated by 1 (% wraps in the last block)",
     "per block: an access that does not move by one step per block"),
    ("reads rotated by 4 (% gives the block)", "lanes"),
    ("a branch on block % 2", "lanes in 4 classes of blocks"),      # a class per block (test_v1_block_classes)
    ("rotated reads past the end in the last block", "per block: an access past its argument's end"),
    ("race in block 1 only", "lanes in 3 classes of blocks"),       # blocks 0, 1 and 2-3; block 1 raises
    ("range of the block index", "lanes in 4 classes of blocks"),
    ("data branch", None),     # one block: nothing to trace
    ("tail", "lanes in 2 classes of blocks"),
    ("uninitialised tail", "per block: block 0 warned"),     # the warning of block 0 only, as in full
    ("missing flag", None),    # block 0's race error ends the launch
])
def test_each_launch_takes_the_path_its_stream_allows(name, path, monkeypatch):
    """The trace runs blocks 1.. as lanes exactly when their stream is block 0's at a per-block GM offset,
    in bounds and apart; else blocks 1.. run the stream in full, or the body runs per block."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)
    found = [c for c in _launches() if c[0] == name]
    if not found:
        pytest.skip(f"{name}: upstream's v1 tutorials are not beside the repository (../shared/upstream/pyasc-v1)")
    _, kernel, blocks, make = found[0]
    tracer.STATS.clear()
    _outcome(kernel, blocks, make())
    taken = [k for k, v in tracer.STATS.items() if v]
    if path is None:
        assert taken == []
    else:
        assert len(taken) == 1 and taken[0].startswith(path), taken


@asc.jit
def prints_its_block(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """asc.printf of the block index in the body (a debugging line): each block's own number."""
    b = asc.get_block_idx()
    asc.printf("block %d of %d\n", b, asc.get_block_num())
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, x_gm, n)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


def test_printing_the_block_index_prints_each_blocks_number(monkeypatch, capsys):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)
    x = np.arange(4 * N, dtype=np.float32)
    z = np.zeros_like(x)
    prints_its_block[4](x, z, N)
    np.testing.assert_array_equal(z, x)
    assert capsys.readouterr().out == "".join(f"block {b} of 4\n" for b in range(4))

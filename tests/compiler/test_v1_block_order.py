"""Blocks ordering themselves through a GM workspace: ``ib_set`` / ``ib_wait`` (a given block's event) and
``notify_next_block`` / ``wait_pre_block`` (blocks in turn). A wait orders the waiter after what the setter did
before its set, for the GM race checks and the ticks; a wait nobody satisfies is a hang, as on the device."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.ir.faults import KernelRuntimeError, PipeHangError
from asc.runtime.platforms import hardware

N = 64
SEEN = []


@pytest.fixture(params=["Ascend910B1", "Ascend950PR_9599"])
def platform(request):
    config.set_platform(config.Backend.Model, getattr(config.Platform, request.param))
    SEEN.clear()
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def line_of(fn, text):
    src, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, t in enumerate(src) if text in t)


@asc.jit(always_compile=True)
def handoff(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, ws: asc.GlobalAddress,
            how: asc.ConstExpr[str]):
    b = asc.get_block_idx()
    xg, zg, wg, wsg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    wg.set_global_buffer(w)
    wsg.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 2 * N * 4, 8)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    src = 1 if how == "later" else 0            # the block producing z
    if b == src:
        asc.data_copy(a, xg[src * N:], N)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        for _ in range(8):                       # the producer works a while
            asc.muls(a, a, 2.0, N)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(zg[src * N:], a, N)
        if how != "none":
            asc.ib_set(wsg, ub, src, 0)          # the set
            SEEN.append(("set", asc.get_system_cycle()))
        if how == "after_set":
            asc.data_copy(zg[src * N:], a, N)    # written again after the set
    else:
        if how == "unset":
            asc.ib_wait(wsg, ub, src, 1)         # the unset wait
        elif how != "none":
            asc.ib_wait(wsg, ub, src, 0)
        SEEN.append(("waited", asc.get_system_cycle()))
        asc.data_copy(a, zg[src * N:], N)        # the read of the other block's z
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.adds(a, a, 1.0, N)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(wg, a, N)                  # w: the consumer's result


def run_handoff(how, blocks=2, ws_words=None):
    x = np.arange(blocks * N, dtype=np.float32) / 8
    z, w = np.zeros_like(x), np.zeros(N, dtype=np.float32)
    ws = np.zeros(ws_words if ws_words is not None else 16 * blocks, dtype=np.int32)
    handoff[blocks](x, z, w, ws, how)
    return x, z, w, ws


def test_a_block_reads_what_another_wrote_before_its_ib_set(platform):
    x, z, w, ws = run_handoff("first")
    np.testing.assert_array_equal(z[:N], x[:N] * 256)
    np.testing.assert_array_equal(w, x[:N] * 256 + 1)
    assert handoff.last_launch["warnings"] == []
    assert not ws.any()                          # the wait took the flag: its word is 0 again
    (_, set_at), (_, waited_at) = SEEN[-2:] if SEEN[-2][0] == "set" else SEEN[-2:][::-1]
    assert waited_at > set_at                    # the waiter goes on after the set


def test_a_wait_on_a_later_block_runs_that_block_first(platform):
    x, z, w, ws = run_handoff("later")
    np.testing.assert_array_equal(w, x[N:] * 256 + 1)
    order = [k for k, _ in SEEN]
    assert order == ["set", "waited"], order     # block 0 waited while block 1 ran to its set
    assert dict(SEEN)["waited"] > dict(SEEN)["set"]


def test_without_the_flag_the_read_is_a_race_naming_the_fix(platform):
    with pytest.raises(KernelRuntimeError, match=r"(?s)reads data written by block 0.*ib_set.*ib_wait") as e:
        run_handoff("none")
    assert f"test_v1_block_order.py:{line_of(handoff, 'the read of the other block')}" in str(e.value)


def test_a_write_just_after_the_set_is_not_ordered(platform):
    with pytest.raises(KernelRuntimeError, match=rf"reads data written by block 0.*block 0's write at line "
                       rf"{line_of(handoff, 'written again after the set')}"):
        run_handoff("after_set")


def test_a_wait_nobody_sets_hangs_at_its_line(platform):
    with pytest.raises(PipeHangError, match=rf"test_v1_block_order.py:{line_of(handoff, 'the unset wait')}: block 1 "
                       r"waits for an ib_set of the flag of block 0, event 1 .*which no block sets any more \(block\(s\) 0 ended\)"):
        run_handoff("unset", ws_words=8 * 3)     # event 1 of 2 blocks, block 0: word (1 * 2 + 0) * 8, 96 bytes


def test_the_workspace_must_hold_the_flags_word(platform):
    with pytest.raises(ValueError, match="ib_wait: gm_workspace holds 92 bytes, this call needs 96"):
        run_handoff("unset", ws_words=8 * 3 - 1)  # one int32 short of event 1's flag of block 0


def test_a_flag_left_set_from_before_the_launch_makes_ib_set_wait(platform):
    x = np.arange(2 * N, dtype=np.float32)
    ws = np.zeros(32, dtype=np.int32)
    ws[0] = 1                                    # not zeroed: the flag of block 0, event 0 looks set
    with pytest.raises(PipeHangError, match=r"block 0 waits for the flag of block 0, event 0 .* to be taken"):
        # one block: its set waits for a consumer of the stale flag that never comes
        handoff[1](x, np.zeros_like(x), np.zeros(N, np.float32), ws, "first")


def test_more_blocks_than_cores_are_refused(platform):
    cores = hardware(getattr(config.Platform, platform)).aiv_cores
    with pytest.raises(RuntimeError, match=rf"in a launch of {cores + 1} blocks on {cores} cores"):
        run_handoff("first", blocks=cores + 1)


@asc.jit
def in_turn(x: asc.GlobalAddress, acc: asc.GlobalAddress, ws: asc.GlobalAddress, how: asc.ConstExpr[str]):
    b = asc.get_block_idx()
    n = asc.get_block_num()
    xg, accg, wsg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    accg.set_global_buffer(acc)
    wsg.set_global_buffer(ws)
    ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, 2 * N * 4, 8 * n + 8)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, N * 4, N)
    asc.data_copy(a, xg[b * N:], N)
    if how != "none":
        asc.wait_pre_block(wsg, ub)              # the turn
    asc.data_copy(t, accg, N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.add(t, t, a, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(accg, t, N)
    if how != "none" and not (how == "skip" and b == 1):
        asc.notify_next_block(wsg, ub)


def test_blocks_accumulate_in_turn(platform):
    blocks = 4
    x = (np.random.default_rng(1).standard_normal(blocks * N) * 1e4).astype(np.float32)
    acc = np.zeros(N, dtype=np.float32)
    ws = np.zeros(8 * blocks, dtype=np.int32)
    in_turn[blocks](x, acc, ws, "turns")
    expect = np.zeros(N, dtype=np.float32)
    for b in range(blocks):                      # block 0 first, then 1, 2, 3: float32 sums in that order
        expect = expect + x[b * N:(b + 1) * N]
    np.testing.assert_array_equal(acc, expect)
    np.testing.assert_array_equal(ws[::8], [1] * blocks)
    assert in_turn.last_launch["warnings"] == []


def test_a_one_block_launch_runs_its_flags_again_each_time(platform):
    # the counters are GM words the launch writes outside any instruction: a replay would skip them
    for k in range(1, 4):
        ws = np.zeros(8, dtype=np.int32)
        ws[0] = 10 * k
        acc = np.zeros(N, dtype=np.float32)
        in_turn[1](np.full(N, k, np.float32), acc, ws, "turns")
        assert ws[0] == 10 * k + 1
        np.testing.assert_array_equal(acc, np.full(N, k, np.float32))
    assert all(t is None for t in in_turn.__dict__.get("_v1_tapes", {}).values())


def test_blocks_without_turns_race(platform):
    with pytest.raises(KernelRuntimeError, match=r"(?s)block 0.*wait_pre_block"):
        in_turn[2](np.ones(2 * N, np.float32), np.zeros(N, np.float32), np.zeros(16, np.int32), "none")


def test_a_block_that_never_notifies_hangs_the_next(platform):
    with pytest.raises(PipeHangError, match=rf":{line_of(in_turn, 'the turn')}: block 2 waits for block 1's "
                       r"notify_next_block .*block\(s\) 0, 1 ended"):
        in_turn[3](np.ones(3 * N, np.float32), np.zeros(N, np.float32), np.zeros(24, np.int32), "skip")


def test_the_turn_workspace_needs_32_bytes_per_block(platform):
    with pytest.raises(ValueError, match="wait_pre_block: gm_workspace holds 64 bytes, this call needs 96"):
        in_turn[3](np.ones(3 * N, np.float32), np.zeros(N, np.float32), np.zeros(16, np.int32), "turns")

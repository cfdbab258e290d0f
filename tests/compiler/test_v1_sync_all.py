"""``asc.sync_all``: every block of a launch waits until all have arrived; GM written before it is visible to
every block after it, and a block that never arrives hangs the others, as on the device."""
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


@asc.jit(always_compile=True)
def exchange(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, how: asc.ConstExpr[str]):
    b = asc.get_block_idx()
    n = asc.get_block_num()
    xg, zg, wg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    wg.set_global_buffer(w)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N)
    asc.data_copy(a, xg[b * N:], N)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    for _ in range(1 + 8 * (b == 0)):        # block 0 works longer before the barrier
        asc.muls(a, a, 2.0, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg[b * N:], a, N)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)    # the counter is read on the scalar unit: wait for the pipes
    SEEN.append(("before", b, asc.get_system_cycle()))
    if how in ("sync", "trap") or (how == "skip" and b != 1):
        asc.sync_all()   # the hard form
    elif how.startswith("soft"):
        ub = asc.LocalTensor(asc.int32, asc.TPosition.VECCALC, N * 4, 8 * n if how == "soft" else 8)
        asc.sync_all(wg, ub)
    SEEN.append(("after", b, asc.get_system_cycle()))
    if how == "trap" and b == 2:
        asc.trap()
    if how == "skip":
        return
    nb = (b + 1) % n                        # the next block's result, written before the barrier
    asc.data_copy(a, zg[nb * N:], N)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(wg[b * N:], a, N)


def args(blocks):
    x = np.arange(blocks * N, dtype=np.float32)
    return x, np.zeros_like(x), np.zeros_like(x)


def expected(x, blocks):
    z = x * 2
    z[:N] = x[:N] * 2 ** 9
    return z, np.roll(z, -N)


def test_blocks_read_what_other_blocks_wrote_before_the_barrier(platform):
    x, z, w = args(4)
    exchange[4](x, z, w, "sync")
    ez, ew = expected(x, 4)
    np.testing.assert_array_equal(z, ez)
    np.testing.assert_array_equal(w, ew)
    assert exchange.last_launch["warnings"] == []
    before = {b: t for k, b, t in SEEN if k == "before"}
    after = {b: t for k, b, t in SEEN if k == "after"}
    # every block goes on after the slowest (block 0) arrived: one time for all, later than any arrival
    assert len(set(after.values())) == 1 and min(after.values()) > max(before.values()), SEEN
    assert before[0] > before[1]


def test_without_the_barrier_the_read_races_with_the_other_blocks_write(platform):
    x, z, w = args(4)
    with pytest.raises(KernelRuntimeError, match="overwrites elements block 0 read"):
        exchange[4](x, z, w, "none")


def test_a_block_that_never_arrives_hangs_the_others(platform):
    x, z, w = args(3)
    src, first = inspect.getsourcelines(exchange.fn)
    line = first + next(i for i, t in enumerate(src) if "# the hard form" in t)
    with pytest.raises(PipeHangError, match=rf"test_v1_sync_all.py:{line}: sync_all: block\(s\) 0, 2 wait here for "
                       r"every block, and block\(s\) 1 ended without reaching a sync_all"):
        exchange[3](x, z, w, "skip")


def test_an_error_after_the_barrier_ends_the_launch(platform):
    x, z, w = args(4)
    with pytest.raises(KernelRuntimeError, match=r"asc.trap\(\): the kernel stopped here"):
        exchange[4](x, z, w, "trap")


def test_soft_sync_needs_32_bytes_of_workspace_per_block(platform):
    x, z, w = args(2)
    exchange[2](x, z, w, "soft")              # w (512 bytes) and a 64-byte UB workspace cover 2 blocks
    np.testing.assert_array_equal(w, expected(x, 2)[1])
    x, z, w = args(3)
    with pytest.raises(ValueError, match="ub_workspace holds 32 bytes, the soft sync needs 96"):
        exchange[3](x, z, w, "soft_small")


def test_more_blocks_than_cores_wait_for_ever(platform):
    cores = hardware(getattr(config.Platform, platform)).aiv_cores
    x, z, w = args(cores + 1)
    with pytest.raises(RuntimeError, match=rf"sync_all in a launch of {cores + 1} blocks on {cores} cores"):
        exchange[cores + 1](x, z, w, "sync")

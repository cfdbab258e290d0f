"""``cross_core_set_flag`` / ``cross_core_wait_flag``: a counter per flag id and core; mode 0 spans every core of
the launch, mode 1 the two vector cores of a MIX group; a wait orders the waiter after every set it needed."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.ir.faults import KernelRuntimeError, PipeHangError

N = 64


@pytest.fixture(params=["Ascend910B1", "Ascend950PR_9599"])
def platform(request):
    config.set_platform(config.Backend.Model, getattr(config.Platform, request.param))
    yield request.param
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


@asc.jit
def body(x, z, w, how: asc.ConstExpr[str], mode: asc.ConstExpr[int]):
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
    asc.muls(a, a, 3.0, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(zg[b * N:], a, N)
    if how != "none":
        asc.cross_core_set_flag(3, mode, asc.PipeID.PIPE_V if how == "wrong_pipe" else asc.PipeID.PIPE_MTE3)
    if how == "skip_wait":
        return
    if how != "none":
        asc.cross_core_wait_flag(3, mode, asc.PipeID.PIPE_MTE2)
    asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)      # a is read by the copy out before it is filled again
    asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)
    nb = b ^ 1 if mode == 1 else (b + 1) % n       # the partner's (mode 1) or the next block's result
    asc.data_copy(a, zg[nb * N:], N)             # the read of another block's z
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(wg[b * N:], a, N)


@asc.jit
def everyone(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, how: asc.ConstExpr[str],
             mode: asc.ConstExpr[int]):
    body(x, z, w, how, mode)


@asc.jit(kernel_type=config.KernelType.MIX_AIC_1_2)
def pairs(x: asc.GlobalAddress, z: asc.GlobalAddress, w: asc.GlobalAddress, how: asc.ConstExpr[str],
          mode: asc.ConstExpr[int]):
    body(x, z, w, how, mode)


def launch(kernel, blocks, how, mode, cores=None):
    n = blocks if cores is None else 2 * cores
    x = np.arange(n * N, dtype=np.float32)
    z, w = np.zeros_like(x), np.zeros_like(x)
    kernel[cores or blocks](x, z, w, how, mode)
    return x, z, w


def test_mode_0_orders_every_block_after_every_set(platform):
    x, z, w = launch(everyone, 4, "flags", 0)
    np.testing.assert_array_equal(w, np.roll(x * 3, -N))
    assert everyone.last_launch["warnings"] == []


def test_without_the_flags_the_read_races(platform):
    with pytest.raises(KernelRuntimeError, match=r"(?s)overwrites elements block 0 read.*cross_core_set_flag / cross_core_wait_flag"):
        launch(everyone, 4, "none", 0)


def test_a_set_on_a_pipe_the_copy_is_not_ordered_before_is_refused(platform):
    src, first = inspect.getsourcelines(body.fn)
    line = first + next(i for i, t in enumerate(src) if "asc.data_copy(zg[b * N:], a, N)" in t)
    with pytest.raises(RuntimeError, match=rf"cross_core_set_flag on PIPE_V fires once PIPE_V's earlier instructions "
                       rf"are done, and nothing orders the data_copy on MTE3 at line {line}"):
        launch(everyone, 2, "wrong_pipe", 0)


def test_a_wait_for_a_block_that_never_sets_hangs(platform):
    with pytest.raises(PipeHangError, match=r"block 1 waits for cross_core_set_flag\(3\) \(mode 0\) of block\(s\) "
                       r"0, 1, 2 \(set number 1\)"):
        _one_block_sets(3)


@asc.jit
def sets_only_on_0(x: asc.GlobalAddress, times: asc.ConstExpr[int]):
    for _ in range(times):
        asc.cross_core_set_flag(0, 0, asc.PipeID.PIPE_S)
    if asc.get_block_idx() != 0 or times == 0:
        asc.cross_core_wait_flag(0, 0, asc.PipeID.PIPE_S)


def _one_block_sets(blocks):
    """Only block 0 sets the flag; every block waits."""
    @asc.jit
    def k(x: asc.GlobalAddress):
        if asc.get_block_idx() == 0:
            asc.cross_core_set_flag(3, 0, asc.PipeID.PIPE_S)
        asc.cross_core_wait_flag(3, 0, asc.PipeID.PIPE_S)
    k[blocks](np.zeros(8, np.float32))


def test_a_counter_holds_15_sets(platform):
    sets_only_on_0[1](np.zeros(8, np.float32), 15)
    with pytest.raises(RuntimeError, match=r"block 0's counter of the flag would hold 16 sets not yet waited for"):
        sets_only_on_0[1](np.zeros(8, np.float32), 16)


def test_a_wait_before_any_set_hangs_a_lone_block(platform):
    with pytest.raises(PipeHangError, match=r"block 0 waits for cross_core_set_flag\(0\).*no other block runs"):
        sets_only_on_0[1](np.zeros(8, np.float32), 0)


def test_mode_1_pairs_the_vector_cores_of_a_group(platform):
    x, z, w = launch(pairs, None, "flags", 1, cores=2)          # 2 groups: blocks (0, 1) and (2, 3)
    expect = (x * 3).reshape(4, N)[[1, 0, 3, 2]].reshape(-1)
    np.testing.assert_array_equal(w, expect)


def test_mode_1_needs_a_mix_kernel_and_mode_2_is_refused(platform):
    with pytest.raises(ValueError, match="mode 1 synchronises the two vector cores of an AI core group, and this "
                       "AIV_ONLY kernel has one core per group"):
        launch(everyone, 2, "flags", 1)
    with pytest.raises(ValueError, match="mode 2 pairs a group's cube core with its vector cores"):
        launch(everyone, 2, "flags", 2)


def test_flag_ids_stop_at_10(platform):
    @asc.jit
    def k(x: asc.GlobalAddress, f: asc.ConstExpr[int]):
        asc.cross_core_set_flag(f, 0, asc.PipeID.PIPE_S)
        asc.cross_core_wait_flag(f, 0, asc.PipeID.PIPE_S)
    k[1](np.zeros(8, np.float32), 10)
    with pytest.raises(ValueError, match="flag_id 11 is outside 0-10"):
        k[1](np.zeros(8, np.float32), 11)

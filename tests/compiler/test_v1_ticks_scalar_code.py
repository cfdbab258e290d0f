"""A v1 kernel's scalar code (block index reads, GlobalTensor views, TPipe buffers) costs what the tile form's
scalar ops cost: the scalar calls between two instructions are one run, whose code is fetched into the cold
instruction cache on its first run (Ascend910B1's ``cold_fetch``), keyed by the run's first call site."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime as rt
import asc.runtime.config as config
from asc.runtime.platforms import hardware
from asc.sim.timeline import recording

N = 256     # elements a block moves


@asc.jit
def copy_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, where: asc.ConstExpr[str], trips: asc.ConstExpr[int]):
    """Copies its block's N elements of x to y ``trips`` times. ``where`` places one extra block index read:
    "none", "views" (in the views' run, before the first instruction) or "between" (after the copy-in: a
    run of its own, once per trip from the same site)."""
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    if where == "views":
        asc.get_block_idx()
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, N)
    for _ in range(trips):
        asc.data_copy(ub, x_gm[:], N)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        if where == "between":
            asc.get_block_idx()
        asc.data_copy(y_gm[:], ub, N)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


@asc.jit
def offset_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress):
    """Each block copies its own N elements: the block index read between the two copies."""
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    y_gm.set_global_buffer(y)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, N)
    asc.data_copy(ub, x_gm[asc.get_block_idx() * N:], N)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(y_gm[asc.get_block_idx() * N:], ub, N)


def _scalar_busy(where, trips=1, blocks=1):
    x = np.arange(N, dtype=np.float32)
    y = np.zeros_like(x)
    copy_kernel[blocks](x, y, where, trips)     # every block copies the same elements
    np.testing.assert_array_equal(y, x)
    return rt.last_launch_report()["pipes"]["S"]


@pytest.fixture
def c220():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    return hardware(config.Platform.Ascend910B1)


def test_views_alone_are_one_run_fetched_before_the_first_instruction(c220):
    """No block index, no offsets: the two set_global_buffer calls still run as scalar code, fetched once."""
    x = np.arange(N, dtype=np.float32)
    with recording():
        copy_kernel[1](x, np.zeros_like(x), "none", 1)
    events = rt.last_launch_report()["timeline"]
    scalar = [e for e in events if e["pipe"] == "S" and e["name"] == "scalar"]
    assert len(scalar) == 2                                # the two views
    assert scalar[0]["start"] == pytest.approx(c220.cold_fetch)   # after the run's fetch, before its first call
    assert scalar[1]["start"] == pytest.approx(scalar[0]["start"] + scalar[0]["dur"])   # the same run: no refetch
    first_copy = min(e["start"] for e in events if e["pipe"] == "MTE2")
    assert first_copy >= scalar[1]["start"] + scalar[1]["dur"] + c220.cold_fetch   # then the copy's own fetch


def test_a_call_in_the_views_run_costs_a_scalar_op_and_no_fetch(c220):
    assert _scalar_busy("views") - _scalar_busy("none") == pytest.approx(c220.scalar_op, abs=0.5)


def test_runs_separated_by_an_instruction_are_fetched_once_each(c220):
    assert _scalar_busy("between") - _scalar_busy("views") == pytest.approx(c220.cold_fetch, abs=0.5)


def test_a_run_repeated_from_the_same_site_is_fetched_once(c220):
    """Later trips find the run's code in the cache: each costs what a trip without the call costs, plus
    the call's scalar op."""
    more = _scalar_busy("between", 3) - _scalar_busy("between", 2)
    assert more == pytest.approx(_scalar_busy("none", 3) - _scalar_busy("none", 2) + c220.scalar_op, abs=1.0)
    assert more < c220.cold_fetch


def test_a_second_block_pays_what_the_first_pays(c220):
    assert _scalar_busy("between", blocks=4) == _scalar_busy("between", blocks=1)


@pytest.mark.parametrize("platform", [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599])
def test_traced_and_per_block_runs_charge_the_same_scalar_code(platform, monkeypatch):
    config.set_platform(config.Backend.Model, platform)
    monkeypatch.setenv("ASC_REPLAY", "off")
    reports = {}
    for mode in ("", "untraced", "each"):
        monkeypatch.setenv("ASC_V1_BLOCKS", mode)
        x = np.arange(4 * N, dtype=np.float32)
        y = np.zeros_like(x)
        offset_kernel[4](x, y)
        np.testing.assert_array_equal(y, x)
        reports[mode] = rt.last_launch_report()
    assert reports[""] == reports["untraced"] == reports["each"]
    # the traced launch saw the scalar calls too: two runs (views + first index; the second index), fetched
    fetch = hardware(platform).cold_fetch
    assert reports["each"]["pipes"]["S"] > 4 * fetch

"""Ticks of v1 kernels come from their pipes and the edges flags, barriers and queues put between them:
double buffering with flags beats the same kernel serialised by full barriers, a deeper queue beats a
depth-1 one, and the launch report, profiler and Chrome trace work as for tile kernels."""
from __future__ import annotations

import json

import numpy as np
import pytest

import asc
import asc.runtime as rt
import asc.runtime.config as config
from asc.lib.profiling import Profiler
from asc.sim.timeline import chrome_trace, recording

TILES = 16


@asc.jit
def double_buffered(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int,
                    barriers: asc.ConstExpr[bool]):
    """Tutorial 01's add with two buffers per tensor: with flags, the copy-in of a tile waits only for the
    compute that last read its buffer (V_MTE2) and the compute for the copy-out that last read its output
    buffer (MTE3_V), so copies overlap compute; with barriers every step waits for every pipe."""
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset, block_length)
    y_gm.set_global_buffer(y + offset, block_length)
    z_gm.set_global_buffer(z + offset, block_length)
    tile = block_length // TILES
    nbytes = tile * x.dtype.sizeof()
    x_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, tile * 2)
    y_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 2 * nbytes, tile * 2)
    z_ub = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 4 * nbytes, tile * 2)
    for i in range(TILES):
        b = i % 2
        if barriers:
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        elif i >= 2:
            asc.wait_flag(asc.HardEvent.V_MTE2, b)
        asc.data_copy(x_ub[b * tile:], x_gm[i * tile:], tile)
        asc.data_copy(y_ub[b * tile:], y_gm[i * tile:], tile)
        if barriers:
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        else:
            asc.set_flag(asc.HardEvent.MTE2_V, b)
            asc.wait_flag(asc.HardEvent.MTE2_V, b)
            if i >= 2:
                asc.wait_flag(asc.HardEvent.MTE3_V, b)
        asc.add(z_ub[b * tile:], x_ub[b * tile:], y_ub[b * tile:], tile)
        if barriers:
            asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        else:
            if i + 2 < TILES:
                asc.set_flag(asc.HardEvent.V_MTE2, b)
            asc.set_flag(asc.HardEvent.V_MTE3, b)
            asc.wait_flag(asc.HardEvent.V_MTE3, b)
        asc.data_copy(z_gm[i * tile:], z_ub[b * tile:], tile)
        if not barriers and i + 2 < TILES:
            asc.set_flag(asc.HardEvent.MTE3_V, b)


@asc.jit
def queued(x: asc.GlobalAddress, y: asc.GlobalAddress, z: asc.GlobalAddress, block_length: int,
           depth: asc.ConstExpr[int]):
    """Tutorial 02's add with a queue depth of ``depth``."""
    offset = asc.get_block_idx() * block_length
    x_gm = asc.GlobalTensor()
    y_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + offset)
    y_gm.set_global_buffer(y + offset)
    z_gm.set_global_buffer(z + offset)
    tile = block_length // TILES
    pipe = asc.TPipe()
    qx = asc.TQue(asc.TPosition.VECIN, depth)
    qy = asc.TQue(asc.TPosition.VECIN, depth)
    qz = asc.TQue(asc.TPosition.VECOUT, depth)
    pipe.init_buffer(qx, depth, tile * x.dtype.sizeof())
    pipe.init_buffer(qy, depth, tile * y.dtype.sizeof())
    pipe.init_buffer(qz, depth, tile * z.dtype.sizeof())
    for i in range(TILES):
        xl = qx.alloc_tensor(x.dtype)
        yl = qy.alloc_tensor(y.dtype)
        asc.data_copy(xl, x_gm[i * tile:], tile)
        asc.data_copy(yl, y_gm[i * tile:], tile)
        qx.enque(xl)
        qy.enque(yl)
        xv = qx.deque(x.dtype)
        yv = qy.deque(y.dtype)
        zl = qz.alloc_tensor(z.dtype)
        asc.add(zl, xv, yv, tile)
        qz.enque(zl)
        qx.free_tensor(xv)
        qy.free_tensor(yv)
        zv = qz.deque(z.dtype)
        asc.data_copy(z_gm[i * tile:], zv, tile)
        qz.free_tensor(zv)


def _inputs(n=8 * 2048 * 4):
    rng = np.random.default_rng(4)
    return rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)


@pytest.mark.parametrize("platform", [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599])
def test_flagged_double_buffering_beats_full_barriers(platform):
    config.set_platform(config.Backend.Model, platform)
    x, y = _inputs()
    ticks = {}
    for barriers in (False, True):
        z = np.zeros_like(x)
        double_buffered[8](x, y, z, x.size // 8, barriers)
        np.testing.assert_array_equal(z, x + y)
        report = rt.last_launch_report()
        assert report["warnings"] == []
        ticks[barriers] = report["ticks"]
    assert ticks[False] < ticks[True]


@pytest.mark.parametrize("platform", [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599])
def test_a_two_deep_queue_beats_a_one_deep_queue(platform):
    config.set_platform(config.Backend.Model, platform)
    x, y = _inputs()
    ticks = {}
    for depth in (1, 2):
        z = np.zeros_like(x)
        queued[8](x, y, z, x.size // 8, depth)
        np.testing.assert_array_equal(z, x + y)
        ticks[depth] = rt.last_launch_report()["ticks"]
    assert ticks[2] < ticks[1]


def test_the_report_profiler_and_trace_show_v1_pipes_and_flag_waits(tmp_path):
    x, y = _inputs(8 * 2048)
    z = np.zeros_like(x)
    profiler = Profiler(str(tmp_path))
    with profiler.profile(cleanup=False):
        double_buffered[8](x, y, z, x.size // 8, False)
    task, = profiler.last_result.tasks
    report = rt.last_launch_report()
    assert task.name == "double_buffered" and task.type == "AI_VECTOR_CORE" and task.duration > 0
    assert set(report["pipes"]) >= {"MTE2", "V", "MTE3"} and report["bytes_in"] == 2 * x.nbytes
    assert report["bytes_out"] == z.nbytes
    with recording():
        double_buffered[8](x, y, z, x.size // 8, False)
    events = rt.last_launch_report()["timeline"]
    assert {e["block"] for e in events} == set(range(8))
    assert {e["name"] for e in events} >= {"data_copy", "add"}
    waited = [e for e in events if e["after"] is not None]
    assert waited, "flag waits show as arrows"
    trace = chrome_trace([rt.last_launch_report()], 1800.0)
    assert any(ev.get("ph") == "s" for ev in trace["traceEvents"])
    json.dumps(trace)

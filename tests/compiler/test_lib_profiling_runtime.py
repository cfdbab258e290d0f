"""asc.lib.profiling (durations from the tick model, Chrome timelines), asc.lib.runtime on the Model
backend, asc.runtime.launcher.get_platform_info, and kernel[core_num, stream]."""
from __future__ import annotations

import json
import os
from datetime import datetime

import numpy as np
import pytest

import asc
import asc2
import asc.lib.runtime as rt
import asc.runtime.config as config
from asc.lib.profiling import Profiler, ProfilingResult, ProfilingTask, task_time_median
from asc.runtime import last_launch_report
from asc.runtime.launcher import get_platform_info
from asc.runtime.platforms import hardware


@asc2.jit
def add_one(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, 256), asc2.block_num(), parallel=True):
        asc2.store(asc2.load(x_gm, [256], offsets=[i * 256]) + 1.0, o_gm, offsets=[i * 256])


@asc2.jit
def mm(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
    a = asc2.load(asc2.tensor(a_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
    asc2.store(a @ b, asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])


@asc2.jit
def mm_relu(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
    a = asc2.load(asc2.tensor(a_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
    c = asc2.copy((a @ b).to(asc.float16), location=asc2.TileLocation.UB)
    asc2.store(asc2.exp(c.to(asc.float32)), asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])


@pytest.mark.parametrize("platform,clock", [(config.Platform.Ascend950PR_9599, 1650.0), (config.Platform.Ascend910B1, 1800.0)])
def test_profiled_durations_are_the_launch_ticks_over_the_clock(tmp_path, platform, clock):
    config.set_platform(config.Backend.Model, platform)
    x = np.arange(3000, dtype=np.float32)
    out = np.zeros_like(x)
    profiler = Profiler(str(tmp_path))
    ticks = []
    with profiler.profile():
        for cores in (1, 4, 8):
            add_one[cores, rt.current_stream()](x, out, x.size)
            ticks.append(last_launch_report()["ticks"])
    np.testing.assert_array_equal(out, x + 1)
    tasks = profiler.last_result.tasks
    assert hardware(platform).clock_mhz == clock == get_platform_info(platform).clock_mhz
    assert [t.duration for t in tasks] == [tk / clock for tk in ticks]
    assert [(t.id, t.name, t.type) for t in tasks] == [(i, "add_one", "AI_VECTOR_CORE") for i in range(3)]
    assert task_time_median(tasks) == round(float(np.median([tk / clock for tk in ticks])), 3)
    assert isinstance(profiler.last_result, ProfilingResult) and isinstance(profiler.last_result.stored_at, datetime)
    # the result folder keeps a Chrome trace of the run: one process per launch, X events in microseconds
    run_dir = tmp_path / profiler.last_result.run_id
    trace = json.loads((run_dir / "timeline.json").read_text())
    xs = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    pids = sorted({e["pid"] for e in xs})
    assert len(pids) == 3  # one process per launch
    start = (ticks[0] + ticks[1]) / clock  # launches follow each other on the stream
    last = [e for e in xs if e["pid"] == pids[-1]]
    assert {e["cat"] if "cat" in e else e["name"] for e in last} >= set(last_launch_report()["pipes"]) - {"S"}
    assert all(start - 1e-9 <= e["ts"] and e["ts"] + e["dur"] <= start + ticks[2] / clock + 1e-9 for e in last)


def test_task_types_follow_the_units_a_kernel_uses(tmp_path):
    a = np.ones((16, 16), np.float16)
    b = np.ones((16, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    profiler = Profiler(str(tmp_path))
    with profiler.profile():
        mm[1](a, b, c)
        mm_relu[1](a, b, c)
    assert [(t.name, t.type) for t in profiler.last_result.tasks] == [("mm", "AI_CORE"), ("mm_relu", "MIX_AIC")]
    np.testing.assert_allclose(c, np.exp(np.float32(16)), rtol=1e-6)


def test_task_time_median_filters_by_type_and_name_and_skips_warmup():
    tasks = [ProfilingTask(0, "memcpy", "HOST", 99.0), ProfilingTask(1, "k", "AI_CORE", 10.0),
             ProfilingTask(2, "other", "MIX_AIC", 50.0), ProfilingTask(3, "k", "AI_VECTOR_CORE", 2.0),
             ProfilingTask(4, "k", "AI_CORE", 3.0), ProfilingTask(5, "k", "AI_CORE", 4.0005)]
    assert task_time_median(tasks) == 3.5                      # first kernel task's name: 10, 2, 3, 4.0005
    assert task_time_median(tasks, skip=1) == 3.0              # warm-up dropped: 2, 3, 4.0005
    assert task_time_median(tasks, name="other", skip=1) == 50.0  # skip ignored when nothing would remain
    assert task_time_median(tasks[5:]) == 4.0                 # rounded to 3 decimals (ties to even)
    with pytest.raises(RuntimeError, match="There is no timings for task 'missing'"):
        task_time_median(tasks, name="missing")
    with pytest.raises(RuntimeError, match="There is no timings for task None"):
        task_time_median(tasks[:1])


def test_profiler_without_a_result_path_removes_its_folder_and_keeps_the_result():
    profiler = Profiler()
    with pytest.raises(RuntimeError, match="No results were stored"):
        profiler.last_result
    x = np.zeros(256, np.float32)
    with profiler.profile():
        add_one[1](x, np.zeros_like(x), x.size)
    assert profiler.result_path is None  # the temporary folder is gone
    assert len(profiler.results) == 1 and profiler.last_result.tasks[0].name == "add_one"
    with profiler.profile(cleanup=True):
        pass
    assert len(profiler.results) == 2 and profiler.last_result.tasks == ()


def test_launches_outside_profile_are_not_recorded(tmp_path):
    profiler = Profiler(str(tmp_path))
    x = np.zeros(256, np.float32)
    profiler.start()
    add_one[1](x, np.zeros_like(x), x.size)
    profiler.stop()
    add_one[1](x, np.zeros_like(x), x.size)
    result = profiler.store_last_result()
    assert len(result.tasks) == 1
    assert os.path.isfile(tmp_path / result.run_id / "timeline.json")


def test_runtime_queries_on_the_model_backend():
    assert rt.is_model() and rt.current_device() == 0
    assert rt.get_soc_version() == config.current_platform()
    assert rt.current_platform() == config.current_platform().value
    assert rt.current_stream() is rt.current_stream()
    rt.set_device(1)
    try:
        assert rt.current_device() == 1 and rt.current_stream().device_id == 1
    finally:
        rt.set_device(0)
    with pytest.raises(RuntimeError, match="Device handle should be int >= 0"):
        rt.set_device(-1)
    rt.synchronize()
    with pytest.raises(RuntimeError, match="asc.lib.runtime.malloc needs an Ascend device"):
        rt.malloc(64)
    with pytest.raises(RuntimeError, match="launch_kernel needs an Ascend device"):
        rt.launch_kernel(None, 1, [])


def test_get_platform_info_gives_the_ub_size_per_family():
    assert get_platform_info(config.Platform.Ascend910B1).ub_size == 196608
    assert get_platform_info("Ascend950PR_9599").ub_size == 253952
    assert get_platform_info().ub_size == 253952  # the selected platform (the conftest's C310)
    with pytest.raises(ValueError, match="unknown platform 'Ascend999'"):
        get_platform_info("Ascend999")

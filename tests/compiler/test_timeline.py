"""Per-pipe timelines in launch reports and their Chrome trace-event JSON."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

import asc
import asc2
import asc.runtime
from asc.runtime.platforms import hardware
import asc.runtime.config as config
from asc.sim import timeline

from test_tick_model import row_sum_kernel, unary_kernel

PIPES = {"S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3"}


def _launch(cores=4, tiles=24, tile=256, uf=2, par=True):
    x = np.linspace(-1, 1, tiles * tile, dtype=np.float32)
    out = np.zeros_like(x)
    with timeline.recording():
        unary_kernel[cores](x, out, x.size, tiles, tile, uf, par)
    return asc.runtime.last_launch_report()


def _check_trace_format(trace):
    """The trace-event format (JSON object form) as chrome://tracing and Perfetto read it."""
    assert set(trace) <= {"traceEvents", "displayTimeUnit", "otherData"}
    assert trace.get("displayTimeUnit", "ms") in ("ms", "ns")
    events = trace["traceEvents"]
    assert isinstance(events, list) and events
    flows = {}
    slices = {}
    for e in events:
        assert e["ph"] in ("X", "M", "s", "f"), e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int)
        assert isinstance(e["name"], str) and e["name"]
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "process_sort_index", "thread_name", "thread_sort_index")
            assert isinstance(e["args"], dict)
            continue
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        if e["ph"] == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] > 0
            slices.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
        else:
            flows.setdefault(e["id"], []).append(e)
    for fid, pair in flows.items():   # every flow starts once and finishes once, forward in time
        assert [p["ph"] for p in pair] == ["s", "f"], fid
        assert pair[0]["ts"] <= pair[1]["ts"] + 1e-9
    for key, spans in slices.items():  # slices of one track never overlap (each pipe runs in order)
        spans.sort()
        for (s0, e0), (s1, _) in zip(spans, spans[1:]):
            assert s1 >= e0 - 1e-6, (key, s0, e0, s1)
    json.loads(json.dumps(trace))
    return events


def test_recording_puts_a_timeline_in_the_report_and_not_in_the_json_lines(tmp_path, monkeypatch):
    path = tmp_path / "reports.jsonl"
    monkeypatch.setenv("ASC_LAUNCH_REPORT", str(path))
    r = _launch()
    assert {e["block"] for e in r["timeline"]} == {0, 1, 2, 3}
    assert {e["pipe"] for e in r["timeline"]} == {"S", "MTE2", "V", "MTE3"}
    for e in r["timeline"]:
        assert set(e) == {"block", "pipe", "name", "start", "dur", "line", "after"}
        assert e["dur"] > 0 and e["start"] >= 0
    loads = [e for e in r["timeline"] if e["block"] == 0 and e["pipe"] == "MTE2"]
    assert len(loads) == 6 and all(e["name"] == "load" for e in loads)
    assert loads[0]["line"] == unary_kernel.fn.__code__.co_firstlineno + 6
    assert "timeline" not in json.loads(path.read_text().splitlines()[-1])
    # the model's ticks are the floor plus the last block's end
    hw = hardware(config.Platform.Ascend950PR_9599)
    end = max(e["start"] + e["dur"] for e in r["timeline"])
    assert end + hw.launch_ticks <= r["ticks"] <= end + hw.launch_ticks + 3 * hw.block_stagger + 200


def test_without_recording_there_is_no_timeline():
    x = np.zeros(1024, np.float32)
    unary_kernel[4](x, np.zeros_like(x), 1024, 4, 256, 2, True)
    assert "timeline" not in asc.runtime.last_launch_report()


def test_env_switch_records(monkeypatch):
    monkeypatch.setenv("ASC_TIMELINE", "1")
    x = np.zeros(1024, np.float32)
    unary_kernel[4](x, np.zeros_like(x), 1024, 4, 256, 2, True)
    assert asc.runtime.last_launch_report()["timeline"]


def test_events_wait_for_their_data():
    r = _launch(cores=1, tiles=4)
    ev = [e for e in r["timeline"] if e["block"] == 0]
    for e in ev:
        if e["after"] is not None:
            src = ev[e["after"]]
            assert src["pipe"] != e["pipe"]
            assert e["start"] >= src["start"] + src["dur"]
    vec = [e for e in ev if e["pipe"] == "V"]
    loads = [e for e in ev if e["pipe"] == "MTE2"]
    assert vec[0]["start"] >= loads[0]["start"] + loads[0]["dur"]
    assert vec[0]["after"] is not None and ev[vec[0]["after"]]["pipe"] == "MTE2"


def test_long_loops_show_their_steady_state_as_one_slice():
    r = _launch(cores=1, tiles=64)
    steady = [e for e in r["timeline"] if "steady state" in e["name"]]
    assert len(steady) == 1 and steady[0]["pipe"] == "S"
    assert steady[0]["name"].startswith("58 trips")   # 4 warm trips, then the last group
    assert len([e for e in r["timeline"] if e["pipe"] == "MTE2"]) == 64 - int(steady[0]["name"].split()[0])


def test_chrome_trace_has_a_process_per_launch_and_a_thread_per_block_and_pipe():
    reports = [_launch(cores=2, tiles=8), _launch(cores=3, tiles=9)]
    trace = timeline.chrome_trace(reports, clock_mhz=1000.0)
    events = _check_trace_format(trace)
    assert {e["pid"] for e in events} == {1, 2}
    names = {(e["pid"], e["args"]["name"]) for e in events if e["name"] == "thread_name"}
    assert (1, "block 1 MTE2") in names and (2, "block 2 MTE3") in names and (1, "block 2 MTE2") not in names
    xs = [e for e in events if e["ph"] == "X" and e["pid"] == 1 and e["cat"] != "S"]
    assert len(xs) == len([e for e in reports[0]["timeline"] if e["pipe"] != "S"])
    first = [e for e in reports[0]["timeline"] if e["pipe"] != "S"][0]
    assert xs[0]["ts"] == pytest.approx(first["start"] / 1000.0) and xs[0]["dur"] == pytest.approx(first["dur"] / 1000.0)
    assert any(e["ph"] == "s" for e in events)   # flow arrows for the waits


def test_chrome_trace_of_a_report_without_timeline_shows_busy_pipes():
    x = np.zeros(1024, np.float32)
    unary_kernel[4](x, np.zeros_like(x), 1024, 4, 256, 2, True)
    rep = asc.runtime.last_launch_report()
    events = _check_trace_format(timeline.chrome_trace([rep], clock_mhz=1650.0))
    xs = [e for e in events if e["ph"] == "X"]
    assert sorted(e["cat"] for e in xs) == sorted(rep["pipes"])


def test_read_back_waits_show_in_the_schedule():
    rows = np.ones((4, 256), np.float32)
    with timeline.recording():
        row_sum_kernel[1](rows, np.zeros_like(rows), 4, 256, True)
    ev = asc.runtime.last_launch_report()["timeline"]
    hw = hardware(config.Platform.Ascend950PR_9599)
    sums = [e for e in ev if e["name"] == "sum"]
    splats = [e for e in ev if e["name"] == "splat"]
    # (the timeline keeps times to a thousandth of a tick)
    assert splats[0]["start"] >= sums[0]["start"] + sums[0]["dur"] + hw.vector_to_scalar - 2e-3


def test_trace_dir_writes_one_readable_trace_per_launch_named_by_prefix_count_and_kernel(tmp_path, monkeypatch):
    monkeypatch.setenv("ASC_TRACE_DIR", str(tmp_path / "traces"))
    monkeypatch.setenv("ASC_TRACE_PREFIX", "run 1/")             # made file-name safe
    x = np.zeros(1024, np.float32)
    unary_kernel[4](x, np.zeros_like(x), 1024, 4, 256, 2, True)   # ASC_TRACE_DIR alone turns recording on
    rep = asc.runtime.last_launch_report()
    unary_kernel[2](x, np.zeros_like(x), 1024, 4, 256, 2, True)
    files = sorted(os.listdir(tmp_path / "traces"))
    assert len(files) == 2 and all(f.startswith("run_1_") and f.endswith("-unary_kernel.json") for f in files)
    n0, n1 = (int(f[len("run_1_"):].split("-")[0]) for f in files)
    assert n1 == n0 + 1 and len(files[0].split("-")[0]) == len("run_1_") + 4     # a 4-digit launch count
    path = tmp_path / "traces" / files[0]
    assert os.stat(path).st_mode & 0o777 == 0o644
    hw = hardware(config.Platform.Ascend950PR_9599)
    assert json.loads(path.read_text()) == json.loads(json.dumps(timeline.chrome_trace([rep], hw.clock_mhz)))


def test_recording_nests_and_the_env_switch_off_means_off(monkeypatch):
    monkeypatch.delenv("ASC_TIMELINE", raising=False)
    monkeypatch.delenv("ASC_TRACE_DIR", raising=False)
    assert not timeline.is_recording()
    with timeline.recording():
        with timeline.recording():
            pass
        assert timeline.is_recording()            # the outer block still records
    assert not timeline.is_recording()
    timeline.stop_recording()                     # one stop too many does not leave a debt
    timeline.start_recording()
    assert timeline.is_recording()
    timeline.stop_recording()
    assert not timeline.is_recording()
    monkeypatch.setenv("ASC_TIMELINE", "0")
    assert not timeline.is_recording()
    monkeypatch.setenv("ASC_TIMELINE", "yes")
    assert timeline.is_recording()


def test_chrome_trace_threads_order_blocks_then_pipes_and_launches_follow_each_other():
    evs = [{"block": 1, "pipe": "MTE3", "name": "store", "start": 20.0, "dur": 5.0, "line": 9, "after": 1},
           {"block": 1, "pipe": "V", "name": "add", "start": 10.0, "dur": 10.0, "line": 8, "after": None},
           {"block": 0, "pipe": "S", "name": "scalar", "start": 0.0, "dur": 4.0, "line": None, "after": None},
           {"block": 0, "pipe": "S", "name": "scalar", "start": 2.0, "dur": 6.0, "line": 7, "after": None},
           {"block": 0, "pipe": "S", "name": "scalar", "start": 3.0, "dur": 1.0, "line": 7, "after": None}]
    reps = [{"kernel": "k", "core_num": 2, "ticks": 1000, "timeline": evs},
            {"kernel": "k2", "core_num": 1, "ticks": 500, "timeline": evs[2:3]}]
    trace = timeline.chrome_trace(reps, clock_mhz=2.0)        # 0.5 us per tick
    _check_trace_format(trace)
    te = trace["traceEvents"]
    meta = {(e["pid"], e["tid"], e["name"]): e["args"] for e in te if e["ph"] == "M"}
    assert meta[(1, 0, "process_name")] == {"name": "k [2 blocks] #1"}
    assert meta[(2, 0, "process_sort_index")] == {"sort_index": 2}
    n = len(timeline.PIPE_ORDER)
    tid_v = n + timeline.PIPE_ORDER.index("V") + 1
    tid_st = n + timeline.PIPE_ORDER.index("MTE3") + 1
    assert meta[(1, tid_v, "thread_name")] == {"name": "block 1 V"}
    assert meta[(1, tid_st, "thread_sort_index")] == {"sort_index": tid_st}
    assert meta[(1, 1, "thread_name")] == {"name": "block 0 S"}
    xs = [e for e in te if e["ph"] == "X"]
    store = next(e for e in xs if e["name"] == "store")
    assert (store["ts"], store["dur"], store["tid"], store["cat"]) == (10.0, 2.5, tid_st, "MTE3")
    assert store["args"] == {"ticks": 5.0, "start_tick": 20.0, "line": 9}
    # scalar slices on one track start where the previous one ended; one fully covered disappears
    s = [(e["ts"], e["dur"]) for e in xs if e["pid"] == 1 and e["tid"] == 1]
    assert s == [(0.0, 2.0), (2.0, 2.0)]
    assert "line" not in next(e for e in xs if e["pid"] == 1 and e["tid"] == 1)["args"]
    # the store waited for the vector add: a flow from the add's end to the store's start
    (start,) = [e for e in te if e["ph"] == "s"]
    (finish,) = [e for e in te if e["ph"] == "f"]
    assert (start["tid"], start["ts"], finish["tid"], finish["ts"]) == (tid_v, 10.0, tid_st, 10.0)
    assert start["id"] == finish["id"] == 1_000_001 and finish["bp"] == "e"
    # the second launch starts after the first one's ticks
    (second,) = [e for e in xs if e["pid"] == 2]
    assert second["ts"] == 1000 * 0.5 and second["dur"] == 2.0


def test_a_wait_index_outside_the_blocks_events_draws_no_arrow():
    # a report cut short (or edited) may name a wait past the block's events: the trace skips the arrow
    evs = [{"block": 0, "pipe": "V", "name": "add", "start": 0.0, "dur": 4.0, "line": 3, "after": 2},
           {"block": 0, "pipe": "MTE3", "name": "store", "start": 4.0, "dur": 2.0, "line": 4, "after": 7}]
    trace = timeline.chrome_trace([{"kernel": "k", "core_num": 1, "ticks": 10, "timeline": evs}], clock_mhz=1.0)
    _check_trace_format(trace)
    assert [e["name"] for e in trace["traceEvents"] if e["ph"] == "X"] == ["add", "store"]
    assert not [e for e in trace["traceEvents"] if e["ph"] in ("s", "f")]


@asc2.jit
def late_read_back_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    early = asc2.reduce_sum(asc2.load(x_gm, [64], offsets=[0]))    # scalars from the vector unit
    for i in asc.static_range(6):
        asc2.store(asc2.load(x_gm, [T], offsets=[i * T]) * 2.0, o_gm, offsets=[i * T])
    late = asc2.reduce_max(asc2.load(x_gm, [T], offsets=[0]))
    k = n // T - 1
    for i in asc.static_range(20):                                  # runs of scalar instructions
        k = k * 3 - 2 * k
    v_late = asc2.full([T], late, dtype=asc.float32)                # the scalar unit waits for the read-back
    for i in asc.static_range(20):
        k = k * 3 - 2 * k
    v_early = asc2.full([T], 1.0, dtype=asc.float32) * early        # ready long ago: no wait, no going back
    j = n // T - 2                                                  # scalar work that waits for nothing
    for i in asc.static_range(20):
        j = j * 3 - 2 * j
    asc2.store(v_early, o_gm, offsets=[(k - k + 6) * T])
    asc2.store(v_late, o_gm, offsets=[(j - j + 7) * T])


def test_each_pipe_runs_its_instructions_in_order_and_a_scalar_run_is_one_slice():
    T = 1024
    x = np.ones(8 * T, np.float32)
    out = np.zeros_like(x)
    with timeline.recording():
        late_read_back_kernel[1](x, out, x.size, T)
    ev = asc.runtime.last_launch_report()["timeline"]
    np.testing.assert_array_equal(out[6 * T:7 * T], 64.0)
    np.testing.assert_array_equal(out[7 * T:], 1.0)
    for pipe in {e["pipe"] for e in ev}:
        spans = [(e["start"], e["start"] + e["dur"]) for e in ev if e["pipe"] == pipe]
        for (s0, e0), (s1, _) in zip(spans, spans[1:]):
            assert s1 >= e0 - 2e-3, (pipe, spans)    # program order, one at a time (times kept to 1e-3)
    names = [e["name"] for e in ev if e["pipe"] == "S"]
    assert names.count("scalar") >= 1 and not {"floordiv", "mul", "sub", "add"} & set(names), names

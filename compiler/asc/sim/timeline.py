"""Per-pipe timelines of launches, and their Chrome trace-event JSON.

A launch report carries ``"timeline"`` (a list of events ``{"block", "pipe", "name", "start", "dur",
"line"}``, ticks, plus ``"after"``: the index in the same block's events of the event it waited for)
while recording is on: ``recording()`` / ``ASC_TIMELINE=1``, or ``ASC_TRACE_DIR=DIR``, which also writes
each launch's trace to DIR (``write_launch_trace``); the schedule costs nothing extra otherwise. ``chrome_trace`` turns reports into the trace-event format that chrome://tracing and
Perfetto open: one process per launch, one thread per block x pipe, an "X" slice per event and flow
arrows for waits across pipes.
"""
from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import tempfile

from ..ir.registry import PIPES

_RECORDING = [0]
_LAUNCHES = itertools.count(1)
PIPE_ORDER = ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3")


def is_recording(timeline_env=None, trace_dir=None) -> bool:
    """Whether launch reports carry their timeline: while a profiler records, or with ``ASC_TIMELINE`` or
    ``ASC_TRACE_DIR`` set (the launcher passes the values it read; None reads the environment)."""
    if _RECORDING[0]:
        return True
    if timeline_env is None:
        timeline_env, trace_dir = os.environ.get("ASC_TIMELINE", ""), os.environ.get("ASC_TRACE_DIR")
    return timeline_env not in ("", "0") or bool(trace_dir)


def start_recording():
    """From now on launch reports carry their per-pipe timeline (nests: each start needs one stop)."""
    _RECORDING[0] += 1


def stop_recording():
    _RECORDING[0] = max(0, _RECORDING[0] - 1)


@contextlib.contextmanager
def recording():
    """Launches inside the block carry their per-pipe timeline in the launch report."""
    start_recording()
    try:
        yield
    finally:
        stop_recording()


def events(which, scheds, starts):
    """The timeline events of every block (block b ran ``scheds[which[b]]`` starting at ``starts[b]``)."""
    out = []
    for b, (k, t0) in enumerate(zip(which.tolist(), starts.tolist())):
        base = len(out)
        for p, name, s, dur, line, dep in scheds[k].events:
            out.append({"block": b, "pipe": PIPES[p], "name": name, "start": round(t0 + s, 3),
                        "dur": round(dur, 3), "line": line, "after": None if dep is None else dep})
        del base
    return out


def chrome_trace(reports, clock_mhz) -> dict:
    """``{"traceEvents": [...]}`` for a list of launch reports (times in microseconds at ``clock_mhz``;
    launches follow each other on one stream). Reports without a timeline get one slice per busy pipe
    (from ``report["pipes"]``) on block 0."""
    us = 1.0 / float(clock_mhz)
    trace = []
    offset = 0.0
    for pid, rep in enumerate(reports, start=1):
        label = f"{rep.get('kernel', 'kernel')} [{rep.get('core_num', '?')} blocks] #{pid}"
        trace.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": label}})
        trace.append({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": pid}})
        evs = rep.get("timeline")
        if evs is None:
            evs = [{"block": 0, "pipe": p, "name": p, "start": 0, "dur": t, "line": None, "after": None}
                   for p, t in rep.get("pipes", {}).items()]
        threads = {}
        per_block = {}
        for e in evs:
            tid = e["block"] * len(PIPE_ORDER) + PIPE_ORDER.index(e["pipe"]) + 1
            if tid not in threads:
                threads[tid] = f"block {e['block']} {e['pipe']}"
            lst = per_block.setdefault(e["block"], [])
            lst.append((tid, e))
        for tid, name in sorted(threads.items()):
            trace.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}})
            trace.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": tid}})
        flow = 0
        for block, lst in sorted(per_block.items()):
            track_end = {}
            for tid, e in lst:
                start, dur = e["start"], e["dur"]
                # scalar work of interleaved unrolled clones is modelled side by side; on its single track
                # each slice starts where the previous one ended
                if start < track_end.get(tid, 0.0):
                    dur -= track_end[tid] - start
                    start = track_end[tid]
                    if dur <= 0:
                        continue
                track_end[tid] = start + dur
                args = {"ticks": e["dur"], "start_tick": e["start"]}
                if e.get("line") is not None:
                    args["line"] = e["line"]
                trace.append({"ph": "X", "name": e["name"], "cat": e["pipe"], "pid": pid, "tid": tid,
                              "ts": offset + start * us, "dur": dur * us, "args": args})
                dep = e.get("after")
                if dep is not None and 0 <= dep < len(lst):
                    src_tid, src = lst[dep]
                    flow += 1
                    fid = pid * 1_000_000 + flow
                    trace.append({"ph": "s", "id": fid, "name": "wait", "cat": "wait", "pid": pid, "tid": src_tid,
                                  "ts": offset + (src["start"] + src["dur"]) * us})
                    trace.append({"ph": "f", "bp": "e", "id": fid, "name": "wait", "cat": "wait", "pid": pid,
                                  "tid": tid, "ts": offset + start * us})
        offset += rep.get("ticks", 0) * us
    return {"traceEvents": trace, "displayTimeUnit": "ns"}


def write_launch_trace(directory, report, clock_mhz):
    """Write one launch's trace as ``<directory>/<ASC_TRACE_PREFIX><n>-<kernel>.json`` (atomically;
    ``n`` counts the launches of this process). Returns the path."""
    os.makedirs(directory, exist_ok=True)
    prefix = re.sub(r"[^A-Za-z0-9_.-]", "_", os.environ.get("ASC_TRACE_PREFIX", ""))
    kernel = re.sub(r"[^A-Za-z0-9_.-]", "_", str(report.get("kernel", "kernel")))
    path = os.path.join(directory, f"{prefix}{next(_LAUNCHES):04d}-{kernel}.json")
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(chrome_trace([report], clock_mhz), f)
    os.chmod(tmp, 0o644)   # readable like any other output file (mkstemp makes it private)
    os.replace(tmp, path)
    return path

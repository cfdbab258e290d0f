"""Chrome trace-event timelines (``{"traceEvents": [...]}``, for Perfetto UI and chrome://tracing).

One process per launch, one thread per block and pipe, one complete ("X") event per busy span, times in
microseconds (ticks / clock). A report with a ``"timeline"`` list (events ``{"block", "pipe", "name",
"start", "dur", "line"}`` in ticks) is drawn as is; otherwise each busy pipe of the busiest block
(``report["pipes"]``) is one span from the launch's start.
"""
from __future__ import annotations

PIPE_ORDER = ("MTE2", "MTE1", "V", "M", "FIX", "MTE3", "S")


def _events(report):
    if report.get("timeline"):
        return report["timeline"]
    return [{"block": 0, "pipe": p, "name": p, "start": 0, "dur": t, "line": None}
            for p, t in report.get("pipes", {}).items() if t > 0]


def chrome_trace(reports, clock_mhz) -> dict:
    """The launches ``reports`` (launch report dicts) as one Chrome trace; ``clock_mhz`` converts ticks."""
    out = []
    offset = 0.0
    for pid, report in enumerate(reports):
        out.append({"name": "process_name", "ph": "M", "pid": pid, "tid": 0,
                    "args": {"name": f"{report.get('kernel', 'kernel')}[{report.get('core_num', 1)}] "
                                     f"on {report.get('platform', '?')}"}})
        threads = {}
        for ev in _events(report):
            key = (int(ev["block"]), ev["pipe"])
            if key not in threads:
                tid = len(threads) + 1
                threads[key] = tid
                out.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                            "args": {"name": f"block {key[0]} {key[1]}"}})
                order = PIPE_ORDER.index(key[1]) if key[1] in PIPE_ORDER else len(PIPE_ORDER)
                out.append({"name": "thread_sort_index", "ph": "M", "pid": pid, "tid": tid,
                            "args": {"sort_index": key[0] * 16 + order}})
            args = {"ticks": ev["dur"]}
            if ev.get("line") is not None:
                args["line"] = ev["line"]
            out.append({"name": ev["name"], "ph": "X", "pid": pid, "tid": threads[key],
                        "ts": offset + ev["start"] / clock_mhz, "dur": ev["dur"] / clock_mhz, "args": args})
        offset += report.get("ticks", 0) / clock_mhz  # launches follow each other on one stream
    return {"traceEvents": out, "displayTimeUnit": "ns"}

"""Per-case launch traces of golden runs: kept with the evidence, summarised for the dashboard.

A golden run on the embedded engine writes one Chrome trace-event file per launch (``ASC_TRACE_DIR``;
``probe.py`` names them ``<case>-<n>-<kernel>.json``). :func:`attach` reads them into the record:
each case gets ``timeline``, a compact per-pipe summary the dashboard draws (its busy intervals in
ticks, launches one after the other, blocks merged, at most :data:`MAX_SEGMENTS` per pipe), and
``trace``, the paths of its compressed traces relative to the record's directory. The compressed
files travel in the record under ``_traces`` (a record is plain data, also from a cluster worker)
until :func:`write_record_with_traces` writes them beside the evidence and then the record.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import re
import secrets
import tempfile
import time
from pathlib import Path

from asc_harness.store.evidence import cell_dir, write_record

PIPE_ORDER = ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3")
MAX_SEGMENTS = 48
TRACES_DIR = "traces"
_NAME = re.compile(r"^(?P<case>.+)-(?P<n>\d{4})-(?P<kernel>[A-Za-z0-9_.-]+)\.json$")


def _launch_intervals(trace: dict) -> tuple[dict[str, list[list[float]]], float]:
    """{pipe: [[start, end], ...]} in ticks over every block of one launch, and the launch's last end."""
    per_pipe: dict[str, list[list[float]]] = {}
    end = 0.0
    for ev in trace.get("traceEvents") or []:
        if not isinstance(ev, dict) or ev.get("ph") != "X":
            continue
        args = ev.get("args") or {}
        pipe, start, ticks = ev.get("cat"), args.get("start_tick"), args.get("ticks")
        if pipe not in PIPE_ORDER or not isinstance(start, (int, float)) or not isinstance(ticks, (int, float)):
            continue
        per_pipe.setdefault(pipe, []).append([float(start), float(start) + max(0.0, float(ticks))])
        end = max(end, float(start) + float(ticks))
    return per_pipe, end


def _merge(intervals: list[list[float]], limit: int) -> list[list[float]]:
    """Overlapping intervals joined; then the closest neighbours joined until at most ``limit`` remain."""
    merged: list[list[float]] = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    while len(merged) > limit:
        i = min(range(len(merged) - 1), key=lambda k: merged[k + 1][0] - merged[k][1])
        merged[i:i + 2] = [[merged[i][0], merged[i + 1][1]]]
    return merged


def summarise(traces: list[dict]) -> dict:
    """The compact timeline of a case's launches (in launch order): ``{"ticks", "launches", "pipes"}``,
    ``pipes`` mapping each busy pipe to ``[[start, duration], ...]`` in ticks (integers)."""
    offset = 0.0
    per_pipe: dict[str, list[list[float]]] = {}
    for trace in traces:
        intervals, end = _launch_intervals(trace)
        for pipe, ivs in intervals.items():
            per_pipe.setdefault(pipe, []).extend([s + offset, e + offset] for s, e in ivs)
        offset += end
    pipes = {}
    for pipe in PIPE_ORDER:
        if pipe in per_pipe:
            pipes[pipe] = [[round(s), max(1, round(e - s))] for s, e in _merge(per_pipe[pipe], MAX_SEGMENTS)]
    return {"ticks": round(offset), "launches": len(traces), "pipes": pipes}


def attach(record: dict, trace_dir: Path) -> None:
    """Give each case of ``record`` its ``timeline`` and ``trace`` from the launch traces in ``trace_dir``."""
    by_case: dict[str, list[tuple[int, Path]]] = {}
    for path in trace_dir.glob("*.json"):
        m = _NAME.match(path.name)
        if m:
            by_case.setdefault(m.group("case"), []).append((int(m.group("n")), path))
    if not by_case:
        return
    tag = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + secrets.token_hex(3)
    packed: dict[str, str] = {}
    for case in record.get("cases") or []:
        files = [p for _, p in sorted(by_case.get(re.sub(r"[^A-Za-z0-9_.-]", "_", str(case.get("id"))), []))]
        traces = []
        for p in files:
            with contextlib.suppress(OSError, ValueError):
                traces.append((p, json.loads(p.read_text(encoding="utf-8"))))
        if not traces:
            continue
        case["timeline"] = summarise([t for _, t in traces])
        case["trace"] = []
        for p, _ in traces:
            rel = f"{TRACES_DIR}/{tag}/{p.name}.gz"
            packed[rel] = base64.b64encode(gzip.compress(p.read_bytes(), mtime=0)).decode("ascii")
            case["trace"].append(rel)
    if packed:
        record["_traces"] = packed


def write_record_with_traces(record: dict, evidence_dir: str | os.PathLike) -> Path:
    """Write the traces a record carries (``_traces``) beside its evidence, each atomically, then the record."""
    packed = record.pop("_traces", None) or {}
    directory = cell_dir(evidence_dir, record["cell"])
    for rel, data in packed.items():
        target = (directory / rel).resolve()
        if directory.resolve() not in target.parents or not rel.startswith(TRACES_DIR + "/"):
            raise ValueError(f"refusing a trace path outside the cell's traces folder: {rel}")
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(base64.b64decode(data))
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
    return write_record(record, evidence_dir)


def trace_paths(record: dict, written: Path) -> list[Path]:
    """The trace files a written record refers to (for committing them with it)."""
    out = []
    for case in record.get("cases") or []:
        for rel in case.get("trace") or []:
            out.append(written.parent / rel)
    return out


# --------------------------------------------------------------------------------------------------
# reading them back (dashboard)


def case_timeline(case: dict) -> dict | None:
    """A case's compact timeline as the dashboard draws it, or None when it has none (or a malformed one)."""
    tl = case.get("timeline")
    if not isinstance(tl, dict) or not isinstance(tl.get("pipes"), dict):
        return None
    ticks = tl.get("ticks")
    if not isinstance(ticks, (int, float)) or isinstance(ticks, bool) or ticks <= 0:
        return None
    pipes = {}
    for pipe in PIPE_ORDER:
        segs = tl["pipes"].get(pipe)
        if isinstance(segs, list):
            ok = [[float(s[0]), float(s[1])] for s in segs
                  if isinstance(s, list) and len(s) == 2 and all(isinstance(v, (int, float)) for v in s)]
            if ok:
                pipes[pipe] = ok
    launches = tl.get("launches") if isinstance(tl.get("launches"), int) else None
    return {"ticks": float(ticks), "launches": launches, "pipes": pipes} if pipes else None


def case_trace_links(case: dict, record_path: str, evidence_dir: Path) -> list[str]:
    """The case's trace files that exist, as paths relative to ``evidence_dir`` (like ``record_path``)."""
    links = []
    base = record_path.rsplit("/", 1)[0] if "/" in record_path else ""
    for rel in case.get("trace") or []:
        if not isinstance(rel, str) or not _LINK.match(rel):
            continue
        path = f"{base}/{rel}" if base else rel
        if (Path(evidence_dir) / path).is_file():
            links.append(path)
    return links


_LINK = re.compile(r"^traces/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+[.]json[.]gz$")

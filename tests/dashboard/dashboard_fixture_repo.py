"""A small repository (capabilities.yaml, evidence/, golden/kernels/) in the formats of
docs/interfaces.md §3–4, used by the dashboard tests."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import yaml

NOW = dt.datetime(2026, 11, 22, 12, 0, 0, tzinfo=dt.timezone.utc)
P1 = "Ascend950PR_9599"
P2 = "Ascend910B4"

KERNEL_TEMPLATE = '''"""Golden kernel: {op} on {dtype}."""
import argparse
import logging

import numpy as np

import asc
import asc2
import asc.runtime.config as config

OP = "{op}"
DTYPE = "{dtype}"
TOLERANCE = {{"atol": 1e-3, "rtol": 1e-3}}
CASES = [
    {{"id": "1x128", "shape": [1, 128]}},
    {{"id": "32x4096", "shape": [32, 4096], "full_only": True}},
]


@asc2.jit
def {op}_kernel(x: asc.GlobalAddress, out: asc.GlobalAddress, n: int):
    tile = asc2.load(x, [n])
    asc2.store(asc2.{op}(tile), out)


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return (rng.standard_normal(case["shape"], dtype=np.float32).astype(np.{dtype}),)


def launch(x):
    out = np.empty_like(x)
    {op}_kernel[16](x, out, x.size)
    return out


def reference(x):
    return np.{op}(x)
'''


def launch_trace(kernel: str, blocks: int, loads: int) -> dict:
    """A Chrome trace-event launch trace in the embedded engine's shape: per block, ``loads`` tiles loaded
    (MTE2), computed (V) and stored (MTE3), double-buffered, after a scalar prologue (S)."""
    events = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": f"{kernel} [{blocks} blocks] #1"}}]
    for b in range(blocks):
        t = 10.0
        events.append({"ph": "X", "name": "scalar", "cat": "S", "pid": 1, "tid": b * 7 + 1, "ts": 0.0, "dur": 0.01,
                       "args": {"ticks": 10.0, "start_tick": 0.0, "line": 12}})
        for i in range(loads):
            for pipe, name, dur, lag in (("MTE2", "load", 120.0, 0.0), ("V", "abs", 40.0, 120.0),
                                         ("MTE3", "store", 90.0, 160.0)):
                events.append({"ph": "X", "name": name, "cat": pipe, "pid": 1, "tid": b * 7 + 2, "ts": 0.0,
                               "dur": dur / 1650, "args": {"ticks": dur, "start_tick": t + lag, "line": 14}})
            t += 130.0
    return {"traceEvents": events}


def _stamp(when: dt.datetime) -> str:
    return when.strftime("%Y%m%dT%H%M%S%f") + "Z"


def _provenance(platform: str, commit: str, dirty: bool = False) -> dict:
    return {"harness_commit": commit, "harness_dirty": dirty, "engine": "embedded",
            "engine_version": "0.1.0", "pyasc_revision": None, "cann_version": None,
            "backend": "Model", "platform": platform, "python": "3.11.7", "seed": 2026}


class FixtureRepo:
    """Builds the fixture; ``cells`` keeps what the tests need to know about each cell."""

    def __init__(self, root: Path, platforms=(P1, P2)):
        self.root = Path(root)
        self.platforms = list(platforms)
        self.evidence_dir = self.root / "evidence"
        self.capabilities = self.root / "capabilities.yaml"
        self.cells: list[dict] = []
        self.records: dict[str, list[str]] = {}
        self._n = 0

    # -- writers ---------------------------------------------------------------------------

    def kernel(self, op: str, dtype: str) -> str:
        rel = f"golden/kernels/{op}_{dtype}.py"
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_text(KERNEL_TEMPLATE.format(op=op, dtype=dtype), encoding="utf-8")
        return rel

    def record(self, cell: dict, kind: str, when: dt.datetime, status: str = "pass", *,
               ticks=(120, 4692), runtime_verified: bool = True, failure=None, generative=None,
               perf=None, commit: str = "3f2a9c1d0e7b", kernel_sha=None, cases=None, traces: bool = False) -> str:
        self._n += 1
        rel = f"{cell['op']}/{cell['dtype']}/{cell['platform']}/{kind}-{_stamp(when)}-{self._n:04x}.json"
        kernel = cell.get("golden") or f"golden/kernels/{cell['op']}_{cell['dtype']}.py"
        if kernel_sha is None:
            kfile = self.root / kernel
            kernel_sha = hashlib.sha256(kfile.read_bytes()).hexdigest() if kfile.is_file() else "0" * 64
        if cases is None:
            shapes = [[1, 128], [32, 4096]]
            cases = []
            for shape, t in zip(shapes, ticks):
                n = 1
                for d in shape:
                    n *= d
                bad = status == "fail" and shape == shapes[-1]
                cases.append({"id": "x".join(map(str, shape)), "shape": shape,
                              "status": "fail" if bad else "pass", "atol": 1e-3, "rtol": 1e-3,
                              "max_abs_err": 0.25 if bad else 4.8e-4, "max_rel_err": 0.5 if bad else 9.7e-4,
                              "mismatches": 17 if bad else 0, "elements": n, "ticks": t, "wall_s": 0.02})
        if traces:  # as a nightly keeps them: gzip files beside the record, a compact timeline per case
            import gzip

            from asc_harness.run.traces import summarise

            for i, case in enumerate(cases):
                launch = launch_trace(f"{cell['op']}_kernel", blocks=2, loads=1 + 3 * i)
                name = f"traces/{_stamp(when)}/{case['id']}-{i + 1:04d}-{cell['op']}_kernel.json.gz"
                target = self.evidence_dir / rel.rsplit("/", 1)[0] / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(gzip.compress(json.dumps(launch).encode()))
                case["timeline"] = summarise([launch])
                case["trace"] = [name]
        rec = {
            "schema_version": 1, "kind": kind, "cell": cell["id"], "op": cell["op"],
            "dtype": cell["dtype"], "platform": cell["platform"], "kernel": kernel,
            "kernel_sha256": kernel_sha, "status": status, "runtime_verified": runtime_verified,
            "failure": failure, "cases": cases, "provenance": _provenance(cell["platform"], commit),
            "started_at": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "wall_time_s": 1.9,
            "generative": generative, "perf": perf,
        }
        path = self.evidence_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rec, indent=1), encoding="utf-8")
        self.records.setdefault(cell["id"], []).append(rel)
        return "evidence/" + rel

    def cell(self, op: str, dtype: str, platform: str, golden="confirmed", generative="pending",
             perf="pending", *, golden_file: bool = True, known_issues=None) -> dict:
        cell = {
            "id": f"{op}/{dtype}/{platform}", "op": op, "dtype": dtype, "platform": platform,
            "golden": self.kernel(op, dtype) if golden_file else f"golden/kernels/{op}_{dtype}.py",
            "shapes": [[1, 128], [32, 4096]],
            "tolerance": {"atol": 1.0e-3, "rtol": 1.0e-3},
            "prompts": {"minimal": f"Write a pyasc kernel computing {op} on {dtype} tensors.",
                        "guided": f"Write a pyasc asc2 kernel for {op} ({dtype}); tile the input in UB, "
                                  "use 16 cores, compare with numpy."},
            "golden_status": golden, "generative_status": generative, "perf_status": perf,
            "evidence": {"golden": None, "generative": [], "perf": None},
            "known_issues": known_issues or [],
        }
        self.cells.append(cell)
        return cell

    def write_registry(self) -> None:
        ops = [
            {"name": "abs", "tier": 0, "description": "elementwise absolute value"},
            {"name": "add", "tier": 0, "description": "elementwise sum of two tensors"},
            {"name": "exp", "tier": 0, "description": "elementwise exponential"},
            {"name": "relu", "tier": 0, "description": "max(x, 0)"},
            {"name": "reduce_sum", "tier": 1, "description": "sum over the last axis"},
            {"name": "softmax", "tier": 2, "description": "softmax over the last axis"},
            {"name": "layer_norm", "tier": 2, "description": "layer normalisation"},
            {"name": "matmul", "tier": 3, "description": "matrix product (cube unit)"},
        ]
        reg = {
            "schema_version": 1,
            "platforms": self.platforms,
            "tiers": [{"id": 0, "name": "elementwise"}, {"id": 1, "name": "reduction"},
                      {"id": 2, "name": "composed"}, {"id": 3, "name": "advanced"}],
            "operations": ops,
            "cells": self.cells,
        }
        self.capabilities.write_text(yaml.safe_dump(reg, sort_keys=False), encoding="utf-8")


def build(root: Path, *, platforms=(P1, P2), now: dt.datetime = NOW) -> FixtureRepo:
    """Write the fixture repository under ``root`` and return its description."""
    r = FixtureRepo(root, platforms)
    day = dt.timedelta(days=1)
    hour = dt.timedelta(hours=1)
    p1 = platforms[0]

    # abs/float16: long golden history (one failing run), two generative attempts, perf measured.
    c = r.cell("abs", "float16", p1, "confirmed", "confirmed", "measured",
               known_issues=[{"text": "large shapes are slow on the embedded engine",
                              "link": "https://example.invalid/issues/12", "since": dt.date(2026, 8, 11)}])
    for i, (t, st) in enumerate([(5100, "pass"), (4980, "pass"), (5200, "fail"), (4760, "pass"), (4692, "pass")]):
        ptr = r.record(c, "golden", now - (10 - 2 * i) * day, st, ticks=(130, t),
                       failure={"category": "numeric_mismatch", "message": "17 elements outside tolerance"}
                       if st == "fail" else None, traces=i == 4)
    c["evidence"]["golden"] = ptr
    c["evidence"]["generative"].append(r.record(
        c, "generative", now - 3 * day, "fail",
        failure={"category": "compile_error", "message": "asc2.abs: unexpected keyword 'out'"},
        generative={"attempt": 1, "variant": "minimal", "agent_command": ["agent", "run", "--prompt", "minimal"],
                    "agent_exit": 0, "agent_wall_s": 41.5, "agent_output": "wrote abs_f16.py\n",
                    "kernel_file": "generated/abs_float16/attempt1.py"}))
    c["evidence"]["generative"].append(r.record(
        c, "generative", now - 2 * day, "pass",
        generative={"attempt": 2, "variant": "guided", "agent_command": ["agent", "run", "--prompt", "guided"],
                    "agent_exit": 0, "agent_wall_s": 37.0, "agent_output": "wrote abs_f16.py\nall cases pass\n",
                    "kernel_file": "generated/abs_float16/attempt2.py"}))
    c["evidence"]["perf"] = r.record(c, "perf", now - 1 * day, "pass",
                                     perf={"ticks_median": 4692, "ticks_runs": [4690, 4692, 4701], "spread": 0.002})

    # abs/float32: confirmed golden, generative failing.
    c = r.cell("abs", "float32", p1, "confirmed", "failing", "pending")
    c["evidence"]["golden"] = r.record(c, "golden", now - 2 * day, ticks=(150, 9100))
    c["evidence"]["generative"].append(r.record(
        c, "generative", now - 2 * day + hour, "fail",
        failure={"category": "numeric_mismatch", "message": "max abs err 0.5 > atol"},
        generative={"attempt": 1, "variant": "minimal", "agent_command": "agent run", "agent_exit": 0,
                    "agent_wall_s": 55.0, "agent_output": "done", "kernel_file": "generated/abs_float32/a1.py"}))

    # add/float16: stale (newest record 40 days old).
    c = r.cell("add", "float16", p1, "confirmed", "pending", "pending")
    c["evidence"]["golden"] = r.record(c, "golden", now - 40 * day)

    # add/float32: failing golden.
    c = r.cell("add", "float32", p1, "failing", "not_attempted", "not_attempted")
    c["evidence"]["golden"] = r.record(c, "golden", now - 1 * day, "fail",
                                       failure={"category": "numeric_mismatch", "message": "17 mismatches"})

    # exp/float16: pending, no evidence at all.
    r.cell("exp", "float16", p1, "pending", "pending", "pending")
    # relu/float16: blocked, golden kernel file missing.
    r.cell("relu", "float16", p1, "blocked", "blocked", "not_attempted", golden_file=False,
           known_issues=[{"text": "vector max with scalar 0 crashes the simulator",
                          "link": "https://example.invalid/issues/31",
                          "since": dt.date(2026, 10, 1)}])

    # reduce_sum/float32: confirmed, perf measured, registry points at a missing record.
    c = r.cell("reduce_sum", "float32", p1, "confirmed", "pending", "measured")
    c["evidence"]["golden"] = r.record(c, "golden", now - 5 * hour, ticks=(300, 12000))
    c["evidence"]["perf"] = "evidence/reduce_sum/float32/%s/perf-20261101T000000000000Z-dead.json" % p1

    # softmax/float16: golden kernel changed since the deciding run.
    c = r.cell("softmax", "float16", p1, "confirmed", "pending", "pending")
    c["evidence"]["golden"] = r.record(c, "golden", now - 3 * day, kernel_sha="ab" * 32)

    # layer_norm/float32: not attempted at all.
    r.cell("layer_norm", "float32", p1, "not_attempted", "not_attempted", "not_attempted")

    # matmul/float16: pending, a newer failing run than the deciding one.
    c = r.cell("matmul", "float16", p1, "confirmed", "pending", "pending")
    c["evidence"]["golden"] = r.record(c, "golden", now - 4 * day)
    r.record(c, "golden", now - 1 * day, "fail",
             failure={"category": "runtime_error", "message": "UB overflow"})

    if len(platforms) > 1:
        p2 = platforms[1]
        c = r.cell("abs", "float16", p2, "confirmed", "pending", "pending")
        c["evidence"]["golden"] = r.record(c, "golden", now - 6 * hour, ticks=(140, 6100))
        r.cell("reduce_sum", "float32", p2, "pending", "pending", "pending")

    r.write_registry()
    return r

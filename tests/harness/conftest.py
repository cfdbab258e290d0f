"""Fixtures for the harness tests: temporary repositories with a small registry, golden files and records."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from asc_harness.store.evidence import build_record, write_record

PLATFORM = "Ascend950PR_9599"
ABS = f"abs/float16/{PLATFORM}"
ADD = f"add/float16/{PLATFORM}"
MATMUL = f"matmul/float16/{PLATFORM}"

REGISTRY = f"""\
# Test registry. This comment must survive a sync.
schema_version: 1
platforms: [{PLATFORM}]

tiers:
  - {{id: 0, name: elementwise, description: "load, one op, store"}}
  - {{id: 3, name: advanced}}

operations:
  - {{name: abs, tier: 0, description: "absolute value"}}
  - {{name: add, tier: 0, description: "sum"}}   # trailing comment
  - {{name: matmul, tier: 3, description: "matrix multiply"}}

cells:
  # -- abs
  - id: {ABS}
    op: abs
    dtype: float16
    platform: {PLATFORM}
    golden: golden/kernels/abs_f16.py
    shapes: [[4, 8], [16]]
    tolerance: {{atol: 1.0e-3, rtol: 1.0e-3}}
    prompts:
      minimal: "Write abs."
      guided: "Write abs, carefully."
    golden_status: pending      # set by sync
    generative_status: not_attempted
    perf_status: not_attempted
    evidence:
      golden: null
      generative: []
      perf: null
    known_issues: []
  - id: {ADD}
    op: add
    dtype: float16
    platform: {PLATFORM}
    golden: golden/kernels/add_f16.py
    shapes: [[4, 8]]
    tolerance: {{atol: 1.0e-3, rtol: 1.0e-3}}
    shape_tolerances:
      - {{shape: [4, 8], atol: 2.0e-3, rtol: 2.0e-3}}
    prompts: {{minimal: "Write add.", guided: "Write add, carefully."}}
    golden_status: pending
    generative_status: pending
    perf_status: pending
    evidence:
      golden: null
      generative: []
      perf: null
    known_issues:
      - {{text: "a known issue", link: "https://example.invalid/issue", since: 2026-05-06}}
  - id: {MATMUL}
    op: matmul
    dtype: float16
    platform: {PLATFORM}
    golden: null
    shapes: [[16, 16, 16]]
    tolerance: {{atol: 1.0e-2, rtol: 1.0e-2}}
    prompts: {{minimal: "Write matmul.", guided: "Write matmul, carefully."}}
    golden_status: blocked
    generative_status: blocked
    perf_status: not_attempted
    evidence:
      golden: null
      generative: []
      perf: null
    known_issues: []
"""

ABS_GOLDEN = '''\
import numpy as np

OP = "abs"
DTYPE = "float16"
TOLERANCE = {"atol": 1.0e-3, "rtol": 1.0e-3}
CASES = [{"id": "4x8", "shape": [4, 8]}, {"id": "16", "shape": [16], "full_only": True}]


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16),)


def launch(x):
    print("Total tick: 100")
    return np.abs(x)


def reference(x):
    return np.abs(x.astype(np.float32))
'''

ADD_GOLDEN = '''\
import numpy as np

OP = "add"
DTYPE = "float16"
ATOL = 1.0e-3
TOLERANCE = {"atol": ATOL, "rtol": ATOL}
CASES = [{"id": "4x8", "shape": [4, 8], "atol": 2e-3, "rtol": 2 * ATOL}]


def make_inputs(case):
    rng = np.random.default_rng(2026)
    x = rng.random(case["shape"], dtype=np.float32).astype(np.float16)
    return x, x


def launch(x, y):
    return x + y


def reference(x, y):
    return x.astype(np.float32) + y.astype(np.float32)
'''


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout


class Workspace:
    """A temporary repository: capabilities.yaml, golden/kernels/*, evidence/ and a git history."""

    def __init__(self, root: Path):
        self.root = root
        self.cap = root / "capabilities.yaml"
        self.evidence = root / "evidence"

    def args(self, *extra: str) -> list[str]:
        return ["--capabilities", str(self.cap), "--evidence-dir", str(self.evidence), *extra]

    def commit(self, message: str = "update") -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", message)

    def record(self, cell: str = ABS, *, kind: str = "golden", status: str = "pass", runtime_verified: bool = True,
               ticks: int | None = None, skipped_case: bool = False, category: str | None = None,
               roofline: float | None = None, warnings: list[dict] | None = None) -> Path:
        """Write a record through the real build/write path and return its file."""
        case_status = {"pass": "pass", "fail": "fail", "skipped": "skipped"}.get(status, status)
        cases = [{"id": "4x8", "shape": [4, 8], "status": case_status, "atol": 1e-3, "rtol": 1e-3,
                  "max_abs_err": 0.0 if status == "pass" else 0.5, "max_rel_err": 0.0,
                  "mismatches": 0 if status == "pass" else 3, "elements": 32, "ticks": ticks, "wall_s": 0.01}]
        if roofline is not None:
            cases[0]["roofline"] = roofline
        if warnings is not None:
            cases[0]["warnings"] = warnings
        if skipped_case:
            cases.append({"id": "16", "shape": [16], "status": "skipped", "atol": 1e-3, "rtol": 1e-3,
                          "max_abs_err": None, "max_rel_err": None, "mismatches": None, "elements": None,
                          "ticks": None, "wall_s": None})
        failure = None
        if status in ("fail", "error", "timeout"):
            failure = {"category": category or {"fail": "numeric_mismatch", "timeout": "timeout"}.get(status, "runtime_error"),
                       "message": "case 4x8: boom"}
        op, dtype, _ = cell.split("/")
        result = {"file": str(self.root / f"golden/kernels/{op}_f16.py"), "status": status, "failure": failure,
                  "runtime_verified": runtime_verified, "cases": cases, "engine": "embedded",
                  "engine_version": "0.1.0", "backend": "Model", "platform": PLATFORM, "python": "3.11.7",
                  "seed": 2026, "wall_time_s": 0.5}
        generative = perf = None
        if kind == "generative":
            generative = {"attempt": 1, "variant": "minimal", "agent_command": "agent run", "agent_exit": 0,
                          "agent_wall_s": 1.0, "agent_output": None, "kernel_file": None}
        if kind == "perf":
            perf = {"ticks_median": 100, "ticks_runs": [99, 100, 101], "spread": 0.02}
        rec = build_record(result, cell=cell, kind=kind, root=self.root, generative=generative, perf=perf)
        return write_record(rec, self.evidence)

    def text(self) -> str:
        return self.cap.read_text()


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "repo"
    (root / "golden" / "kernels").mkdir(parents=True)
    (root / "evidence").mkdir()
    (root / "evidence" / ".gitkeep").write_text("")
    (root / "capabilities.yaml").write_text(REGISTRY)
    (root / "golden" / "kernels" / "abs_f16.py").write_text(ABS_GOLDEN)
    (root / "golden" / "kernels" / "add_f16.py").write_text(ADD_GOLDEN)
    git(root, "init", "-q")
    git(root, "config", "user.email", "harness-tests@example.invalid")
    git(root, "config", "user.name", "harness tests")
    git(root, "config", "commit.gpgsign", "false")
    w = Workspace(root)
    w.commit("initial")
    return w


def write_kernel(directory: Path, name: str, source: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(source))
    return path


PYTHON = sys.executable

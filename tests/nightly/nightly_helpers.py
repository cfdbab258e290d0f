"""Helpers and fixtures for the nightly / generate / sandbox tests: temporary repositories and kernels.

The test modules import the fixtures (``make_repo``, ``run_nightly``) from here; there is no conftest.py
in this folder, so that the other test folders' ``conftest`` modules stay importable by name.

``make_repo(cells)`` builds a git repository with its own capabilities.yaml, golden kernels and an
evidence directory. Kernels are numpy-only golden-interface files unless a test brings an asc2 one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PLATFORM = "Ascend950PR_9599"
PYTHON = sys.executable
HERE = Path(__file__).resolve().parent
AGENT = HERE / "scripted_agent.py"

GOOD = '''\
import numpy as np

OP = "{op}"
DTYPE = "float16"
TOLERANCE = {{"atol": 1.0e-3, "rtol": 1.0e-3}}
CASES = [{{"id": "4x8", "shape": [4, 8]}}, {{"id": "64", "shape": [64], "full_only": True}}]


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16),)


def launch(x):
{body}


def reference(x):
    return np.abs(x)
'''

BODIES = {
    "good": "    return np.abs(x)",
    "wrong": "    return np.abs(x) + 1",
    "hang": "    while True:\n        pass",
    "crash": "    import os\n    os.abort()",
    "memory": "    hog = []\n    while True:\n        hog.append(bytearray(64 << 20))",
    "sleep": "    import time\n    time.sleep(float(__import__('os').environ.get('ASC_TEST_SLEEP', '30')))\n    return np.abs(x)",
}

CELL = """\
  - id: {op}/float16/{platform}
    op: {op}
    dtype: float16
    platform: {platform}
    golden: {golden}
    shapes: [[4, 8], [64]]
    tolerance: {{atol: 1.0e-3, rtol: 1.0e-3}}
    prompts:
      minimal: "Write {op}: y = |x| on float16."
      guided: "Write {op}: y = |x| on float16, tile by tile with asc2.abs."
    golden_status: {golden_status}
    generative_status: {generative_status}
    perf_status: not_attempted
    evidence:
      golden: null
      generative: []
      perf: null
    known_issues: []
"""


def git(cwd: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=check, capture_output=True, text=True).stdout


def kernel_source(op: str, behaviour: str) -> str:
    return GOOD.format(op=op, body=BODIES[behaviour])


class Repo:
    def __init__(self, root: Path, ops: list[str]):
        self.root = root
        self.cap = root / "capabilities.yaml"
        self.evidence = root / "evidence"
        self.ops = ops

    def args(self, *extra: str) -> list[str]:
        return ["--capabilities", str(self.cap), *extra]

    def records(self, op: str | None = None, kind: str = "golden") -> list[Path]:
        pattern = f"{op or '*'}/*/*/{kind}-*.json"
        return sorted(self.evidence.glob(pattern))

    def load(self, path: Path) -> dict:
        return json.loads(path.read_text())

    def cell(self, op: str) -> dict:
        import yaml

        doc = yaml.safe_load(self.cap.read_text())
        return next(c for c in doc["cells"] if c["op"] == op)

    def commit(self, message: str = "update") -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", message)

    def write_golden(self, op: str, source: str) -> None:
        (self.root / "golden" / "kernels" / f"{op}_f16.py").write_text(textwrap.dedent(source))


def build_repo(root: Path, cells: dict[str, str], *, extra_cells: str = "") -> Repo:
    """cells: {op: behaviour} (a behaviour of BODIES, 'none' for golden: null, or 'blocked')."""
    (root / "golden" / "kernels").mkdir(parents=True)
    (root / "evidence").mkdir()
    (root / "evidence" / ".gitkeep").write_text("")
    (root / ".gitignore").write_text("/site/\n")
    ops = list(cells)
    body = []
    for op, behaviour in cells.items():
        golden = "null" if behaviour == "none" else f"golden/kernels/{op}_f16.py"
        status = {"none": "not_attempted", "blocked": "blocked"}.get(behaviour, "pending")
        body.append(CELL.format(op=op, platform=PLATFORM, golden=golden, golden_status=status,
                                generative_status="not_attempted"))
        if behaviour not in ("none",):
            src = kernel_source(op, "good" if behaviour == "blocked" else behaviour)
            (root / "golden" / "kernels" / f"{op}_f16.py").write_text(src)
    operations = "\n".join(f"  - {{name: {op}, tier: 0, description: \"{op}\"}}" for op in ops)
    (root / "capabilities.yaml").write_text(
        "# test registry\nschema_version: 1\n"
        f"platforms: [{PLATFORM}]\n\n"
        "tiers:\n  - {id: 0, name: elementwise}\n\n"
        f"operations:\n{operations}\n\ncells:\n" + "".join(body) + extra_cells)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "nightly-tests@example.invalid")
    git(root, "config", "user.name", "nightly tests")
    git(root, "config", "commit.gpgsign", "false")
    repo = Repo(root, ops)
    repo.commit("initial")
    return repo


ASC2_GOLDEN = """\
import numpy as np
import asc
import asc2

OP = "abs"
DTYPE = "float16"
TOLERANCE = {"atol": 1.0e-3, "rtol": 1.0e-3}
CASES = [{"id": "4x8", "shape": [4, 8]}, {"id": "1000", "shape": [1000]}]
TILE = 128


@asc2.jit
def abs_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, n: int):
    x = asc2.tensor(x_ptr, [n])
    y = asc2.tensor(y_ptr, [n])
    for t in range(asc2.block_idx(), asc.ceildiv(n, TILE), asc2.block_num()):
        i = t * TILE
        asc2.store(asc2.abs(asc2.load(x, [TILE], offsets=[i])), y, offsets=[i])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float16),)


def launch(x):
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.zeros_like(flat)
    abs_kernel[4](flat, out, flat.size)
    return out.reshape(x.shape)


def reference(x):
    return np.abs(x)
"""


@pytest.fixture
def make_repo(tmp_path):
    counter = [0]

    def make(cells: dict[str, str], **kw) -> Repo:
        counter[0] += 1
        return build_repo(tmp_path / f"repo{counter[0]}", cells, **kw)

    return make


@pytest.fixture
def run_nightly(capsys):
    """Call nightly.main in-process; returns (exit code, stdout, stderr)."""
    from asc_harness import nightly

    def run(*argv: str):
        code = nightly.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run

"""Hostile kernels run by nightly are contained by the sandbox and reported, each costing only its cell."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from asc_harness.evidence import load_record
from nightly_helpers import GOOD, PLATFORM, PYTHON, build_repo, git

BODIES = {
    "loop": "    while True:\n        pass",
    # Each step asks for more than the whole limit, so the limit (not the time budget) stops it at once.
    "hog": "    hog = []\n    while True:\n        hog.append(bytearray(2 << 30))",
    "shell": ("    import os\n"
              "    os.system('sleep 120 & echo $! > {pidfile}; env > {envfile}; echo pwned >> {readme}')\n"
              "    return np.abs(x)"),
    "write": ("    open({readme!r}, 'a').write('overwritten by a kernel\\n')\n"
              "    open({stray!r}, 'w').write('not an evidence record\\n')\n"
              "    return np.abs(x)"),
    "good": "    return np.abs(x)",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    base = tmp_path_factory.mktemp("sandbox")
    outside = base / "outside"
    outside.mkdir()
    repo = build_repo(base / "repo", {op: "good" for op in BODIES})
    (repo.root / "README.md").write_text("a tracked file\n")
    paths = {"pidfile": outside / "sleep.pid", "envfile": outside / "env.txt", "readme": repo.root / "README.md",
             "stray": repo.evidence / "stray.txt"}
    for op, body in BODIES.items():
        repo.write_golden(op, GOOD.format(op=op, body=body.format(**{k: str(v) for k, v in paths.items()})))
    repo.commit("hostile goldens")
    env = dict(os.environ, ASC_TEST_SECRET="do-not-leak")
    proc = subprocess.run([PYTHON, "-m", "asc_harness.nightly", "--capabilities", str(repo.cap), "-n", "0",
                           "--no-dashboard", "--timeout", "3", "--memory-mb", "1000"],
                          capture_output=True, text=True, env=env, timeout=120)
    records = {op: load_record(repo.records(op)[0]) for op in BODIES}
    return repo, proc, records, paths


def test_only_the_hostile_cells_fail(hostile):
    repo, proc, records, _ = hostile
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ran 5 of 5 cell(s)" in proc.stdout
    assert records["good"]["status"] == "pass"
    assert repo.cell("good")["golden_status"] == "confirmed"


def test_a_kernel_that_loops_forever_is_killed_at_the_budget(hostile):
    _, _, records, _ = hostile
    rec = records["loop"]
    assert rec["status"] == "timeout" and rec["failure"]["category"] == "timeout"
    assert "timed out after 3 s" in rec["failure"]["message"]
    assert rec["wall_time_s"] < 15


def test_a_kernel_that_allocates_without_bound_is_stopped(hostile):
    _, _, records, _ = hostile
    rec = records["hog"]
    assert rec["status"] == "error" and rec["failure"]["category"] == "memory"


def test_os_system_runs_scrubbed_and_its_children_are_killed(hostile):
    _, _, records, paths = hostile
    rec = records["shell"]
    assert rec["status"] == "error"
    assert "changed repository files: README.md (modified)" in rec["failure"]["message"]
    env = paths["envfile"].read_text()
    assert "do-not-leak" not in env and "ASC_TEST_SECRET" not in env
    home = next(line for line in env.splitlines() if line.startswith("HOME="))
    assert "asc-sandbox-" in home
    pid = int(paths["pidfile"].read_text())
    deadline = time.monotonic() + 5
    alive = True
    while alive and time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            with open(f"/proc/{pid}/stat") as fh:
                alive = fh.read().split(")")[-1].split()[0] != "Z"
        except (ProcessLookupError, FileNotFoundError):
            alive = False
        if alive:
            time.sleep(0.1)
    assert not alive, "the background process started by os.system survived the run"


def test_a_kernel_that_writes_into_the_repository_is_reported(hostile):
    repo, _, records, _ = hostile
    rec = records["write"]
    assert rec["status"] == "error" and rec["failure"]["category"] == "runtime_error"
    message = rec["failure"]["message"]
    assert "README.md (modified)" in message and "evidence/stray.txt (added)" in message
    assert repo.cell("write")["golden_status"] == "failing"
    state = json.loads((repo.root / ".nightly" / "state.json").read_text())
    assert state["results"][f"write/float16/{PLATFORM}"]["status"] == "error"

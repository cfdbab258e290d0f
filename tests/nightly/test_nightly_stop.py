"""Ctrl-C (SIGINT) and SIGTERM stop `nightly` and `generate` in every phase: the running children are
stopped, what finished is kept, the exit code is 130 and `--resume` continues.

Each test waits for the phase by a file the code under test writes when it is there (a kernel or an
agent writes `running` into its sandbox home, then blocks), never by sleeping. Every process the run
starts inherits TMPDIR (the sandbox puts its own directories under it), so a process whose
environment or command line still names the test's TMPDIR after the run ended is a leftover.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

from nightly_helpers import AGENT, PLATFORM, PYTHON, make_repo  # noqa: F401 - fixtures

BLOCKING_BODY = ("    import os, time\n    open(os.path.join(os.environ['HOME'], 'running'), 'w').close()\n"
                 "    while True:\n        time.sleep(0.05)")
BOUND_S = 60  # a failure bound for waits, not a speed figure (bench/ measures the stop latency)


def _start(argv: list[str], tmpdir: Path, **env) -> subprocess.Popen:
    tmpdir.mkdir(exist_ok=True)
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "TMPDIR": str(tmpdir), **env})


def _wait_for_running(proc: subprocess.Popen, tmpdir: Path) -> None:
    deadline = time.monotonic() + BOUND_S
    while not list(tmpdir.glob("asc-sandbox-*/home/running")):
        if proc.poll() is not None:
            pytest.fail(f"the run ended before the phase was reached:\n{proc.communicate()[0]}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"the phase was not reached:\n{proc.communicate()[0]}")
        time.sleep(0.02)


def _leftovers(tmpdir: Path) -> list[str]:
    """Processes (not zombies) whose environment or command line names ``tmpdir``."""
    mark = str(tmpdir).encode()
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                if fh.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{pid}/environ", "rb") as fh:
                env = fh.read()
        except (OSError, IndexError):
            continue
        if mark in cmd or mark in env:
            shown = cmd.replace(b"\0", b" ").decode(errors="replace")[:200]
            found.append(f"{pid}: {shown}")
    return found


def _stop(proc: subprocess.Popen, tmpdir: Path, sig: int) -> str:
    proc.send_signal(sig)
    try:
        out, _ = proc.communicate(timeout=BOUND_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"no exit after {signal.Signals(sig).name}:\n{proc.communicate()[0]}")
    deadline = time.monotonic() + BOUND_S  # SIGKILLed processes disappear asynchronously
    while _leftovers(tmpdir) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _leftovers(tmpdir), _leftovers(tmpdir)
    return out


def _blocking_repo(make_repo):
    repo = make_repo({"abs": "good", "slow": "good"})
    golden = repo.root / "golden/kernels/slow_f16.py"
    repo.write_golden("slow", golden.read_text().replace("    return np.abs(x)\n\n\ndef reference",
                                                          BLOCKING_BODY + "\n\n\ndef reference"))
    repo.commit("a kernel that blocks once it runs")
    return repo


def _nightly(repo, *extra) -> list[str]:
    return [PYTHON, "-m", "asc_harness.nightly", "--capabilities", str(repo.cap), "--no-dashboard", *extra]


def _resume_nightly(repo, tmpdir: Path) -> None:
    repo.write_golden("slow", (repo.root / "golden/kernels/abs_f16.py").read_text().replace('"abs"', '"slow"'))
    repo.commit("the slow kernel returns")
    done = subprocess.run(_nightly(repo, "--resume"), capture_output=True, text=True,
                          env={**os.environ, "TMPDIR": str(tmpdir)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 2 cell(s) already done, 1 to run" in done.stdout
    assert len(repo.records("abs")) == 1 and len(repo.records("slow")) == 1
    assert repo.cell("slow")["golden_status"] == "confirmed"


@pytest.mark.parametrize("workers, sig, confinement", [
    ("0", signal.SIGINT, "auto"), ("0", signal.SIGINT, "process-tree"), ("2", signal.SIGTERM, "auto")],
    ids=["in-process cell, SIGINT", "in-process cell, process-tree confinement, SIGINT", "xdist workers, SIGTERM"])
def test_a_stop_during_a_sandboxed_cell_keeps_the_finished_cells(make_repo, tmp_path, workers, sig, confinement):
    repo = _blocking_repo(make_repo)
    tmpdir = tmp_path / "tmp"
    # -n 0 runs the cells in the registry's order (neither has a record to order them by): abs, then slow
    proc = _start(_nightly(repo, "-n", workers), tmpdir, ASC_SANDBOX=confinement)
    if workers == "0":  # abs first: wait until it is recorded and slow is running
        _wait_for_running(proc, tmpdir)
    else:
        _wait_for_running(proc, tmpdir)
        state_path = repo.root / ".nightly" / "state.json"
        deadline = time.monotonic() + BOUND_S  # the other worker finishes abs; its result is written
        while f"abs/float16/{PLATFORM}" not in json.loads(state_path.read_text())["results"]:
            assert time.monotonic() < deadline, "abs was not recorded"
            time.sleep(0.02)
    out = _stop(proc, tmpdir, sig)
    assert proc.returncode == 130, out
    assert "continue with: nightly --resume" in out and "Traceback" not in out
    state = json.loads((repo.root / ".nightly" / "state.json").read_text())
    assert state["phase"] == "cells" and list(state["results"]) == [f"abs/float16/{PLATFORM}"]
    assert len(repo.records("abs")) == 1 and not repo.records("slow")
    _resume_nightly(repo, tmpdir)


def test_a_stop_during_a_cluster_task(make_repo, tmp_path):
    pytest.importorskip("distributed", reason="needs dask.distributed: pip install -e '.[cluster]'")
    repo = _blocking_repo(make_repo)
    tmpdir = tmp_path / "tmp"
    # process-tree: the worker's sandboxed command does not die with the worker by itself
    proc = _start(_nightly(repo, "--scheduler", "local:1"), tmpdir, ASC_SANDBOX="process-tree")
    _wait_for_running(proc, tmpdir)
    out = _stop(proc, tmpdir, signal.SIGINT)
    assert proc.returncode == 130, out
    assert "continue with: nightly --resume" in out
    assert not repo.records("slow")


def _generate(repo, sequence: str, *extra) -> list[str]:
    template = f"{shlex.quote(PYTHON)} {shlex.quote(str(AGENT))} {{prompt_file}} {{workspace}} --sequence {sequence}"
    return [PYTHON, "-m", "asc_harness.generate", "--capabilities", str(repo.cap), "--cells", "abs",
            "--agent-command", template, "--agent-env", "SCRIPTED_BEHAVIOUR", "--allow-host-only", "--no-dashboard",
            *extra]


@pytest.mark.parametrize("behaviour, confinement", [("agent_running_hang", "process-tree"), ("running_hang", "auto")],
                         ids=["agent", "agent's kernel"])
def test_a_stop_during_an_attempt_keeps_the_recorded_attempts(make_repo, tmp_path, behaviour, confinement):
    repo = make_repo({"abs": "good"})
    tmpdir = tmp_path / "tmp"
    env = {k: v for k, v in os.environ.items() if k != "SCRIPTED_BEHAVIOUR"}
    env["ASC_SANDBOX"] = confinement
    tmpdir.mkdir()
    proc = subprocess.Popen(_generate(repo, f"good,{behaviour}", "--attempts", "2"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**env, "TMPDIR": str(tmpdir)})
    _wait_for_running(proc, tmpdir)
    out = _stop(proc, tmpdir, signal.SIGINT)
    assert proc.returncode == 130, out
    assert "continue with generate --resume" in out and "Traceback" not in out
    state = json.loads((repo.root / ".generate" / "state.json").read_text())
    assert len(state["done"]) == 1
    done = subprocess.run([PYTHON, "-m", "asc_harness.generate", "--capabilities", str(repo.cap), "--resume"],
                          capture_output=True, text=True, env={**env, "TMPDIR": str(tmpdir),
                                                               "SCRIPTED_BEHAVIOUR": "good"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 2 attempt(s) already recorded" in done.stdout

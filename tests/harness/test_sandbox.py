"""sandbox.run: scrubbed environment, fresh workspace, process-group timeout, memory limit, repo changes."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from asc_harness import sandbox

PY = sys.executable


def test_environment_is_scrubbed_and_workspace_fresh(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/should/not/leak")
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    code = "import os, json; print(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd(), 'ls': os.listdir('.')}))"
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None, env_extra={"ASC_LAUNCH_REPORT": "/x/r.jsonl"})
    assert res.exit_code == 0 and not res.timed_out
    data = json.loads(res.stdout)
    env = data["env"]
    assert "PYTHONPATH" not in env and "SECRET_TOKEN" not in env
    assert env["ASC_LAUNCH_REPORT"] == "/x/r.jsonl"
    assert env["HOME"] != os.path.expanduser("~") and env["HOME"].startswith(os.path.dirname(data["cwd"]))
    assert env["PATH"] == os.environ["PATH"]
    assert data["ls"] == []
    assert not Path(data["cwd"]).exists()  # removed afterwards


def test_pythonpath_cannot_be_injected():
    with pytest.raises(ValueError, match="PYTHONPATH may not be passed into the sandbox"):
        sandbox.run([PY, "-c", "pass"], timeout_s=5, memory_mb=None, env_extra={"PYTHONPATH": "/x"})


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return "\nState:\tZ" not in fh.read()
    except FileNotFoundError:
        return False


def test_timeout_kills_the_whole_process_group(tmp_path):
    pidfile = tmp_path / "child.pid"
    code = (f"import subprocess, time; p = subprocess.Popen(['sleep', '300']); "
            f"open({str(pidfile)!r}, 'w').write(str(p.pid)); time.sleep(300)")
    start = time.monotonic()
    res = sandbox.run([PY, "-c", code], timeout_s=1.5, memory_mb=None)
    assert res.timed_out and time.monotonic() - start < 20
    pid = int(pidfile.read_text())
    for _ in range(50):
        if not _alive(pid):
            break
        time.sleep(0.1)
    assert not _alive(pid)


def test_memory_limit():
    res = sandbox.run([PY, "-c", "x = bytearray(1500 << 20)"], timeout_s=30, memory_mb=400)
    assert res.exit_code != 0 and res.memory_exceeded and "MemoryError" in res.stderr


def test_unstartable_command():
    res = sandbox.run(["/nonexistent/python"], timeout_s=5, memory_mb=None)
    assert res.exit_code == 127 and res.error and "cannot execute" in res.error


def test_binary_output_is_decoded():
    res = sandbox.run([PY, "-c", "import os; os.write(1, bytes(range(256)) * 4); os.write(2, b'\\xff\\xfe')"],
                      timeout_s=10, memory_mb=None)
    assert res.exit_code == 0 and "\ufffd" in res.stdout and "\x00" not in res.stdout


def test_repo_changes_are_reported(ws):
    tracked = ws.root / "golden/kernels/abs_f16.py"
    record_dir = ws.evidence / "abs/float16/Ascend950PR_9599"
    record_dir.mkdir(parents=True)
    code = (f"import pathlib; pathlib.Path({str(tracked)!r}).write_text('changed'); "
            f"pathlib.Path({str(record_dir / 'golden-20260101T000000000000Z-abcd.json')!r}).write_text('{{}}'); "
            f"pathlib.Path({str(ws.evidence / 'notes.txt')!r}).write_text('x')")
    res = sandbox.run([PY, "-c", code], timeout_s=10, memory_mb=None, repo=ws.root)
    # a new record from a concurrent writer is fine; everything else is a change
    assert res.repo_changes == ["evidence/notes.txt (added)", "golden/kernels/abs_f16.py (modified)"]
    res = sandbox.run([PY, "-c", "pass"], timeout_s=10, memory_mb=None, repo=ws.root)
    assert res.repo_changes == []
    existing = record_dir / "golden-20260101T000000000000Z-abcd.json"
    res = sandbox.run([PY, "-c", f"import os; os.remove({str(existing)!r})"], timeout_s=10, memory_mb=None,
                      repo=ws.root)
    assert res.repo_changes == ["evidence/abs/float16/Ascend950PR_9599/golden-20260101T000000000000Z-abcd.json (deleted)"]

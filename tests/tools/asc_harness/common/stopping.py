"""Ctrl-C and SIGTERM for ``nightly`` and ``generate``: a prompt stop in every phase.

:func:`handling_stops` installs one handler for SIGINT and SIGTERM. The first signal, before it raises
``KeyboardInterrupt`` in the main thread (which every phase unwinds from: the finished results are
already saved, the run directory records what is left for ``--resume``), stops the processes the run
has started itself, so that no phase depends on reaching its own cleanup:

- the sandboxed commands running now (kernels, agents), registered by :mod:`asc_harness.run.sandbox`:
  their process groups are killed;
- the helper processes named in the run's helper directory (the pytest-xdist workers of a nightly
  write their pid there once they are set up): they get SIGINT and stop the same way, killing their
  own sandboxed commands; with ``children=True`` every other child process (a worker still starting,
  which has run nothing yet) gets SIGTERM.

A second signal while the first is being handled ends the process at once (exit 130): the stop is
already under way and the user insists. The handler is restored when the ``with`` block ends, so an
in-process caller (a test) keeps its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from pathlib import Path
from typing import Iterator

EXIT_INTERRUPTED = 130
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

_running_groups: set[int] = set()      # process groups of sandboxed commands running in this process
_helper_dirs: list[tuple[Path, bool]] = []  # (directory of pid files of helper processes, children too)
_stopping = threading.Event()


def stop_requested() -> bool:
    """True once a stop signal arrived in this process (checked before a new sandboxed run starts)."""
    return _stopping.is_set()


def register_group(pgid: int) -> None:
    _running_groups.add(pgid)


def unregister_group(pgid: int) -> None:
    _running_groups.discard(pgid)


def kill_running_groups() -> None:
    for pgid in list(_running_groups):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


@contextlib.contextmanager
def helpers_in(directory: Path, *, children: bool = False) -> Iterator[None]:
    """Within the block, the processes whose pid files are in ``directory`` are stopped with this one
    (``children``: and every other child process of this one, see the module docstring)."""
    entry = (Path(directory), children)
    _helper_dirs.append(entry)
    try:
        yield
    finally:
        _helper_dirs.remove(entry)


def announce_helper(directory: Path) -> None:
    """Called by a helper process: name it in ``directory`` so that a stop reaches it."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / str(os.getpid())).write_text("")


def _children() -> list[int]:
    me, out = os.getpid(), []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as fh:
                    if int(fh.read().rsplit(b")", 1)[1].split()[1]) == me:
                        out.append(int(name))
            except (OSError, IndexError, ValueError):
                continue
    return out


def _signal_helpers() -> None:
    announced: set[int] = set()
    for d, _ in list(_helper_dirs):
        try:
            announced |= {int(n) for n in os.listdir(d) if n.isdigit() and int(n) != os.getpid()}
        except OSError:
            continue
    for pid in announced:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGINT)
    if any(children for _, children in _helper_dirs):
        for pid in set(_children()) - announced - _running_groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGTERM)


def _handler(signum, frame) -> None:
    if _stopping.is_set():
        kill_running_groups()
        os._exit(EXIT_INTERRUPTED)
    _stopping.set()
    kill_running_groups()
    _signal_helpers()
    raise KeyboardInterrupt


@contextlib.contextmanager
def signals_blocked() -> Iterator[None]:
    """Hold stop signals back (main thread) while a process is started and registered; they arrive after."""
    main = threading.current_thread() is threading.main_thread()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, set(_STOP_SIGNALS)) if main else None
    try:
        yield
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def install() -> None:
    """Install the stop handler for good (a helper process that lives only for the run)."""
    _stopping.clear()
    for sig in _STOP_SIGNALS:
        signal.signal(sig, _handler)


@contextlib.contextmanager
def handling_stops() -> Iterator[None]:
    """Install the stop handler for SIGINT and SIGTERM (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in _STOP_SIGNALS}
    install()
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        _stopping.clear()  # the stop ended with the command; a caller's later runs start afresh

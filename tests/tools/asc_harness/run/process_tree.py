"""Process-tree tracking, the fallback confinement: every process descended from a run, found by parent
links (polled, with this process as the subreaper of orphans) and by a per-run token in the environment,
so that the end of the run can kill them all, detached or not."""

from __future__ import annotations

import os
import signal
import time

TOKEN_VAR = "ASC_SANDBOX_RUN"
POLL_S = 0.05



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


def _start_time(pid: int) -> int | None:
    """Start time of ``pid`` in clock ticks since boot, a zombie's too (a quick run may have exited already)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().decode("ascii", "replace").rsplit(")", 1)[-1].split()
        return int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def _now_ticks() -> int:
    with open("/proc/uptime") as fh:
        return int(float(fh.read().split()[0]) * os.sysconf("SC_CLK_TCK"))


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


class Tree:
    """Every process descended from the run, identified by (pid, start time) against pid reuse."""

    def __init__(self, root: int, token: str):
        self.members: dict[int, int] = {}
        self.token = f"{TOKEN_VAR}={token}".encode()
        st = _stat(root)
        # The run's start bounds which re-parented orphans are its own. Read it from a zombie root too: with
        # 0 here every older orphan of this process would count as the run's (and be killed at its end).
        start = _start_time(root)
        self.started = start if start is not None else _now_ticks()
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
                time.sleep(POLL_S)


def set_subreaper() -> None:
    """Orphaned descendants are re-parented to this process instead of init, so they stay traceable."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except Exception:  # noqa: BLE001 - tracking by token still works
        pass


"""A launch's memory footprint, checked against what the machine can give before the launch allocates.

The simulator's working memory for one launch is at most ``FOOTPRINT_MULTIPLE`` times the bytes of the
global-memory arguments it touches plus ``FIXED_OVERHEAD`` (measured by ``bench/memory.py``, stated in
docs/simulator.md "Memory"). When that would not fit in the memory the process may still take (the
kernel's ``MemAvailable``, the cgroup's ``memory.max``, the process's ``RLIMIT_AS``), the launch fails at
the kernel call with the footprint and the limit, rather than being stopped by the OOM killer halfway.
``ASC_MEMORY_CHECK=off`` skips the check.
"""
from __future__ import annotations

import resource
import time

from .environment import getenv

FOOTPRINT_MULTIPLE = 3
FIXED_OVERHEAD = 256 << 20
_MB = 1 << 20


class LaunchMemoryError(MemoryError):
    """A launch whose footprint exceeds the memory available to the process (an uncaught one exits 2)."""

    def __init__(self, message, footprint, limit):
        super().__init__(message)
        self.footprint, self.limit = footprint, limit


def launch_footprint(gm_bytes):
    """Bytes a launch over ``gm_bytes`` of global memory may allocate beyond its arguments."""
    return FOOTPRINT_MULTIPLE * gm_bytes + FIXED_OVERHEAD


def _meminfo_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) << 10
    except OSError:
        pass
    return None


def _cgroup_room():
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current") as f:
            return int(limit) - int(f.read().strip())
    except (OSError, ValueError):
        return None


def _address_space_room():
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return soft - (int(line.split()[1]) << 10)
    except OSError:
        pass
    return None


def memory_room():
    """(bytes the process may still allocate, what limits it), or (None, None) when nothing says."""
    rooms = [(r, what) for r, what in ((_meminfo_available(), "MemAvailable in /proc/meminfo"),
                                       (_cgroup_room(), "the cgroup's memory.max"),
                                       (_address_space_room(), "the process's RLIMIT_AS"))
             if r is not None]
    return min(rooms) if rooms else (None, None)


_LAST = [float("-inf"), None, None]   # (when, room, what) of the last reading
_FRESH_S = 1.0


def check_launch_memory(name, core_num, gm_bytes):
    """Raise ``LaunchMemoryError`` when the launch's footprint exceeds the memory the process may take.
    The limits are read again when the last reading is older than a second or the footprint is more than
    half of it (a small launch in a loop pays microseconds, a large one a fresh reading)."""
    if getenv("ASC_MEMORY_CHECK", "on").strip().lower() == "off":
        return
    need = launch_footprint(gm_bytes)
    when, room, what = _LAST
    now = time.monotonic()
    if now - when > _FRESH_S or room is None or 2 * need > room:
        room, what = memory_room()
        _LAST[:] = [now, room, what]
    if room is None or need <= room:
        return
    hint = ("launch it on smaller inputs (split the data over several launches), free memory, or raise the "
            "limit; ASC_MEMORY_CHECK=off skips this check")
    exc = LaunchMemoryError(f"launch of kernel '{name}' on {core_num} blocks needs about {need // _MB} MB (its "
                            f"{gm_bytes // _MB} MB of global-memory arguments x {FOOTPRINT_MULTIPLE} + "
                            f"{FIXED_OVERHEAD // _MB} MB) but only {max(room, 0) // _MB} MB are available ({what})"
                            f"\nhint: {hint}", need, room)
    exc.hint = hint
    raise exc

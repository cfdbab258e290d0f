"""Keeping the C allocator's freed memory in the process between launches (glibc only).

A launch allocates its tiles as numpy arrays of a few MB each and frees them within the launch. With
glibc's defaults, freeing them leaves more than the trim threshold free at the top of the heap (twice the
largest array freed so far), which goes back to the system, and the next launch's arrays fault the same
pages in again, zeroed: a 512^3 float16 matmul launch took ~1000-1250 page faults, a third of its time. Plain numpy code
of the same size allocates less at a time and stays under the threshold, so the engine alone paid this.

``tune()`` (called when the simulator's launcher is first imported) raises the thresholds once for the
process: arrays up to ``_MMAP_BYTES`` come from the heap, and up to ``_KEEP_BYTES`` of free memory at its
top stay mapped. Peak memory is unchanged (a launch's arrays are freed as before); what stays mapped is
bounded by ``_KEEP_BYTES``. ``ASC_MALLOC=system`` (set before the first launch) keeps glibc's defaults.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys

from .environment import getenv

_M_TRIM_THRESHOLD = -1       # mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
_MMAP_BYTES = 32 << 20       # glibc's own ceiling for its adaptive mmap threshold
_KEEP_BYTES = 64 << 20

_DONE = []


def tune():
    """Set the thresholds once per process (a no-op off glibc, or with ``ASC_MALLOC=system``); returns
    whether they are set."""
    if _DONE:
        return _DONE[0]
    ok = False
    if sys.platform.startswith("linux") and getenv("ASC_MALLOC", "").strip().lower() != "system":
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            mallopt = libc.mallopt
            mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
            # (setting either turns glibc's adaptive thresholds off: both are set)
            ok = mallopt(_M_MMAP_THRESHOLD, _MMAP_BYTES) == 1 and mallopt(_M_TRIM_THRESHOLD, _KEEP_BYTES) == 1
        except (OSError, AttributeError):   # not glibc (musl has no mallopt): its defaults stay
            ok = False
    _DONE.append(ok)
    return ok

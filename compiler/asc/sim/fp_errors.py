"""Floating-point exceptions in the simulated ops: never numpy warnings (an overflow to inf, a 0 / 0 is the
op's result; scalar code that produces them gets the engine's own warning).

A launch runs all its ops inside one ``launch_scope()`` (``np.errstate(all="ignore")`` entered once); an
op asks for ``ignored()``, which inside the scope is a no-op context (entering ``np.errstate`` costs a few
microseconds, paid per op before) and outside it (an op helper called on its own) a fresh errstate.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

_STATE = threading.local()   # numpy's error state is per thread (a context variable), so is the flag
_NO_OP = contextlib.nullcontext()


def ignored():
    """A context in which numpy's floating-point errors are ignored."""
    return _NO_OP if getattr(_STATE, "depth", 0) else np.errstate(all="ignore")


class launch_scope:
    """Run a launch's ops with floating-point errors ignored (``ignored()`` is then free). (A class rather
    than a generator: entered once per launch, it costs a fraction of one.)"""
    __slots__ = ("_errstate", "_depth")

    def __enter__(self):
        self._depth = getattr(_STATE, "depth", 0)
        self._errstate = np.errstate(all="ignore")
        self._errstate.__enter__()
        _STATE.depth = self._depth + 1

    def __exit__(self, *exc):
        _STATE.depth = self._depth
        return self._errstate.__exit__(*exc)

"""Facts about a per-lane integer value (a tile offset) that several accesses of a launch ask for: its
(min, max) and the constant distance between consecutive lanes, if any.

The loads and the store of one tile usually take the same offset array (``off`` in ``load(x, off)``,
``load(y, off)``, ``store(z, off)``), and each fact is a pass over the lanes; here each is found once
per array. An array whose facts are kept is made read-only, so it cannot change under them (lane values
are never written in place). Only small facts (ints) and a weak reference are kept, at most ``_MAX``
arrays' worth, so nothing grows with the launch or from launch to launch.
"""
from __future__ import annotations

import weakref

import numpy as np

_MAX = 256
_MEMO = {}            # id(array) -> [weak reference to it, lo, hi, step or _UNKNOWN]
_UNKNOWN = object()
_MIN, _MAX_OF = np.minimum.reduce, np.maximum.reduce


def _entry(v):
    e = _MEMO.get(id(v))
    if e is not None and e[0]() is v:
        return e
    if len(_MEMO) >= _MAX:
        _MEMO.clear()
    v.flags.writeable = False
    e = _MEMO[id(v)] = [weakref.ref(v), int(_MIN(v)), int(_MAX_OF(v)), _UNKNOWN]
    return e


def span(v):
    """(min, max) of a lane value (a 0-d or 1-d integer array) as Python ints."""
    if type(v) is not np.ndarray or v.ndim != 1 or v.dtype.kind not in "iu":
        v = np.asarray(v)
        if v.ndim == 0:
            x = int(v)
            return x, x
        return int(_MIN(v)), int(_MAX_OF(v))
    e = _entry(v)
    return e[1], e[2]


def step(v, lanes):
    """The constant distance between consecutive lanes of ``v`` seen as ``lanes`` lanes (0 when they are all
    equal), or None when the lanes are not evenly spaced in ascending order."""
    v = np.asarray(v)
    if v.ndim == 0 or lanes == 1:
        return 0
    if v.ndim != 1 or v.dtype.kind not in "iu" or v.shape[0] != lanes:
        lo, hi = span(v)
        return 0 if lo == hi else _step(np.broadcast_to(v, (lanes,)), lanes, lo, hi)
    e = _entry(v)
    if e[3] is _UNKNOWN:
        e[3] = 0 if e[1] == e[2] else _step(v, lanes, e[1], e[2])
    return e[3]


def _step(v, lanes, lo, hi):
    total = hi - lo
    if total % (lanes - 1) or v[0] != lo:
        return None
    d = np.subtract(v[1:], v[:-1], dtype=np.int64)   # (in int64: no wrap-around)
    s = total // (lanes - 1)
    return s if _MIN(d) == s and _MAX_OF(d) == s else None

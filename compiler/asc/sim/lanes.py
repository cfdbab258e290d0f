"""Batched runtime values.

The executor runs every op once for a whole batch of *lanes* (block x parallel-iteration instances).
A scalar is a 0-d array (the same in every lane) or a 1-d array with one entry per lane; a tile is an
array of shape ``(1, *tile_shape)`` (the same in every lane) or ``(lanes, *tile_shape)``.
"""
from __future__ import annotations

import numpy as np

from .views import broadcast


class Shared:
    """A tile value whose lanes share a few distinct windows: lane ``l`` holds ``windows[index[l]]``.

    Loads where many blocks read the same operand (every block of a matmul column loading one B tile)
    produce it, so the copies are never made. Ops registered with ``shared_operands=True`` work on the
    distinct windows; every other op receives the per-lane array (``materialise``).
    """
    __slots__ = ("windows", "index", "_full")

    def __init__(self, windows, index):
        self.windows = windows
        self.index = index
        self._full = None

    @property
    def ndim(self):
        return self.windows.ndim

    @property
    def dtype(self):
        return self.windows.dtype

    def materialise(self):
        if self._full is None:
            self._full = self.windows[self.index]
        return self._full

    def __array__(self, dtype=None, copy=None):
        a = self.materialise()
        return a if dtype is None else a.astype(dtype)

    def gather(self, idx):
        return Shared(self.windows, self.index[idx])


class UnsetAccumulator:
    """A ``zeros_acc`` tile no ``matmul_acc`` has written yet. The hardware does not clear L0C: the first
    ``matmul_acc`` initialises it, and anything else reading it first sees stale data (the simulator
    gives zeros and the launch report warns)."""
    __slots__ = ("zeros",)

    def __init__(self, zeros):
        self.zeros = zeros

    def __array__(self, dtype=None, copy=None):
        return self.zeros if dtype is None else self.zeros.astype(dtype)

    def gather(self, idx):
        return self


def windows_of(v):
    """(windows, index) of a tile value: index None means lane l holds windows[l] (or the one shared
    window when there is a single one)."""
    if type(v) is Shared:
        return v.windows, v.index
    return v, None


def scalar_for_tile(s, rank: int):
    """Reshape a lane scalar so it broadcasts against ``(lanes, *tile_shape)``."""
    s = np.asarray(s)
    if s.ndim == 0:
        return s
    return s.reshape((s.shape[0],) + (1,) * rank)


def gather(v, idx):
    """Select lanes ``idx`` of a batched value (uniform values are shared)."""
    if isinstance(v, np.ndarray):
        if v.ndim == 0 or v.shape[0] == 1:
            return v
        return v[idx]
    if hasattr(v, "gather"):
        return v.gather(idx)
    return v


def merge_plain(full, idx, part, lanes):
    """A lane subset's values ``part`` (lanes ``idx``) merged into the lane-wide value ``full`` (None: the
    first subset to produce it, the other lanes are filled by the others)."""
    part = np.asarray(part)
    if full is None:
        out = np.empty((lanes,) + (part.shape[1:] if part.ndim else ()), dtype=part.dtype)
        out[idx] = part if part.ndim else part.reshape(1)
        return out
    full = np.asarray(full)
    tail = full.shape[1:] if full.ndim else ()
    out = np.array(np.broadcast_to(full if full.ndim else full.reshape(1), (lanes,) + tail))
    out[idx] = part if part.ndim else part.reshape(1)
    return out


_INT64 = {}


def int64_const(v):
    """A 0-d int64 array of the int ``v``, made once per value (a kernel's few distinct loop bounds and static
    tensor dimensions); read-only, as every launch shares it."""
    a = _INT64.get(v)
    if a is None:
        if len(_INT64) >= 4096:
            _INT64.clear()
        a = _INT64[v] = np.asarray(v, dtype=np.int64)
        a.flags.writeable = False
    return a


def per_lane(v, lanes: int, tail=()):
    """``v`` as an array of shape ``(lanes, *tail)`` (a view when it is uniform)."""
    v = np.asarray(v)
    shape = (lanes,) + tuple(tail)
    return v if v.shape == shape else broadcast(v, shape)


class Env:
    """Values of a region: its own bindings, falling back to the enclosing region's (gathered).
    ``rec``: the launch's recorder (``sim.replay``), told of every gather."""
    __slots__ = ("vals", "parent", "idx", "rec")

    def __init__(self, parent=None, idx=None):
        self.vals = {}
        self.parent = parent
        self.idx = idx
        self.rec = None if parent is None else parent.rec

    def __getitem__(self, key):
        v = self.vals.get(key)
        if v is None:
            v = self.parent[key]
            if self.idx is not None:
                g = gather(v, self.idx)
                if self.rec is not None:
                    self.rec.gathered(v, g, self.idx)
                v = g
            self.vals[key] = v
        return v

    def __setitem__(self, key, value):
        self.vals[key] = value

"""The process's in-memory caches, each bounded, least recently used first out.

A long session (a notebook, a test worker, a tuning loop over tile sizes) launches many specialisations;
what it keeps between launches must not grow with their number:

- ``COMPILED``: traced kernels (``runtime/jit.py``), at most ``$ASC_KERNEL_CACHE`` entries (default 256)
  over every ``@jit`` function of the process. An evicted kernel is traced again (or read back from the
  on-disk cache) when it is launched next, and its recorded launches go with it.
- ``REPLAY``: recorded launches (``sim/replay.py``, ``sim/pipes/replay.py``), at most 8 structures per
  kernel, ``$ASC_REPLAY_CACHE`` structures in all (default 1024) and ``$ASC_REPLAY_CACHE_MB`` megabytes of
  arrays in all (default 256). An evicted structure runs in full on its next launch and is recorded again.
"""
from __future__ import annotations

import os
from collections import OrderedDict


def _env_int(name, default):
    try:
        return max(0, int(os.environ.get(name, "").strip() or default))
    except ValueError:
        return default


class BoundedCache:
    """A mapping of at most ``max_entries`` entries and ``max_bytes`` bytes (``sizeof`` of each value);
    ``get`` marks an entry as used, ``put`` evicts the least recently used entries past the bounds (and
    calls ``on_evict(key, value)`` for each)."""

    def __init__(self, name, max_entries, max_bytes=None, sizeof=None, on_evict=None):
        self.name = name
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.sizeof = sizeof or (lambda value: 0)
        self.on_evict = on_evict
        self._data = OrderedDict()   # key -> (value, bytes)
        self.bytes = 0

    def __len__(self):
        return len(self._data)

    def __contains__(self, key):
        return key in self._data

    def get(self, key, default=None):
        hit = self._data.get(key)
        if hit is None:
            return default
        self._data.move_to_end(key)
        return hit[0]

    def put(self, key, value):
        self.pop(key)
        size = self.sizeof(value)
        self._data[key] = (value, size)
        self.bytes += size
        while self._data and (len(self._data) > self.max_entries or
                              (self.max_bytes is not None and self.bytes > self.max_bytes)):
            old, (v, s) = self._data.popitem(last=False)
            self.bytes -= s
            if self.on_evict is not None:
                self.on_evict(old, v)

    def pop(self, key):
        hit = self._data.pop(key, None)
        if hit is not None:
            self.bytes -= hit[1]
        return None if hit is None else hit[0]

    def keys(self):
        return list(self._data)

    def clear(self):
        self._data.clear()
        self.bytes = 0


MAX_TAPES_PER_KERNEL = 8


def _drop_tapes(key, compiled):
    compiled.tapes.clear()


COMPILED = BoundedCache("compiled kernels", _env_int("ASC_KERNEL_CACHE", 256), on_evict=_drop_tapes)
REPLAY = BoundedCache("recorded launches", _env_int("ASC_REPLAY_CACHE", 1024),
                      _env_int("ASC_REPLAY_CACHE_MB", 256) << 20, sizeof=lambda tape: getattr(tape, "nbytes", 0))


class KernelTapes:
    """The recorded launches of one kernel, by structure key, kept in ``REPLAY`` (None: a structure that
    is not recorded again, e.g. its launch warned); the oldest of a kernel's structures makes way past
    ``MAX_TAPES_PER_KERNEL``."""

    def __init__(self):
        self.owner = self          # (a kernel that drops this object drops its recordings' keys)
        self.keys = OrderedDict()

    def get(self, key):
        return REPLAY.get((self.owner, key))

    def __contains__(self, key):
        return (self.owner, key) in REPLAY

    def put(self, key, tape):
        REPLAY.put((self.owner, key), tape)
        self.keys.pop(key, None)
        self.keys[key] = True
        for k in list(self.keys):   # (some may have been evicted from REPLAY meanwhile)
            if (self.owner, k) not in REPLAY:
                del self.keys[k]
        while len(self.keys) > MAX_TAPES_PER_KERNEL:
            REPLAY.pop((self.owner, self.keys.popitem(last=False)[0]))

    def __len__(self):
        return sum((self.owner, k) in REPLAY for k in self.keys)

    def values(self):
        return [REPLAY.get((self.owner, k)) for k in self.keys if (self.owner, k) in REPLAY]

    def clear(self):
        for k in self.keys:
            REPLAY.pop((self.owner, k))
        self.keys.clear()


class KernelCache:
    """The traced specialisations of one ``@jit`` function, by cache key, kept in ``COMPILED``."""

    def __init__(self, owner):
        self.owner = owner

    def get(self, key):
        return COMPILED.get((self.owner, key))

    def __contains__(self, key):
        return (self.owner, key) in COMPILED

    def __setitem__(self, key, compiled):
        COMPILED.put((self.owner, key), compiled)

    def values(self):
        return [COMPILED.get(k) for k in COMPILED.keys() if k[0] is self.owner]

    def __len__(self):
        return sum(k[0] is self.owner for k in COMPILED.keys())

    def clear(self):
        for k in COMPILED.keys():
            if k[0] is self.owner:
                _drop_tapes(k, COMPILED.pop(k))


def cache_sizes():
    """The caches' current sizes (for ``bench/memory.py`` and tests)."""
    return {"compiled": len(COMPILED), "replay": len(REPLAY), "replay_mb": round(REPLAY.bytes / (1 << 20), 1)}

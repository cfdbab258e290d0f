"""The on-disk kernel cache (``$PYASC_CACHE_DIR``, default ``~/.pyasc/cache-embedded``): compiled kernels
keyed by the specialisation key and a hash of this package's sources."""
from __future__ import annotations

import hashlib
import os
import pickle
import threading
from pathlib import Path


def source_key():
    h = hashlib.blake2b(digest_size=16)
    root = Path(__file__).resolve().parent.parent
    for p in sorted(root.rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


_SOURCE_KEY = []


def cache_dir():
    d = os.environ.get("PYASC_CACHE_DIR")
    if d:
        return Path(d)
    return Path(os.environ.get("PYASC_HOME", os.path.expanduser("~"))) / ".pyasc" / "cache-embedded"


def disk_path(key, name):
    """Where the compiled kernel ``name`` with specialisation ``key`` is cached (one file per entry, beside
    the others: writing one makes no directory of its own)."""
    if not _SOURCE_KEY:
        _SOURCE_KEY.append(source_key())
    full = hashlib.blake2b((_SOURCE_KEY[0] + key).encode(), digest_size=16).hexdigest()
    return cache_dir() / f"{full}-{name}.pkl"


def disk_load(key, name):
    path = disk_path(key, name)
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:  # noqa: BLE001 - a missing or unreadable entry is a cache miss
        return None


_MADE = set()   # cache directories this process made or found


def disk_store(key, name, compiled):
    """Write the entry: to a file of this process and thread first, then renamed over the entry, so a reader
    never sees half of one. What a launch computed and the entry keeps (``CompiledKernel.__getstate__``: the
    tick schedules of its launches) is in it when the entry is written after the kernel's first launch."""
    path = disk_path(key, name)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        if path.parent not in _MADE:
            path.parent.mkdir(parents=True, exist_ok=True)
            _MADE.add(path.parent)
        with open(tmp, "wb") as f:
            pickle.dump(compiled, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # noqa: BLE001 - caching is best effort (read-only home, pickling limits)
        _MADE.discard(path.parent)
        try:
            os.unlink(tmp)
        except OSError:
            pass

"""The on-disk kernel cache (``$PYASC_CACHE_DIR``, default ``~/.pyasc/cache-embedded``): compiled kernels
keyed by the specialisation key and a hash of this package's sources."""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
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
    """Where the compiled kernel ``name`` with specialisation ``key`` is cached."""
    if not _SOURCE_KEY:
        _SOURCE_KEY.append(source_key())
    full = hashlib.blake2b((_SOURCE_KEY[0] + key).encode(), digest_size=16).hexdigest()
    return cache_dir() / full / f"{name}.pkl"


def disk_load(key, name):
    path = disk_path(key, name)
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:  # noqa: BLE001 - a missing or unreadable entry is a cache miss
        return None


def disk_store(key, name, compiled):
    path = disk_path(key, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(compiled, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # noqa: BLE001 - caching is best effort (read-only home, pickling limits)
        pass

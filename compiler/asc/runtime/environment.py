"""The engine's ``ASC_*`` switches, read from the environment at every launch (a test or a notebook may
change them between two launches).

A launch reads about seven of them, mostly unset. ``os.environ.get`` encodes the name, and for a name that is
not set raises and catches a ``KeyError``: about a microsecond each. ``getenv`` looks the name up in the dict
behind ``os.environ`` (CPython's POSIX mapping keeps the environment there, encoded with its own
``encodekey`` / ``decodevalue``, and writes every change through it), so it sees exactly what
``os.environ.get`` would; wherever that layout is not there it is ``os.environ.get``.
"""
from __future__ import annotations

import os

_KEYS = {}   # name -> the encoded key of os.environ's dict


def _backing(env):
    data = getattr(env, "_data", None)
    if type(data) is dict and callable(getattr(env, "encodekey", None)) and callable(getattr(env, "decodevalue", None)):
        return data
    return None


_ENV = os.environ
_DATA = _backing(_ENV)


def getenv(name, default=None):
    """``os.environ.get(name, default)``."""
    env = os.environ
    if env is not _ENV or _DATA is None:   # (os.environ replaced, or not CPython's mapping)
        return env.get(name, default)
    key = _KEYS.get(name)
    if key is None:
        key = _KEYS[name] = env.encodekey(name)
    value = _DATA.get(key)
    return default if value is None else env.decodevalue(value)

"""How many bytes of arrays an object keeps alive (the size a bounded cache charges for a recorded launch)."""
from __future__ import annotations

import numpy as np


_LEAVES = (int, float, bool, str, bytes, type(None))


def array_bytes(obj, seen=None, depth=0):
    """Bytes of the numpy arrays ``obj`` holds (through lists, tuples, dicts and ``__slots__`` objects),
    each counted once; views count as their base (a view of a caller's buffer counts that buffer: keeping
    the view keeps the buffer)."""
    if type(obj) in _LEAVES:   # (a step's ints and shapes: most of what is walked)
        return 0
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 6:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        base = obj
        while isinstance(base.base, np.ndarray):
            base = base.base
        if base is not obj:
            return array_bytes(base, seen, depth)
        return obj.nbytes if obj.base is None else 0
    if isinstance(obj, (list, tuple)):
        return sum(array_bytes(x, seen, depth + 1) for x in obj)
    if isinstance(obj, dict):
        return sum(array_bytes(x, seen, depth + 1) for x in obj.values())
    return sum(array_bytes(getattr(obj, name, None), seen, depth + 1) for name in getattr(type(obj), "__slots__", ()))

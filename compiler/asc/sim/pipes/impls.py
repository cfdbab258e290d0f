"""The registry of what each v1 instruction computes: ``@impl(name)`` functions ``fn(memory, op)`` over a
block's memory views (``replay.MemoryViews``), one module per instruction family (``compute*.py``)."""
from __future__ import annotations

IMPLS = {}
PURE = set()      # ops whose effect is data in, data out (a replay may run them from its record)


def impl(*names, pure=False):
    def deco(fn):
        for n in names:
            IMPLS[n] = fn
            if pure:
                PURE.add(n)
        return fn
    return deco


def elements(eng, t, idx, count):
    """(typed array, index) of an operand's elements: ``count`` from its start, or its indices ``idx``."""
    arr, base = eng.view(t)
    if idx is None:
        return arr, slice(base, base + count)
    return arr, base + idx

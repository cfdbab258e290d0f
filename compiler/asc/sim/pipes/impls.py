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


def operands(eng, op):
    """(destination array, its index, [each source's values]) of an elementwise instruction's attrs: ``dst``,
    ``srcs``, ``count`` and the mask-form indices ``idx`` (None: the count form's contiguous elements)."""
    a = op.attrs
    idx = a["idx"] or [None] * (1 + len(a["srcs"]))
    d, di = elements(eng, a["dst"], idx[0], a["count"])
    xs = [arr[i] for arr, i in (elements(eng, t, ix, a["count"]) for t, ix in zip(a["srcs"], idx[1:]))]
    return d, di, xs

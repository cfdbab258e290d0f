"""The builtins an August kernel sees: ``max``, ``min`` and ``sum`` over tiles, runtime scalars and Python
values (pyasc-dev's ``asctile/runtime/custom_builtins.py``); ``print`` and ``assert`` are the device ones
(``frontend.visitor``).

Each call splits its arguments into three groups: tiles (combined elementwise: ``maximum`` / ``minimum``
/ ``+``), runtime scalars (scalar max / min / ``+``) and anything else (Python's own builtin), then
folds the groups together from the last to the first, so ``max(tile, n, 3)`` is
``maximum(tile, max(n, 3))``: a tile when any argument is one, a runtime scalar when any is one,
otherwise the Python value. ``max(a, b, c)`` and ``max(iterable)`` both work, with ``key=`` and
``default=`` as in Python.
"""
from __future__ import annotations

import builtins
import operator
from collections.abc import Iterable

from ..core.ir_value import PlainValue
from .binary_ops import maximum, minimum
from .tile import Tile

_MISSING = object()


def _fold(values, tile_fn, scalar_fn, python_fn, name, default=_MISSING):
    groups = [[Tile, tile_fn, _MISSING], [PlainValue, scalar_fn, _MISSING], [object, python_fn, _MISSING]]
    for v in values:
        for g in groups:
            if isinstance(v, g[0]):
                g[2] = v if g[2] is _MISSING else g[1](g[2], v)
                break
    defined = [g for g in groups if g[2] is not _MISSING]
    if not defined:
        if default is not _MISSING:
            return default
        raise ValueError(f"{name}() arg is an empty sequence")
    result = defined[-1][2]
    for g in reversed(defined[:-1]):
        result = g[1](g[2], result)
    return result


def _items(args):
    return args[0] if len(args) == 1 and isinstance(args[0], Iterable) else args


def kernel_max(*args, key=None, default=_MISSING):
    """``max`` in a kernel: elementwise ``maximum`` of tiles, scalar max of runtime scalars, Python's
    ``max`` of Python values."""
    values = [key(a) if key is not None else a for a in _items(args)]
    return _fold(values, maximum, PlainValue.max, builtins.max, "max", default)


def kernel_min(*args, key=None, default=_MISSING):
    """``min`` in a kernel: elementwise ``minimum`` of tiles, scalar min of runtime scalars, Python's
    ``min`` of Python values."""
    values = [key(a) if key is not None else a for a in _items(args)]
    return _fold(values, minimum, PlainValue.min, builtins.min, "min", default)


def kernel_sum(iterable, /, start=0):
    """``sum`` in a kernel: ``start`` plus every item, tiles added elementwise."""
    return _fold([start, *iterable], operator.add, operator.add, operator.add, "sum")


KERNEL_BUILTINS = {"max": kernel_max, "min": kernel_min, "sum": kernel_sum}


class GivenBuiltins(dict):
    """A ``custom_builtins`` dict given to ``asctile.jit``: as upstream (``options.setdefault``), it replaces
    the kernel builtins above, ``print`` and ``assert`` included, so the kernel sees Python's basic builtins
    and the dict's names only."""

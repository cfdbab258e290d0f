"""What a kernel's compiled form depends on besides its own source and arguments: the module-level names
and enclosing-function variables its body (and the ``@jit`` helpers it calls) use, as pyasc resolves them
(a kernel defined inside a function sees that function's variables, ``compute_globals`` upstream). The
values of those names are part of the compile key and of a v1 launch's structure, so changing a module
constant or a helper's source never reuses a kernel compiled before the change (in memory or on disk)."""
from __future__ import annotations

import enum
import hashlib
from collections import ChainMap

import numpy as np

from ..language.core.dtype import DataType as _Dtype
from ..language.v1.tensors import GmPointer

SIMPLE = (int, float, bool, str, type(None), np.integer, np.floating, np.bool_, enum.Enum, _Dtype)
_KEYED = SIMPLE + (tuple, list)
_KEYED_TYPES = {}   # type -> whether ``constants`` keys its values


def value_key(v):
    """A hashable stand-in for a value the body sees, or None when it has none."""
    if isinstance(v, GmPointer):
        return ("gm", v.buf, str(v.dtype), v.size, v.offset)
    if isinstance(v, _Dtype):
        return ("dtype", str(v))       # pyasc's DataType is unhashable
    if isinstance(v, (float, np.floating)):
        return ("float", float(v).hex())   # -0.0 is not 0.0 (a muls by it gives -0.0), and NaN is itself
    if isinstance(v, SIMPLE):
        return (type(v).__name__, v)
    if isinstance(v, (tuple, list)):
        parts = [value_key(x) for x in v]
        return None if any(p is None for p in parts) else (type(v).__name__, tuple(parts))
    const = getattr(v, "value", None)
    if type(v).__name__ == "ConstExpr" and const is not None:
        inner = value_key(const)
        return None if inner is None else ("constexpr", inner)
    return None


def _closure(fn):
    """{name: cell} of the enclosing-function variables ``fn`` uses."""
    cells = fn.__closure__ or ()
    return dict(zip(fn.__code__.co_freevars, cells))


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:    # an enclosing variable not assigned yet
        return None


def namespace(fn):
    """The names ``fn``'s body resolves besides its locals: its enclosing variables, then its module's."""
    cells = _closure(fn)
    if not cells:
        return fn.__globals__
    return ChainMap({n: _cell_value(c) for n, c in cells.items()}, fn.__globals__)


class _Ref:
    """One name a kernel or helper uses: a module global (``holder`` its globals dict) or a cell."""
    __slots__ = ("name", "holder", "cell")

    def __init__(self, name, holder=None, cell=None):
        self.name, self.holder, self.cell = name, holder, cell

    def value(self):
        return _cell_value(self.cell) if self.cell is not None else self.holder.get(self.name)


def referenced(jit_fn):
    """The names the kernel and, transitively, its ``@jit`` helpers use (``_Ref`` each), computed once."""
    found = jit_fn.__dict__.get("_referenced")
    if found is not None:
        return found
    found, seen = [], set()

    def visit(fn):
        if fn in seen:
            return
        seen.add(fn)
        g, cells = fn.__globals__, _closure(fn)
        codes = [fn.__code__]
        while codes:
            code = codes.pop()
            codes.extend(c for c in code.co_consts if hasattr(c, "co_names"))
            for n in code.co_names:
                if n in g:
                    found.append(_Ref(n, holder=g))
            for n in code.co_freevars:
                if n in cells:
                    found.append(_Ref(n, cell=cells[n]))
        for ref in list(found):
            inner = getattr(ref.value(), "fn", None)
            if inner is not None and hasattr(inner, "__code__"):
                visit(inner)
    visit(jit_fn.fn)
    jit_fn.__dict__["_referenced"] = found
    return found


def constants(jit_fn):
    """((name, value key), ...) of the plain values (numbers, strings, enums, dtypes and sequences of them)
    the kernel and its helpers name, or None when one is a sequence with no stand-in."""
    out = []
    for ref in referenced(jit_fn):
        v = ref.value()
        t = type(v)
        keyed = _KEYED_TYPES.get(t)
        if keyed is None:   # (whether values of a type have keys depends on the type alone: kept per type)
            if len(_KEYED_TYPES) >= 1024:
                _KEYED_TYPES.clear()
            keyed = _KEYED_TYPES[t] = issubclass(t, _KEYED) or t.__name__ == "ConstExpr"
        if keyed:
            k = value_key(v)
            if k is None:
                return None
            out.append((ref.name, k))
    return tuple(out)


def helpers_source_hash(jit_fn):
    """A hash of the sources of the ``@jit`` helpers the kernel calls, transitively (computed once)."""
    h = jit_fn.__dict__.get("_helpers_hash")
    if h is None:
        d = hashlib.blake2b(digest_size=16)
        for ref in referenced(jit_fn):
            helper = ref.value()
            src = getattr(helper, "source_hash", None)
            if isinstance(src, str) and helper is not jit_fn:
                d.update(f"{ref.name}:{src};".encode())
        h = jit_fn.__dict__["_helpers_hash"] = d.hexdigest()
    return h

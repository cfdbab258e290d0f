"""What a kernel's compiled form depends on besides its own source and arguments: the module-level names
and enclosing-function variables its body (and the ``@jit`` helpers it calls) use, as pyasc resolves them
(a kernel defined inside a function sees that function's variables, ``compute_globals`` upstream). The
values of those names are part of the compile key and of a v1 launch's structure, so changing a module
constant or a helper's source never reuses a kernel compiled before the change (in memory or on disk)."""
from __future__ import annotations

import ast
import builtins
import enum
import hashlib
import types
from collections import ChainMap

import numpy as np

from ..frontend.device_calls import KernelFunction
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


# Python builtins a kernel may name without a lookup (pyasc's ``NameScope.default_builtins``).
_DEFAULT_BUILTINS = frozenset(("breakpoint", "dict", "float", "int", "isinstance", "issubclass", "len", "list",
                               "range", "repr", "str", "tuple", "type"))


def _allowed_callable(v):
    """Whether a callable a kernel names may stay out of its cache key: a pyasc function, a class, a
    compile-time constant (pyasc's ``jit_allowed`` / ``asc.language`` / ``typing`` exemptions)."""
    mod = getattr(v, "__module__", None) or ""
    return isinstance(v, type) or type(v).__name__ == "ConstExpr" or mod == "typing" \
        or mod.startswith(("asc.", "asc2"))


class _Finder(ast.NodeVisitor):
    """pyasc's ``DependenciesFinder`` as far as it refuses: it walks a function's source resolving each
    name that is not a local (module globals, then enclosing variables) and each attribute of a resolved
    object; a callable among them that is neither a pyasc function, a class, a ConstExpr nor a ``@jit``
    function (whose own source is walked in turn) ends the walk."""

    def __init__(self, fn, seen):
        self.globals, self.cells = fn.fn.__globals__, {n: _cell_value(c) for n, c in _closure(fn.fn).items()}
        self.fn, self.seen, self.local_names, self.in_default = fn, seen, set(), False
        self.found = None   # (value, node, the JIT function whose source names it)

    key = "_refused"        # where a kernel keeps the walk's answer

    def record(self, value, node):
        if self.found is not None or value is None or isinstance(value, types.ModuleType):
            return
        if isinstance(value, KernelFunction):
            if value not in self.seen:
                self.found = _walk(type(self), value, self.seen)
            return
        if callable(value) and not _allowed_callable(value) and not self.in_default:
            self.found = (value, node, self.fn)

    def visit_FunctionDef(self, node):
        self.local_names = {a.arg for a in node.args.args}
        self.generic_visit(node)

    def visit_arguments(self, node):
        self.in_default = True
        for d in list(node.defaults) + [d for d in node.kw_defaults if d is not None]:
            self.visit(d)
        self.in_default = False

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            return node.id
        if node.id in self.local_names:
            return None
        value = self.globals.get(node.id)
        if value is None:
            value = self.cells.get(node.id)
        if node.id not in _DEFAULT_BUILTINS:
            self.record(value, node)
        return value

    def visit_Tuple(self, node):
        return [self.visit(e) for e in node.elts]

    def visit_Attribute(self, node):
        owner = self.visit(node.value)
        if owner is None or getattr(owner, "__name__", "") in ("asc.language", "typing"):
            return None
        try:
            value = getattr(owner, node.attr)
        except Exception:     # (the trace reports a missing attribute at its line)
            return None
        self.record(value, node)
        return value

    def _targets(self, target):
        names = self.visit(target)
        self.local_names.update(names if isinstance(names, list) else [names])

    def visit_Assign(self, node):
        self._targets(node.targets[0])
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        self._targets(node.target)
        self.generic_visit(node)

    def visit_For(self, node):
        self._targets(node.target)
        self.generic_visit(node)

    def generic_visit(self, node):
        if self.found is None:
            super().generic_visit(node)


def _walk(finder, jit_fn, seen=None):
    """``finder``'s first find in the kernel's source or, transitively, its ``@jit`` helpers' (each walked
    once per walk); kept on the kernel once made."""
    top = seen is None
    if top and finder.key in jit_fn.__dict__:
        return jit_fn.__dict__[finder.key]
    seen = set() if top else seen
    seen.add(jit_fn)
    walker = finder(jit_fn, seen)
    walker.visit(jit_fn.node)
    if top:       # (a helper's walk inside another's stops at functions already seen: not its own answer)
        jit_fn.__dict__[finder.key] = walker.found
    return walker.found


def refused_reference(jit_fn):
    """The first callable the kernel's source (or a ``@jit`` helper's, transitively) names that pyasc
    refuses when it computes a kernel's cache key, as (value, AST node, the JIT function naming it); None
    when there is none. Computed once per kernel."""
    return _walk(_Finder, jit_fn)


# What pyasc's v1 kernels resolve besides locals and module names: the default builtins and ``asc.jit``'s
# custom ones (``range`` is ``asc.range``; ``assert`` a static assert).
V1_BUILTINS = _DEFAULT_BUILTINS | {"assert"}


class _BuiltinFinder(_Finder):
    """The first Python builtin a kernel names that pyasc's name scope does not offer (``min``, ``abs``,
    ``print``, ``getattr`` ...): pyasc resolves a name from the locals, the module and its builtins only."""

    key = "_builtin"

    def record(self, value, node):
        if self.found is None and isinstance(value, KernelFunction) and value not in self.seen:
            self.found = _walk(_BuiltinFinder, value, self.seen)

    def visit_Name(self, node):
        name = node.id
        if isinstance(node.ctx, ast.Load) and self.found is None and name not in self.local_names \
                and name not in self.globals and name not in self.cells and name not in V1_BUILTINS \
                and hasattr(builtins, name):
            self.found = (name, node, self.fn)
            return None
        return super().visit_Name(node)


def unavailable_builtin(jit_fn):
    """(name, AST node, the JIT function naming it) of the first builtin pyasc's v1 name scope lacks that the
    kernel or a ``@jit`` helper it calls names, or None. Computed once per kernel."""
    return _walk(_BuiltinFinder, jit_fn)

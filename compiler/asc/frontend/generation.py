"""Which pyasc generation a kernel is written in, read from its source before tracing.

Rule: a kernel that uses any August-only name (``global_tensor``, ``copy_in``, ``copy_out``,
``TensorLocation``, ``GlobalAddress`` of the tile module, ``copy`` in a form only August reads (three
positional arguments, ``shape=`` or ``distrib=``; a bare ``copy(t, x)`` reads as either), ``gm_barrier=``),
or calls the API through ``asc.experimental.asctile``, is an August kernel: its ``asc2.range`` loops
default to no loop-end global-memory barrier. Any other kernel keeps the April default (a barrier).
The only behavioural difference is that default; both generations may be mixed in one process.
"""
from __future__ import annotations

import ast
import types

from .syntax_nodes import nodes_of
from ..language.dialect import APRIL, AUGUST, AUGUST_ONLY_NAMES, Dialect, copy as dialect_copy, copy_form, namespace

_TILE_MODULES = {"asc2": APRIL, "asc.experimental.asctile": AUGUST}
_AUGUST_OBJECTS = None


def _august_objects():
    global _AUGUST_OBJECTS
    if _AUGUST_OBJECTS is None:
        ns = namespace((AUGUST,))
        _AUGUST_OBJECTS = {id(ns[n]) for n in AUGUST_ONLY_NAMES
                           if n in ns and isinstance(ns[n], types.FunctionType)}
    return _AUGUST_OBJECTS


def kernel_dialect(node, fn_globals, forced=None) -> Dialect:
    """The dialect of the kernel whose ``ast.FunctionDef`` is ``node`` (``forced``: the decorator's)."""
    august = forced == AUGUST
    module = "asctile" if august else None

    def tile_module(expr):
        if isinstance(expr, ast.Name):
            m = fn_globals.get(expr.id)
            if isinstance(m, types.ModuleType) and m.__name__ in _TILE_MODULES:
                return expr.id, _TILE_MODULES[m.__name__]
        return None, None

    for n in nodes_of(node):
        if isinstance(n, ast.Attribute):
            alias, gen = tile_module(n.value)
            if alias is None:
                continue
            if gen == AUGUST:
                august, module = True, alias
            module = module or alias
            if n.attr in AUGUST_ONLY_NAMES:
                august = True
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            obj = fn_globals.get(n.id)
            if id(obj) in _august_objects() or n.id == "TensorLocation":
                august = True
        elif isinstance(n, ast.Call):
            if any(k.arg == "gm_barrier" for k in n.keywords):
                august = True
            f = n.func
            target = fn_globals.get(f.id) if isinstance(f, ast.Name) else (
                getattr(fn_globals.get(f.value.id), f.attr, None)
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None)
            if target is dialect_copy and copy_form(len(n.args), [k.arg for k in n.keywords]) == AUGUST:
                august = True
    return Dialect(AUGUST if august else APRIL, module or "asc2")


def launched_dialect(jit_fn) -> Dialect:
    """The dialect of a kernel as its decorator declares it (``asctile.jit`` forces August) or its names say."""
    from ..language.tile.range import asctile_range
    builtins = jit_fn.options.get("custom_builtins") or {}
    forced = AUGUST if builtins.get("range") is asctile_range else None
    return kernel_dialect(jit_fn.node, jit_fn.namespace, forced)

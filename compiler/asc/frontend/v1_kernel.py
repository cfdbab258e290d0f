"""The v1 front end: a kernel written against pyasc's v1 API runs its Python body once per block, each v1
call issuing its ``PipeOp`` to the block's engine (Python control flow is the kernel's control flow, as
the device's scalar unit runs it); ``uses_v1`` tells such a kernel from a tile kernel by its source."""
from __future__ import annotations

import ast

from ..ir.pipe_ops import current_block, pop_block, push_block
from ..language.v1 import EXPORTS, UPSTREAM_ADV_NAMES, UPSTREAM_NAMES

_V1 = frozenset(EXPORTS) | UPSTREAM_NAMES | {"adv"}


def uses_v1(node):
    """Whether a kernel's ``ast.FunctionDef`` uses pyasc's v1 API (an ``asc.<v1 name>``)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "asc" and n.attr in _V1:
            return True
    return False


def called_names(node):
    """Names the kernel calls directly (``helper(...)``): a kernel whose helpers use v1 is a v1 kernel."""
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def uses_auto_tensors(node):
    """Whether the kernel creates a ``LocalTensorAuto`` (pyasc then runs its insert-sync pass)."""
    return any(isinstance(n, ast.Attribute) and n.attr == "LocalTensorAuto" for n in ast.walk(node))


def in_v1_block():
    return current_block() is not None


def run_block(jit_fn, engine, values):
    """Run the kernel body for one block (``values``: parameter name -> v1 value)."""
    push_block(engine)
    try:
        jit_fn.fn(**values)
    finally:
        pop_block()


__all__ = ["uses_v1", "run_block", "in_v1_block", "UPSTREAM_ADV_NAMES"]

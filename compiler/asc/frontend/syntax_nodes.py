"""Every node of a kernel's syntax tree, listed once.

The front end reads a kernel's source several times before and while tracing it: which dialect it is
written in, whether it uses the v1 API, which names it calls, what each loop body assigns. ``ast.walk``
costs about 2 µs per node (generators over every field of every node); going over a kept tuple costs a
few percent of that, so a kernel's first launch pays one walk per tree instead of one per question.
"""
from __future__ import annotations

import ast
from collections import deque

_AST = ast.AST


def nodes_of(node):
    """``tuple(ast.walk(node))``, kept on ``node`` (a parsed tree is never changed in place: the v1 front
    end rewrites a deep copy, whose kept tuple is then stale and never read)."""
    hit = node.__dict__.get("_asc_nodes")
    if hit is None:
        hit = node._asc_nodes = _walk(node)
    return hit


def _walk(node):
    """The nodes in ``ast.walk``'s order (breadth first, fields in order), without its generators."""
    out = []
    todo = deque((node,))
    pop, push, push_all = todo.popleft, todo.append, todo.extend
    while todo:
        n = pop()
        out.append(n)
        for name in n._fields:
            v = getattr(n, name, None)
            if isinstance(v, _AST):
                push(v)
            elif type(v) is list:
                push_all([x for x in v if isinstance(x, _AST)])
    return tuple(out)

"""The v1 front end: a kernel written against pyasc's v1 API runs its Python body once per block, each v1
call issuing its ``PipeOp`` to the block's engine (Python control flow is the kernel's control flow, as
the device's scalar unit runs it); ``uses_v1`` tells such a kernel from a tile kernel by its source."""
from __future__ import annotations

import ast

from .syntax_nodes import nodes_of
from .v1_arith import compile_body, rewrite
from ..ir.faults import KernelRuntimeError
from ..ir.pipe_ops import PACKAGE, current_block, pop_block, push_block
from ..language.v1 import EXPORTS, UPSTREAM_ADV_NAMES, UPSTREAM_NAMES

_V1 = frozenset(EXPORTS) | UPSTREAM_NAMES | {"adv"}


def uses_v1(node):
    """Whether a kernel's ``ast.FunctionDef`` uses pyasc's v1 API (an ``asc.<v1 name>``)."""
    for n in nodes_of(node):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "asc" and n.attr in _V1:
            return True
    return False


def called_names(node):
    """Names the kernel calls directly (``helper(...)``): a kernel whose helpers use v1 is a v1 kernel (cached
    per kernel: a launch asks each time)."""
    key = (id(node), "()")
    hit = _ATTRS.get(key)
    if hit is None or hit[0] is not node:
        hit = _ATTRS[key] = (node, frozenset(n.func.id for n in nodes_of(node)
                                             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)))
    return hit[1]


def uses_auto_tensors(node):
    """Whether the kernel creates a ``LocalTensorAuto`` (pyasc then runs its insert-sync pass)."""
    return _attribute_named(node, "LocalTensorAuto")


def _attribute_named(node, attr):
    """Whether the kernel's source names ``<something>.attr`` (the names collected in one walk of the
    kernel, cached per kernel: a launch asks for several each time)."""
    key = (id(node), ".")
    hit = _ATTRS.get(key)
    if hit is None or hit[0] is not node:
        hit = _ATTRS[key] = (node, frozenset(n.attr for n in nodes_of(node) if isinstance(n, ast.Attribute)))
    return attr in hit[1]


_ATTRS = {}


_BLOCK_SYNC = ("sync_all", "ib_set", "ib_wait", "notify_next_block", "wait_pre_block", "cross_core_set_flag",
               "cross_core_wait_flag")


def waits_for_blocks(jit_fn, depth=4):
    """Whether the kernel (or an ``@asc.jit`` helper it calls) makes its blocks wait for each other
    (``sync_all``, the inter-block flags): its blocks then run as ``sim/pipes/phases.py`` runs them."""
    if any(_attribute_named(jit_fn.node, name) for name in _BLOCK_SYNC):
        return True
    if depth:
        scope = jit_fn.namespace
        for name in called_names(jit_fn.node):
            helper = scope.get(name)
            if helper is not None and hasattr(helper, "node") and hasattr(helper, "fn") and helper is not jit_fn \
                    and waits_for_blocks(helper, depth - 1):
                return True
    return False


def kernel_kind(node, options):
    """pyasc's kernel type: ``MIX`` (``MIX_AIC_1_2``) for a kernel that registers a Matmul (one cube core
    serving two vector cores per group), ``AIC_ONLY`` with ``matmul_cube_only=True``, else ``AIV_ONLY``; or the
    type asked for (``kernel_type=KernelType.*``)."""
    asked = options.get("kernel_type")
    if asked is not None:
        name = getattr(asked, "name", str(asked)).upper()
        return "MIX" if name == "MIX_AIC_1_2" else name
    mm = _attribute_named(node, "register_matmul")
    if mm:
        return "AIC_ONLY" if options.get("matmul_cube_only") else "MIX"
    # a kernel naming the cube's own instructions runs on the cube cores
    if any(_attribute_named(node, name) for name in _CUBE_ONLY):
        return "AIC_ONLY"
    return "AIV_ONLY"


_CUBE_ONLY = ("mmad", "fixpipe", "load_data", "load_data_with_transpose")


def in_v1_block():
    return current_block() is not None


def run_block(jit_fn, engine, values):
    """Run the kernel body for one block (``values``: parameter name -> v1 value)."""
    push_block(engine)
    try:
        v1_body(jit_fn)(**values)
    except Exception as e:
        if getattr(e, "hint", None) is not None and not isinstance(e, KernelRuntimeError):
            _locate(e)
        raise
    finally:
        pop_block()


def _locate(e):
    """A user error raised by a v1 call (a bad event id, a double free, a misaligned operand) names the
    kernel line that made the call, and its fix, like every engine error."""
    tb, loc = e.__traceback__, None
    while tb is not None:
        f = tb.tb_frame.f_code.co_filename
        if not f.startswith(PACKAGE):
            loc = (f, tb.tb_lineno)
        tb = tb.tb_next
    if loc is not None and e.args and isinstance(e.args[0], str):
        e.args = (f"{loc[0]}:{loc[1]}: {e.args[0]}\nhint: {e.hint}",) + e.args[1:]


__all__ = ["uses_v1", "run_block", "in_v1_block", "v1_body", "kernel_kind", "waits_for_blocks", "UPSTREAM_ADV_NAMES"]


class _IterateLoops(ast.NodeTransformer):
    """``with matmul.iterate() as count: body`` is a loop over the base blocks (pyasc traces it as an
    ``scf.while``): rewritten to ``for count in matmul.iterate(): body``."""

    def visit_With(self, node):
        self.generic_visit(node)
        if len(node.items) == 1:
            item = node.items[0]
            call = item.context_expr
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "iterate":
                target = item.optional_vars or ast.copy_location(ast.Name("_", ast.Store()), node)
                return ast.copy_location(ast.For(target, call, node.body, [], lineno=node.lineno), node)
        return node


def _has_iterate(node):
    return any(isinstance(n, ast.With) and any(isinstance(i.context_expr, ast.Call)
                                               and isinstance(i.context_expr.func, ast.Attribute)
                                               and i.context_expr.func.attr == "iterate" for i in n.items)
               for n in nodes_of(node))


def v1_body(jit_fn):
    """The Python function a block runs: the kernel itself, or the kernel recompiled at its own file and lines
    with its ``with x.iterate()`` blocks as loops and its operators on device values as pyasc's arithmetic
    (``_v1_arith``, the operators the kind walk marked for this launch: ``frontend/v1_arith.py``)."""
    marks = jit_fn.__dict__.get("_v1_arith")
    hit = jit_fn.__dict__.get("_v1_body")
    if hit is not None and hit[0] is marks:
        return hit[1]
    bodies = jit_fn.__dict__.setdefault("_v1_bodies", {})
    key = frozenset(marks.items()) if marks else None
    fn = bodies.get(key)
    if fn is None:
        fn = jit_fn.fn
        iterate = _has_iterate(jit_fn.node)
        if iterate or marks:
            first = jit_fn.first_line - 1      # a fresh tree, at the file's lines (jit_fn.node's, ``first`` on)
            node = ast.parse("\n" * first + jit_fn.body_source).body[0]
            if iterate:
                node = _IterateLoops().visit(node)
            new = compile_body(rewrite(node, marks, first), fn, jit_fn.source_file)
            fn = fn if new is None else new
        bodies[key] = fn
    jit_fn._v1_body = (marks, fn)
    return fn

"""Runtime control flow of the tracer: ``for`` / ``while`` / ``if`` on runtime values become region ops
with explicit carried values; ``with mask(...)`` becomes a masked region.

Carried values are legal in every loop (as in pyasc): a loop without the loop-end barrier that carries a
value still runs its trips in order. A name is carried when the body re-binds it (or updates it in place
as a ``matmul_acc`` accumulator); names the body turns out not to change are dropped after tracing.
"""
from __future__ import annotations

import ast
import builtins

import numpy as np

from .syntax_nodes import nodes_of
from ..ir.core import Block, Value
from ..ir.kernel_warnings import LaunchWarning, ParallelCarryWarning
from ..ir.registry import traits
from ..ir.types import ScalarType, TileType
from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr
from ..language.core.errors import error
from ..language.core.ir_value import PlainValue, const, to_scalar
from ..language.core.range import BaseRange, static_range
from ..language.tile.indexing_ops import mask as MaskSpec
from ..language.tile.subblock_ops import CVStrategy
from ..language.tile.range import range as TileRange
from ..language.tile.tile import Tile


def _carriable(v):
    return isinstance(v, (PlainValue, Tile)) or (isinstance(v, (int, float, np.number)) and not isinstance(v, bool))


def assigned_names(nodes):
    """Names a statement list may (re)bind, including the accumulator of ``matmul_acc(a, b, acc)``."""
    names = []
    for node in nodes:
        for sub in nodes_of(node):
            targets = []
            if isinstance(sub, ast.Assign):
                targets = sub.targets
            elif isinstance(sub, (ast.AugAssign, ast.AnnAssign)):
                targets = [sub.target]
            elif isinstance(sub, ast.Call):
                f = sub.func
                fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                if fname == "matmul_acc" and len(sub.args) >= 3:
                    # April matmul_acc(a, b, acc) or August matmul_acc(acc, a, b): both are candidates;
                    # the loop keeps only the names whose value changed.
                    targets = [sub.args[0], sub.args[2]]
                for kw in sub.keywords:
                    if fname == "matmul_acc" and kw.arg == "acc":
                        targets = [kw.value]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and n.id not in names:
                        names.append(n.id)
    return names


class Return(Exception):
    """A ``return`` statement unwinding the visitor (carries the returned value)."""
    def __init__(self, value):
        self.value = value



class ControlFlowMixin:
    """The statements of ``FunctionVisitor`` that open regions (mixed into it)."""

    def stmt_For(self, node):
        if node.orelse:
            raise error(RuntimeError, "else statement is not allowed after for-loop",
                        "move the else-block after the loop")
        if not isinstance(node.target, ast.Name):  # August names the visited target's type (tuple), April the node's
            got = type(node.target).__name__.lower() if self.dialect.august else type(node.target)
            raise error(RuntimeError, f"For-loop target must be an identifier, got {got}",
                        "loop over one index (for i in @range(n)) and compute the other values from it")
        it = node.iter
        bad = error(RuntimeError, "Only for-loops with range or asc.language.range or asc.language.static_range "
                    "are supported", "iterate over @range(...) (runtime) or asc.static_range(...) (unrolled)")
        if not isinstance(it, ast.Call):
            raise bad
        func = self.visit(it.func)
        args, kwargs = self.call_args(it)
        if func is static_range:
            for value in static_range(*args, **kwargs):
                self.scope[node.target.id] = value
                self.visit_body(node.body)
            return
        if func is builtins.range:
            rng = BaseRange(*args)
            if kwargs:
                raise error(TypeError, f"range() got unexpected keyword arguments {sorted(kwargs)}",
                            "use @range(..., unroll_factor=2)")
        elif isinstance(func, type) and issubclass(func, BaseRange):
            rng = func(*args, **kwargs)
        else:
            raise bad
        if isinstance(rng, TileRange):
            self._check_barrier_spelling(rng, node)
        self._runtime_for(node, rng)

    def _check_barrier_spelling(self, rng, node):
        """A kernel spells the loop-end barrier one way: ``parallel=`` (April) or ``gm_barrier=`` (August)."""
        used = self.builder.barrier_keywords
        for kw, value in (("parallel", rng.explicit_parallel), ("gm_barrier", rng.explicit_gm_barrier)):
            if value is not None:
                used.setdefault(kw, self.loc(node).line)
        if len(used) > 1:
            other = min(used, key=used.get)
            raise error(RuntimeError, f"a kernel may not mix parallel= and gm_barrier=: '{other}' is used at line "
                        f"{used[other]}", "use gm_barrier= (True keeps the loop-end global-memory barrier) in "
                        "every loop, or parallel= (True removes it) in every loop")

    def stmt_While(self, node):
        if self.dialect.august:  # pyasc-dev's asctile front end has no while loop
            self.fail(node, "'while' statement is not supported in JIT function", syntax=True,
                      hint="use for i in range(...) with a trip count computed up front")
        if node.orelse:
            raise error(RuntimeError, "else statement is not allowed after while-loop",
                        "move the else-block after the loop")
        self._runtime_while(node)

    def stmt_With(self, node):
        if len(node.items) != 1:
            raise error(RuntimeError, "Only one item in with-statement is supported",
                        "nest the with-statements, one @mask(...) each")
        item = node.items[0]
        ctx = self.visit(item.context_expr)
        if isinstance(ctx, CVStrategy):  # a work split between vector sub-blocks: the body runs as written
            if item.optional_vars is not None:
                raise error(RuntimeError, "@cv_strategy(...) does not bind a name: write `with @cv_strategy(...):`",
                            "drop the `as` clause")
            self.visit_body(node.body)
            return
        if not isinstance(ctx, MaskSpec):
            raise error(RuntimeError, f"with-statement needs @mask(...), got {type(ctx)}",
                        "the only context manager in kernels is @mask(count=... or bits=...)")
        if item.optional_vars is not None:
            raise error(RuntimeError, "@mask(...) does not bind a name: write `with @mask(...):`",
                        "drop the `as` clause")
        operands, attrs = ctx.operands()
        region = Block()
        saved = dict(self.scope)
        returned = None
        with self.builder.insert_into(region):
            try:
                self.visit_body(node.body)
            except Return as r:  # a return inside the block ends the kernel after the masked region
                returned = r
        self.scope = saved  # names bound inside the with-block do not survive it (as in pyasc)
        self.builder.loc = self.loc(node)
        self.builder.create("mask.region", operands, [], attrs, [region])
        if returned is not None:
            raise returned

    # -- runtime control flow ---------------------------------------------------------------------
    def _carried(self, stmts):
        out = []
        for name in assigned_names(stmts):
            if name in self.scope:
                v = self.scope[name]
                if not _carriable(v):
                    continue
                out.append(name)
        return out

    @staticmethod
    def _materialize(v):
        if isinstance(v, (PlainValue, Tile)):
            return v
        if isinstance(v, (int, np.integer)):
            return const(int(v), dt.int32)
        return const(float(v), dt.float32)

    @staticmethod
    def _wrap_value(handle):
        return Tile(handle) if isinstance(handle.type, TileType) else PlainValue(handle)

    def _yield_values(self, names, originals, inits, node, what, entry=None):
        """The values a region yields for the carried ``names``; ``entry`` are the objects the names were
        bound to when the region started (a name still bound to it was not re-assigned in this region)."""
        vals = []
        entry = inits if entry is None else entry
        for name, orig, init, start in zip(names, originals, inits, entry):
            new = self.scope.get(name, init)
            if new is not start and type(new) is not type(orig):
                raise error(RuntimeError, f"'{name}' was re-assigned to an object with different type: initial type "
                            f"is {type(orig).__name__}, new type is {type(new).__name__}",
                            _carry_hint(name, orig, new))
            new = self._materialize(new)
            if new.handle.type != init.handle.type:
                raise error(RuntimeError, f"'{name}' changes type inside the {what}: {init.handle.type} before, "
                            f"{new.handle.type} after",
                            "a value carried through a loop or branch must keep its dtype, shape and location; "
                            "convert it with .to() / cast")
            vals.append(new.handle)
        return vals

    def _runtime_for(self, node, rng):
        bounds = []
        for b in (rng.start, rng.stop, rng.step):
            if isinstance(b, PlainValue) and not b.dtype.is_int():
                raise error(RuntimeError, f"Loop bounds must be integers, got {b.dtype}",
                            "compute the trip count as an int, e.g. asc.ceildiv(n, TILE)")
            bounds.append(to_scalar(b, dt.int32))
        parallel = not rng.barrier(self.dialect.august) if isinstance(rng, TileRange) else False
        names = [n for n in self._carried(node.body) if n != node.target.id]
        originals = [self.scope[n] for n in names]
        inits = [self._materialize(v) for v in originals]
        body = Block()
        iv_val = Value(ScalarType(dt.int32), self.loc(node.target), body)
        body.args.append(iv_val)
        outer = self.scope
        self.scope = dict(outer)
        self.scope[node.target.id] = PlainValue(iv_val)
        entry = []
        for n, init in zip(names, inits):
            arg = Value(init.handle.type, self.loc(node), body)
            self.builder.carried_init[arg.id] = init.handle
            body.args.append(arg)
            self.scope[n] = self._wrap_value(arg)
            entry.append(self.scope[n])
        self.runtime_depth += 1
        try:
            with self.builder.insert_into(body):
                self.visit_body(node.body)
                self.builder.loc = self.loc(node)
                yields = self._yield_values(names, originals, inits, node, "loop", entry)
        finally:
            self.runtime_depth -= 1
            self.scope = outer
        # Names the body never re-bound (candidates such as a matmul_acc operand) are not carried.
        args = body.args[1:]
        kept = [i for i, (y, a) in enumerate(zip(yields, args)) if y is not a]
        dropped = {args[i]: inits[i].handle for i in range(len(args)) if i not in kept}
        if dropped:
            for op in body.walk():
                op.operands = [dropped.get(o, o) for o in op.operands]
        yields = [dropped.get(yields[i], yields[i]) for i in kept]
        names = [names[i] for i in kept]
        inits = [inits[i] for i in kept]
        body.args = [iv_val] + [args[i] for i in kept]
        with self.builder.insert_into(body):
            self.builder.loc = self.loc(node)
            self.builder.create("scf.yield", yields)
        if parallel and names and rng.explicit_parallel:
            self._warn_parallel_carry(node, names, yields)
        has_dma = any(traits(op.name).dma for op in body.walk())
        self.builder.loc = self.loc(node)
        op = self.builder.create("scf.for", [b.handle for b in bounds] + [i.handle for i in inits],
                                 [i.handle.type for i in inits],
                                 {"unroll_factor": rng.unroll_factor, "parallel": parallel, "has_dma": has_dma},
                                 [body])
        for n, r in zip(names, op.results):
            self.scope[n] = self._wrap_value(r)

    def _warn_parallel_carry(self, node, names, yields):
        """April ``parallel=True`` loops carrying a scalar or tile (not an in-place matmul accumulator)
        are legal (pyasc accepts them) but were seen to give wrong results on the CANN simulator."""
        line = self.loc(node).line
        for n, y in zip(names, yields):
            if traits(getattr(y.owner, "name", "")).accumulator:  # an in-place cube accumulator
                continue
            text = (f"loop with parallel=True carries '{n}' from one iteration to the next; "
                    f"pyasc accepts this, but such loops were seen to give wrong results on the CANN simulator. "
                    f"Fix: drop parallel=True from this loop (keep it on loops whose iterations are independent)")
            msg = LaunchWarning(f"{self.file}:{line}: {text}", ParallelCarryWarning, self.file, line, text)
            if msg not in self.builder.warnings:
                self.builder.warnings.append(msg)

    def _runtime_if(self, node, cond):
        names = self._carried(node.body + node.orelse)
        originals = [self.scope[n] for n in names]
        inits = [self._materialize(v) for v in originals]
        outer = self.scope
        regions = []
        self.runtime_depth += 1
        try:
            for stmts in (node.body, node.orelse):
                block = Block()
                self.scope = dict(outer)
                for n, init in zip(names, inits):
                    self.scope[n] = init
                with self.builder.insert_into(block):
                    self.visit_body(stmts)
                    self.builder.loc = self.loc(node)
                    self.builder.create("scf.yield", self._yield_values(names, originals, inits, node, "if-statement"))
                regions.append(block)
        finally:
            self.runtime_depth -= 1
            self.scope = outer
        self.builder.loc = self.loc(node)
        op = self.builder.create("scf.if", [cond.cast(dt.int1).handle], [i.handle.type for i in inits], {}, regions)
        for n, r in zip(names, op.results):
            self.scope[n] = self._wrap_value(r)

    def _runtime_ifexp(self, node, cond):
        """``a if cond else b`` with a runtime condition in an August kernel, tiles or scalars: an scf.if whose
        regions each evaluate one branch and yield it, so only the taken branch runs (pyasc-dev's visit_IfExp)."""
        regions, values = [], []
        self.runtime_depth += 1
        try:
            for expr in (node.body, node.orelse):
                block = Block()
                with self.builder.insert_into(block):
                    value = self._materialize(ConstExpr.unwrap(self.visit(expr)))
                    self.builder.loc = self.loc(node)
                    self.builder.create("scf.yield", [value.handle])
                regions.append(block)
                values.append(value)
        finally:
            self.runtime_depth -= 1
        then_type, else_type = values[0].handle.type, values[1].handle.type
        if then_type != else_type:
            raise error(RuntimeError, f"Conditional operator has inconsistent result types: {then_type} / {else_type}",
                        "give both branches the same dtype, shape and location (convert one with .to())")
        self.builder.loc = self.loc(node)
        op = self.builder.create("scf.if", [cond.cast(dt.int1).handle], [then_type], {}, regions)
        return self._wrap_value(op.results[0])

    def _runtime_while(self, node):
        names = self._carried(node.body)
        originals = [self.scope[n] for n in names]
        inits = [self._materialize(v) for v in originals]
        outer = self.scope
        before, after = Block(), Block()
        self.runtime_depth += 1
        try:
            for block in (before, after):
                for init in inits:
                    block.args.append(Value(init.handle.type, self.loc(node), block))
            self.scope = dict(outer)
            for n, a in zip(names, before.args):
                self.scope[n] = self._wrap_value(a)
            with self.builder.insert_into(before):
                cond = self.visit(node.test)
                if not isinstance(cond, PlainValue):
                    raise error(RuntimeError, f"Condition expression must be evaluated as PlainValue, got {type(cond)}",
                                "a while loop needs a runtime condition; use asc.static_range for a compile-time loop")
                self.builder.loc = self.loc(node)
                self.builder.create("scf.condition", [cond.cast(dt.int1).handle] + list(before.args))
            self.scope = dict(outer)
            entry = []
            for n, a in zip(names, after.args):
                self.scope[n] = self._wrap_value(a)
                entry.append(self.scope[n])
            with self.builder.insert_into(after):
                self.visit_body(node.body)
                self.builder.loc = self.loc(node)
                self.builder.create("scf.yield", self._yield_values(names, originals, inits, node, "while-loop", entry))
        finally:
            self.runtime_depth -= 1
            self.scope = outer
        self.builder.loc = self.loc(node)
        op = self.builder.create("scf.while", [i.handle for i in inits], [i.handle.type for i in inits], {},
                                 [before, after])
        for n, r in zip(names, op.results):
            self.scope[n] = self._wrap_value(r)

    # -- expressions ------------------------------------------------------------------------------

def _carry_hint(name, orig, new):
    if isinstance(orig, (int, float)) and isinstance(new, PlainValue):
        return (f"initialise '{name}' as a runtime scalar before the loop, e.g. {name} = "
                f"@reduce_sum(@full([1, 64], 0.0, dtype=asc.float32)) or asc.number(0.0, asc.float32)")
    return f"keep '{name}' the same kind of value (scalar, tile or number) in every iteration and branch"



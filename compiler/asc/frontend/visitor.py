"""Traces a Python kernel into the tile IR.

The supported subset and its error messages follow pyasc's AST visitor: runtime ``for`` / ``while`` /
``if`` become region ops with explicit carried values, compile-time ``if`` and ``static_range`` are
evaluated while tracing, and every error points at the user's line with a fix hint.
"""
from __future__ import annotations

import ast
import builtins
import inspect
import operator
import types

import numpy as np

from ..ir.builder import current_builder
from ..ir.core import Block, SourceLoc, Value
from ..ir.types import PtrType, ScalarType, TileType
from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr
from ..language.core.errors import error, not_supported
from ..language.core.ir_value import GlobalAddress, PlainValue, const, to_scalar
from ..language.core.range import BaseRange, static_range
from ..language.dialect import AUGUST
from ..language.tile.range import asctile_range, range as TileRange
from .generation import kernel_dialect
from ..language.tile.creation_ops import full_like
from ..language.tile.indexing_ops import mask as MaskSpec
from ..language.tile.tile import Tile
from .errors import CodegenError, UnsupportedSyntaxError

DEFAULT_BUILTINS = {n: getattr(builtins, n) for n in
                    ("dict", "float", "int", "isinstance", "issubclass", "len", "list", "range", "repr", "str",
                     "tuple", "type")}

_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
           ast.Mod: "mod", ast.Pow: "pow", ast.LShift: "lshift", ast.RShift: "rshift", ast.BitOr: "or",
           ast.BitXor: "xor", ast.BitAnd: "and", ast.MatMult: "matmul"}
_REFLECTED = ("add", "sub", "mul", "truediv")  # scalar-first operators of August tiles
_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
           "lshift": "<<", "rshift": ">>", "or": "|", "xor": "^", "and": "&", "matmul": "@"}
_CMPOPS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_PYCMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
          "ge": operator.ge}
_SYNTAX_HINTS = {
    "Break": "asc2 loops cannot exit early: restructure the loop (compute the trip count up front)",
    "Continue": "wrap the rest of the loop body in an `if` instead",
    "Raise": "use `assert condition, message` on compile-time values",
    "Try": "remove the try block; errors are reported at trace time",
    "Lambda": "define a module-level function decorated with @asc2.jit and call it",
    "ListComp": "write an explicit loop, or build the list on the host and pass it as asc.ConstExpr",
    "Import": "import modules at the top of the file, outside the kernel",
    "ImportFrom": "import modules at the top of the file, outside the kernel",
    "SetComp": "write an explicit loop, or build the values on the host and pass them as asc.ConstExpr",
    "DictComp": "write an explicit loop, or build the dict on the host and pass it as asc.ConstExpr",
    "GeneratorExp": "write an explicit loop, or build the values on the host and pass them as asc.ConstExpr",
    "Dict": "build the dict on the host and pass it as asc.ConstExpr",
    "Set": "use a tuple, or build the set on the host and pass it as asc.ConstExpr",
    "Global": "read module-level constants directly; kernels cannot rebind globals",
    "Nonlocal": "kernels cannot rebind outer names: pass values as arguments",
    "Delete": "names cannot be deleted in kernels; just stop using the value",
    "NamedExpr": "assign in a separate statement before the expression",
    "Yield": "kernels write results with asc2.store; helpers return a value with return",
    "Match": "use if / elif on compile-time values",
    "AsyncFor": "use a plain for-loop over asc2.range",
    "AsyncWith": "use `with asc2.mask(...)`",
    "Await": "kernels are not coroutines: call operations directly",
}


def _is_ir(v):
    return isinstance(v, (PlainValue, Tile, GlobalAddress))


def _carriable(v):
    return isinstance(v, (PlainValue, Tile)) or (isinstance(v, (int, float, np.number)) and not isinstance(v, bool))


def _assigned_names(nodes):
    """Names a statement list may (re)bind, including the accumulator of ``matmul_acc(a, b, acc)``."""
    names = []
    for node in nodes:
        for sub in ast.walk(node):
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


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class FunctionVisitor:
    def __init__(self, jit_fn, builder, options, constexprs, nested_call=False, caller_dialect=None):
        self.fn = jit_fn
        self.builder = builder
        self.options = options
        self.file = jit_fn.source_file
        self.line0 = jit_fn.first_line - 1
        self.col0 = jit_fn.indent
        self.globals = jit_fn.fn.__globals__
        self.constexprs = constexprs
        self.builtins = dict(DEFAULT_BUILTINS)
        self.builtins.update(options.custom_builtins or {})
        forced = AUGUST if self.builtins.get("range") is asctile_range else None
        self.dialect = kernel_dialect(jit_fn.node, self.globals, forced)
        if caller_dialect is not None and caller_dialect.august and not self.dialect.august:
            self.dialect = caller_dialect
        self.scope = {}
        self.runtime_depth = 0
        self.nested_call = nested_call

    # -- locations and errors ---------------------------------------------------------------------
    def loc(self, node):
        return SourceLoc(self.file, self.line0 + getattr(node, "lineno", 1), self.col0 + getattr(node, "col_offset", 0))

    def fail(self, node, message, exc_type=RuntimeError, hint=None, syntax=False):
        loc = self.loc(node)
        cls = UnsupportedSyntaxError if syntax else CodegenError
        raise cls(message, loc.file, loc.line, loc.col, None if syntax else exc_type(message),
                  self.dialect.localise(hint))

    def _wrap(self, node, exc):
        if isinstance(exc, (CodegenError, _Return)):
            return exc
        if not self.options.capture_exceptions:
            return exc
        loc = self.loc(node)
        hint = getattr(exc, "hint", None)
        msg = str(exc) if not isinstance(exc, KeyError) else str(exc.args[0]) if exc.args else str(exc)
        if isinstance(exc, AttributeError) and "__r" in msg and "Tile" in msg:
            hint = hint or "asc2 tiles have no reflected operators: put the tile on the left, e.g. x * 2 instead of 2 * x"
        return CodegenError(msg, loc.file, loc.line, loc.col, exc, self.dialect.localise(hint))

    # -- entry points -----------------------------------------------------------------------------
    def run_body(self, body):
        try:
            self.visit_body(body)
        except _Return as r:
            return r.value
        return None

    def visit_body(self, stmts):
        for stmt in stmts:
            self.visit_stmt(stmt)

    def visit_stmt(self, node):
        self.builder.loc = self.loc(node)
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            name = type(node).__name__
            self.fail(node, f"{name} syntax is not supported in JIT function", hint=_SYNTAX_HINTS.get(name), syntax=True)
        try:
            method(node)
        except Exception as e:  # noqa: BLE001 - every failure is reported at the user's line
            raise self._wrap(node, e) from (None if self.options.capture_exceptions else e)

    def visit(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            name = type(node).__name__
            self.fail(node, f"{name} syntax is not supported in JIT function", hint=_SYNTAX_HINTS.get(name), syntax=True)
        saved = self.builder.loc
        self.builder.loc = self.loc(node)
        try:
            return method(node)
        except Exception as e:  # noqa: BLE001
            wrapped = self._wrap(node, e)
            if wrapped is e:
                raise
            raise wrapped from None
        finally:
            self.builder.loc = saved

    # -- names ------------------------------------------------------------------------------------
    def lookup(self, name, node):
        if name in self.scope:
            return self.scope[name]
        if name in self.constexprs:
            return self.constexprs[name]
        if name in self.globals:
            v = self.globals[name]
            self._check_global(v, node)
            return ConstExpr.unwrap(v)
        if name in self.builtins:
            return self.builtins[name]
        hint = None
        if name == "print":
            hint = "print is not available in kernels; use `assert cond, f\"...\"` on compile-time values to debug"
        elif name == "bool":
            hint = "pyasc kernels have no bool builtin: compare explicitly (e.g. n != 0) or compute it on the host"
        elif name in ("abs", "min", "max", "sum", "zip", "enumerate", "pow", "round"):
            hint = f"the builtin {name} is not available in kernels; use the asc2 function (e.g. asc2.{ {'abs': 'abs', 'min': 'minimum', 'max': 'maximum', 'sum': 'reduce_sum'}.get(name, name)})"
        raise error(NameError, f"{name} is not defined", hint)

    def _check_global(self, v, node):
        from ..runtime.jit import JITFunction
        if isinstance(v, (JITFunction, ConstExpr, type, types.ModuleType)) or not callable(v):
            return
        mod = getattr(v, "__module__", "") or ""
        if mod.startswith(("asc.language", "asc.experimental", "typing", "asc2")):
            return
        raise error(RuntimeError, f"Unsupported function referenced: {v}",
                    "kernels may only call asc / asc2 functions and @asc2.jit functions: compute the value on "
                    "the host (a module-level constant or a ConstExpr argument) or decorate the helper with @asc2.jit")

    def assign(self, target, value, node):
        if isinstance(target, ast.Name):
            self.scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            try:
                values = list(value)
            except TypeError:
                raise error(RuntimeError, f"cannot unpack {type(value)} into {len(target.elts)} names",
                            "only tuples, lists and shapes can be unpacked") from None
            if len(values) != len(target.elts):
                raise error(RuntimeError, "Assignment operator must have equal number of names and values, "
                            f"got {len(target.elts)} names and {len(values)} values",
                            "use as many names on the left as values on the right")
            for t, v in zip(target.elts, values):
                if not isinstance(t, ast.Name):
                    raise error(RuntimeError, "Assignment target must be name or tuple of names",
                                "assign to plain names, e.g. a, b = t")
                self.scope[t.id] = v
        elif isinstance(target, ast.Subscript):
            obj = self.visit(target.value)
            obj[self.visit(target.slice)] = value
        elif isinstance(target, ast.Attribute):
            setattr(self.visit(target.value), target.attr, value)
        else:
            raise error(RuntimeError, "Assignment target must be name or tuple of names",
                        "assign to plain names, e.g. a, b = t")

    # -- statements -------------------------------------------------------------------------------
    def stmt_Expr(self, node):
        self.visit(node.value)

    def stmt_Pass(self, node):
        pass

    def stmt_Assign(self, node):
        if len(node.targets) != 1:
            raise error(RuntimeError, "Assignment operator must have exactly one target",
                        "assign one name per statement: a = v; b = a")
        self.assign(node.targets[0], self.visit(node.value), node)

    def stmt_AnnAssign(self, node):
        if node.value is not None:
            self.assign(node.target, self.visit(node.value), node)

    def stmt_AugAssign(self, node):
        if not isinstance(node.target, (ast.Name, ast.Subscript)):
            raise error(RuntimeError, f"{type(node.target)} is not supported as left operand of AugAssign",
                        "write the update out: x = x + v (names and subscripts support +=)")
        load = ast.copy_location(type(node.target)(**{**{f: getattr(node.target, f) for f in node.target._fields},
                                                       "ctx": ast.Load()}), node.target)
        value = self.binop(self.visit(load), self.visit(node.value), _BINOPS[type(node.op)])
        self.assign(node.target, value, node)

    def stmt_FunctionDef(self, node):
        raise error(RuntimeError, "Nested functions are not supported",
                    "move the helper to module level and decorate it with @asc2.jit")

    def stmt_Assert(self, node):
        cond = self.visit(node.test)
        if _is_ir(cond):
            raise error(RuntimeError, f"An assertion turned out to test a runtime value {cond!r}, only "
                        "compile-time values are supported",
                        "assert on ConstExpr parameters or shapes; runtime values cannot be checked at trace time")
        if not cond:
            if node.msg is not None:
                raise AssertionError(self.visit(node.msg))
            raise ValueError("miss message")

    def stmt_Return(self, node):
        if self.runtime_depth:
            raise error(RuntimeError, "Return statement is not allowed in nested blocks",
                        "assign the result to a variable before the loop / branch and return it at the end")
        value = self.visit(node.value) if node.value is not None else None
        if value is not None and not self.nested_call:
            raise error(RuntimeError, "JIT kernel function cannot return objects",
                        "kernels write results with asc2.store; only @asc2.jit helpers called from a kernel return values")
        raise _Return(value)

    def stmt_If(self, node):
        cond = self.visit(node.test)
        if isinstance(cond, ConstExpr):
            cond = cond.value
        if not _is_ir(cond):
            if isinstance(cond, (bool, int, float, type(None), np.bool_, np.number, str, tuple, list)):
                self.visit_body(node.body if cond else node.orelse)
                return
        if not isinstance(cond, PlainValue):
            raise error(RuntimeError, f"Condition expression must be evaluated as PlainValue, got {type(cond)}",
                        "branch on a scalar, e.g. `if asc2.reduce_max(t) > 0:`; select tile elements with asc2.where")
        self._runtime_if(node, cond)

    def stmt_For(self, node):
        if node.orelse:
            raise error(RuntimeError, "else statement is not allowed after for-loop",
                        "move the else-block after the loop")
        if not isinstance(node.target, ast.Name):
            raise error(RuntimeError, f"For-loop target must be an identifier, got {type(node.target)}",
                        "loop over one index (for i in asc2.range(n)) and compute the other values from it")
        it = node.iter
        bad = error(RuntimeError, "Only for-loops with range or asc.language.range or asc.language.static_range "
                    "are supported", "iterate over asc2.range(...) (runtime) or asc.static_range(...) (unrolled)")
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
                        "nest the with-statements, one asc2.mask(...) each")
        item = node.items[0]
        ctx = self.visit(item.context_expr)
        if not isinstance(ctx, MaskSpec):
            raise error(RuntimeError, f"with-statement needs asc2.mask(...), got {type(ctx)}",
                        "the only context manager in kernels is asc2.mask(count=... or bits=...)")
        if item.optional_vars is not None:
            raise error(RuntimeError, "asc2.mask(...) does not bind a name: write `with asc2.mask(...):`",
                        "drop the `as` clause")
        operands, attrs = ctx.operands()
        region = Block()
        saved = dict(self.scope)
        returned = None
        with self.builder.insert_into(region):
            try:
                self.visit_body(node.body)
            except _Return as r:  # a return inside the block ends the kernel after the masked region
                returned = r
        self.scope = saved  # names bound inside the with-block do not survive it (as in pyasc)
        self.builder.loc = self.loc(node)
        self.builder.create("mask.region", operands, [], attrs, [region])
        if returned is not None:
            raise returned

    # -- runtime control flow ---------------------------------------------------------------------
    def _carried(self, stmts):
        out = []
        for name in _assigned_names(stmts):
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
        has_dma = any(op.name in ("tile.load", "tile.store") for op in body.walk())
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
            if getattr(y.owner, "name", None) == "tile.matmul_acc":
                continue
            msg = (f"{self.file}:{line}: loop with parallel=True carries '{n}' from one iteration to the next; "
                   f"pyasc accepts this, but such loops were seen to give wrong results on the CANN simulator. "
                   f"Fix: drop parallel=True from this loop (keep it on loops whose iterations are independent)")
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
    def expr_Constant(self, node):
        return node.value

    def expr_Name(self, node):
        return self.lookup(node.id, node)

    def expr_Attribute(self, node):
        base = self.visit(node.value)
        v = getattr(base, node.attr)
        if isinstance(base, types.ModuleType):
            self._check_global(v, node)
        return v

    def expr_Tuple(self, node):
        return tuple(self._elts(node.elts))

    def expr_List(self, node):
        return list(self._elts(node.elts))

    def _elts(self, elts):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                out.extend(self.visit(e.value))
            else:
                out.append(self.visit(e))
        return out

    def expr_Slice(self, node):
        return slice(*(self.visit(x) if x is not None else None for x in (node.lower, node.upper, node.step)))

    def expr_Subscript(self, node):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        if isinstance(value, Tile):
            raise error(TypeError, "'Tile' object is not subscriptable",
                        "tiles cannot be indexed; use asc2.load with offsets, reductions or asc2.where")
        return value[index]

    def expr_JoinedStr(self, node):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append(self.visit(v))
        return "".join(parts)

    def expr_FormattedValue(self, node):
        value = self.visit(node.value)
        conv = {-1: lambda x: x, 115: str, 114: repr, 97: ascii}[node.conversion]
        spec = self.visit(node.format_spec) if node.format_spec is not None else ""
        return format(conv(value), spec)

    def expr_BinOp(self, node):
        return self.binop(self.visit(node.left), self.visit(node.right), _BINOPS[type(node.op)])

    def _reflected(self, scalar, tile, name):
        """August tiles have reflected operators (April ones do not): ``2 * x`` is ``x * 2``; ``2 - x`` and
        ``2 / x`` are computed as ``full_like(x, 2) - x`` and ``full_like(x, 2) / x``."""
        if name in ("add", "mul"):
            return self.binop(tile, scalar, name)
        return self.binop(full_like(tile, scalar), tile, name)

    def binop(self, lhs, rhs, name):
        lhs, rhs = ConstExpr.unwrap(lhs), ConstExpr.unwrap(rhs)
        if name == "pow" and isinstance(lhs, Tile):
            raise error(TypeError, "unsupported operand type(s) for ** on a Tile",
                        "asc2 tiles have no power operator: write x * x, or asc2.exp(asc2.log(x) * p)")
        if name in ("mod", "and", "or", "xor") and isinstance(lhs, Tile):
            raise error(TypeError, f"unsupported operand type(s) for {_SYMBOL[name]} on a Tile",
                        "asc2 tiles support + - * / // << >> @ and comparisons only")
        if (self.dialect.august and isinstance(rhs, Tile) and not isinstance(lhs, Tile) and name in _REFLECTED
                and getattr(type(rhs), f"__r{name}__", None) is None):
            return self._reflected(lhs, rhs, name)
        if not _is_ir(lhs) and _is_ir(rhs):
            method = getattr(type(rhs), f"__r{name}__", None)
            if method is None:
                raise AttributeError(f"'{type(rhs).__name__}' object has no attribute '__r{name}__'")
            out = method(rhs, lhs)
            if out is NotImplemented:
                raise error(TypeError, f"unsupported operand type(s) for {_SYMBOL[name]}: {type(lhs)} and {type(rhs)}",
                            "tile operators take a tile on the left and a tile or a number on the right")
            return out
        if _is_ir(lhs):
            method = getattr(type(lhs), f"__{name}__", None)
            out = method(lhs, rhs) if method is not None else NotImplemented
            if out is NotImplemented and _is_ir(rhs):
                r = getattr(type(rhs), f"__r{name}__", None)
                out = r(rhs, lhs) if r is not None else NotImplemented
            if out is NotImplemented:
                raise error(TypeError, f"unsupported operand type(s) for {_SYMBOL[name]}: {type(lhs)} and {type(rhs)}",
                            "tile operators take a tile on the left and a tile or a number on the right")
            return out
        return getattr(operator, {"truediv": "truediv", "matmul": "matmul"}.get(name, name + "_")
                       if name in ("and", "or") else name)(lhs, rhs)

    def expr_UnaryOp(self, node):
        v = ConstExpr.unwrap(self.visit(node.operand))
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
        if isinstance(node.op, ast.Not):
            if isinstance(v, PlainValue):
                return v == 0
            if isinstance(v, Tile):
                raise error(TypeError, "`not` cannot be applied to a tile", "compare explicitly, e.g. x == 0")
            return not v
        if isinstance(v, Tile):
            raise error(TypeError, "bad operand type for unary ~: 'Tile'",
                        "tiles have no bitwise operators; use comparisons and asc2.where")
        return ~v

    def expr_Compare(self, node):
        if len(node.ops) != 1 or len(node.comparators) != 1:
            raise error(RuntimeError, "Only simple comparison is supported (one operation, one comparator)",
                        "split a chained comparison: (a < b) and (b < c) becomes two nested ifs")
        lhs = ConstExpr.unwrap(self.visit(node.left))
        rhs = ConstExpr.unwrap(self.visit(node.comparators[0]))
        op = node.ops[0]
        if isinstance(op, ast.Is):
            return lhs is rhs
        if isinstance(op, ast.IsNot):
            return lhs is not rhs
        if isinstance(op, ast.In):
            return lhs in rhs
        if isinstance(op, ast.NotIn):
            return lhs not in rhs
        name = _CMPOPS[type(op)]
        if not _is_ir(lhs) and _is_ir(rhs):
            method = getattr(type(rhs), f"__r{name}__", None)
            if method is None:
                raise AttributeError(f"'{type(rhs).__name__}' object has no attribute '__r{name}__'")
            return method(rhs, lhs)
        if _is_ir(lhs):
            out = getattr(type(lhs), f"__{name}__")(lhs, rhs)
            if out is NotImplemented:
                raise error(TypeError, f"unsupported comparison between {type(lhs)} and {type(rhs)}",
                            "compare a tile with a tile or a number, and put the tile on the left")
            return out
        return _PYCMP[name](lhs, rhs)

    def expr_BoolOp(self, node):
        if len(node.values) != 2:
            raise error(RuntimeError, "Chained boolean operators are not supported, group pairs with parentheses",
                        "write (a and b) and c")
        a, b = (ConstExpr.unwrap(self.visit(v)) for v in node.values)
        fn = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        if isinstance(a, PlainValue):
            return getattr(a, fn)(b)
        if isinstance(b, PlainValue):
            return getattr(b, fn)(a)
        raise not_supported(f"`{'and' if fn == 'logical_and' else 'or'}` between two compile-time values",
                            "combine compile-time conditions on the host, or nest two `if` statements")

    def expr_IfExp(self, node):
        cond = ConstExpr.unwrap(self.visit(node.test))
        a, b = ConstExpr.unwrap(self.visit(node.body)), ConstExpr.unwrap(self.visit(node.orelse))
        if isinstance(a, Tile) or isinstance(b, Tile):
            raise error(RuntimeError, f"Conditional operator must have numeric result type, got {type(a if isinstance(a, Tile) else b)}",
                        "select tile elements with asc2.where(mask, a, b)")
        a, b = self._materialize(a), self._materialize(b)
        if a.dtype != b.dtype:
            raise error(RuntimeError, f"Conditional operator has inconsistent result types: {a.dtype} / {b.dtype}",
                        "give both branches the same dtype, e.g. 1.0 instead of 1, or .cast(asc.float32)")
        c = to_scalar(cond, dt.int1)
        return PlainValue(self.builder.create("scalar.select", [c.handle, a.handle, b.handle],
                                              [ScalarType(a.dtype)]).result)

    def call_args(self, node):
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(self.visit(a.value))
            else:
                args.append(self.visit(a))
        kwargs = {}
        for kw in node.keywords:
            if kw.arg is None:
                kwargs.update(self.visit(kw.value))
            else:
                kwargs[kw.arg] = self.visit(kw.value)
        return args, kwargs

    def expr_Call(self, node):
        from ..runtime.jit import JITFunction
        func = self.visit(node.func)
        args, kwargs = self.call_args(node)
        if isinstance(func, JITFunction):
            return func.inline(self, args, kwargs, node)
        if not callable(func):
            raise error(TypeError, f"{type(func)} instance is not callable",
                        "only functions, asc / asc2 operations and @asc2.jit helpers can be called")
        return func(*args, **kwargs)

    def expr_Starred(self, node):
        raise error(RuntimeError, "starred expressions are only supported in calls and lists",
                    "unpack a tuple into names (a, b = t) or pass it as f(*t)")


def _carry_hint(name, orig, new):
    if isinstance(orig, (int, float)) and isinstance(new, PlainValue):
        return (f"initialise '{name}' as a runtime scalar before the loop, e.g. {name} = "
                f"asc2.reduce_sum(asc2.full([1, 64], 0.0, dtype=asc.float32)) or asc.number(0.0, asc.float32)")
    return f"keep '{name}' the same kind of value (scalar, tile or number) in every iteration and branch"


def signature_params(fn):
    return list(inspect.signature(fn).parameters.values())

"""Traces a Python kernel into the tile IR.

The supported subset and its error messages follow pyasc's AST visitor: compile-time ``if`` and
``static_range`` are evaluated while tracing, runtime control flow becomes region ops
(``control_flow``), calls of other ``@jit`` functions are traced inline, and every error points at the
user's line with a fix hint in the kernel's own dialect (``generation``).
"""
from __future__ import annotations

import ast
import builtins
import inspect
import operator
import types

import numpy as np

from ..ir.core import SourceLoc
from ..ir.types import ScalarType
from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr
from ..language.core.errors import error, not_supported
from ..language.core.ir_value import GlobalAddress, PlainValue, to_scalar
from ..language.dialect import AUGUST
from ..language.tile.binary_ops import check_august_scalar
from ..language.tile.creation_ops import full_like
from ..language.tile.debug_ops import device_assert, device_print
from ..language.tile.kernel_builtins import KERNEL_BUILTINS, GivenBuiltins
from ..language.tile.range import asctile_range
from ..language.tile.tile import Tile
from .control_flow import ControlFlowMixin, Return
from .device_calls import KernelFunction, bind_device_args
from .errors import CodegenError, UnsupportedSyntaxError
from .generation import kernel_dialect
from .syntax import SYNTAX_HINTS

DEFAULT_BUILTINS = {n: getattr(builtins, n) for n in
                    ("dict", "float", "int", "isinstance", "issubclass", "len", "list", "range", "repr", "str",
                     "tuple", "type")}

_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
           ast.Mod: "mod", ast.Pow: "pow", ast.LShift: "lshift", ast.RShift: "rshift", ast.BitOr: "or",
           ast.BitXor: "xor", ast.BitAnd: "and", ast.MatMult: "matmul"}
_REFLECTED = ("add", "sub", "mul", "truediv")  # scalar-first operators of August tiles
_AUGUST_OPERATORS = ("pow", "and", "or", "xor")  # tile operators of the August dialect only
_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
           "lshift": "<<", "rshift": ">>", "or": "|", "xor": "^", "and": "&", "matmul": "@"}
_CMPOPS = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_PYCMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
          "ge": operator.ge}
def _is_ir(v):
    return isinstance(v, (PlainValue, Tile, GlobalAddress))


class FunctionVisitor(ControlFlowMixin):
    def __init__(self, jit_fn, builder, options, constexprs, nested_call=False, caller_dialect=None):
        self.fn = jit_fn
        self.builder = builder
        self.options = options
        self.file = jit_fn.source_file
        self.line0 = jit_fn.first_line - 1
        self.col0 = jit_fn.indent
        self.globals = jit_fn.namespace
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
        if isinstance(exc, (CodegenError, Return)):
            return exc
        if not self.options.capture_exceptions:
            return exc
        loc = self.loc(node)
        hint = getattr(exc, "hint", None)
        msg = str(exc) if not isinstance(exc, KeyError) else str(exc.args[0]) if exc.args else str(exc)
        if isinstance(exc, AttributeError) and "__r" in msg and "Tile" in msg:
            hint = hint or "asc2 tiles have no reflected operators: put the tile on the left, e.g. x * 2 instead of 2 * x"
        return CodegenError(msg, loc.file, loc.line, loc.col, exc, hint)

    # -- entry points -----------------------------------------------------------------------------
    def inline_call(self, fn, args, kwargs):
        """Trace the device function ``fn`` into this function's IR at the call site."""
        constexprs, scope = bind_device_args(fn, args, kwargs)
        visitor = FunctionVisitor(fn, self.builder, fn.codegen_options(), constexprs, nested_call=True,
                                  caller_dialect=self.dialect)
        visitor.scope.update(scope)
        builder = self.builder
        saved, saved_dialect = builder.loc, builder.dialect
        builder.dialect = visitor.dialect
        try:
            return visitor.run_body(fn.node.body)
        finally:
            builder.loc, builder.dialect = saved, saved_dialect

    def run_body(self, body):
        try:
            self.visit_body(body)
        except Return as r:
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
            self.fail(node, f"{name} syntax is not supported in JIT function", hint=SYNTAX_HINTS.get(name), syntax=True)
        try:
            method(node)
        except Exception as e:  # noqa: BLE001 - every failure is reported at the user's line
            raise self._wrap(node, e) from (None if self.options.capture_exceptions else e)

    def visit(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            name = type(node).__name__
            self.fail(node, f"{name} syntax is not supported in JIT function", hint=SYNTAX_HINTS.get(name), syntax=True)
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
        kernel_builtins = self.dialect.august and not isinstance(self.options.custom_builtins, GivenBuiltins)
        if name in KERNEL_BUILTINS and kernel_builtins:   # pyasc-dev's asctile custom builtins
            return KERNEL_BUILTINS[name]
        hint = None
        if name == "print" and kernel_builtins:  # pyasc-dev: print() in a kernel is device_print
            return device_print
        if name == "print":
            hint = "print is not available in kernels; use `assert cond, f\"...\"` on compile-time values to debug"
        elif name == "bool":
            hint = "pyasc kernels have no bool builtin: compare explicitly (e.g. n != 0) or compute it on the host"
        elif name in ("abs", "min", "max", "sum", "zip", "enumerate", "pow", "round"):
            hint = f"the builtin {name} is not available in kernels; use the tile function (e.g. @{ {'abs': 'abs', 'min': 'minimum', 'max': 'maximum', 'sum': 'reduce_sum'}.get(name, name)})"
        raise error(NameError, f"{name} is not defined", hint)

    def _check_global(self, v, node):
        if isinstance(v, (KernelFunction, ConstExpr, type, types.ModuleType)) or not callable(v):
            return
        if self.dialect.august:  # pyasc-dev's visit_Call calls any callable with the traced values
            return
        mod = getattr(v, "__module__", "") or ""
        if mod.startswith(("asc.language", "asc.experimental", "typing", "asc2")):
            return
        raise error(RuntimeError, f"Unsupported function referenced: {v}",
                    "kernels may only call asc / asc2 functions and @@jit functions: compute the value on "
                    "the host (a module-level constant or a ConstExpr argument) or decorate the helper with @@jit")

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
                    "move the helper to module level and decorate it with @@jit")

    def stmt_Assert(self, node):
        cond = self.visit(node.test)
        given = self.options.custom_builtins if isinstance(self.options.custom_builtins, GivenBuiltins) else None
        if self.dialect.august and (given is None or "assert" in given):
            # pyasc-dev's front end hands every assert of a kernel to its "assert" builtin: asctile's is
            # device_assert, a compile-time value too (a constant condition): checked while the kernel runs
            # with debug=True, compiled out otherwise. Without one (a custom_builtins dict lacking it) the
            # assert is Python's, at trace time, as below.
            handler = device_assert if given is None else given["assert"]
            handler(cond.value if isinstance(cond, ConstExpr) else cond,
                    self.visit(node.msg) if node.msg is not None else None)
            return
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
                        "kernels write results with @store; only @@jit helpers called from a kernel return values")
        raise Return(value)

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
                        "branch on a scalar, e.g. `if @reduce_max(t) > 0:`; select tile elements with @where")
        self._runtime_if(node, cond)

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
                        "tiles cannot be indexed; use @load with offsets, reductions or @where")
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
        if name in ("add", "mul", "and", "or", "xor"):
            return self.binop(tile, scalar, name)
        check_august_scalar(tile, scalar)
        return self.binop(full_like(tile, scalar), tile, name)

    def binop(self, lhs, rhs, name):
        lhs, rhs = ConstExpr.unwrap(lhs), ConstExpr.unwrap(rhs)
        august_ops = self.dialect.august and name in _AUGUST_OPERATORS  # pyasc-dev binds & | ^ ** on tiles
        if name == "pow" and isinstance(lhs, Tile) and not august_ops:
            raise error(TypeError, "unsupported operand type(s) for ** on a Tile",
                        "asc2 tiles have no power operator: write x * x, or @exp(@log(x) * p)")
        if name in ("mod", "and", "or", "xor") and isinstance(lhs, Tile) and not august_ops:
            raise error(TypeError, f"unsupported operand type(s) for {_SYMBOL[name]} on a Tile",
                        f"{self.dialect.module} tiles support "
                        f"{'+ - * / // ** & | ^ << >> @' if self.dialect.august else '+ - * / // << >> @'} "
                        "and comparisons only")
        if (self.dialect.august and isinstance(rhs, Tile) and not isinstance(lhs, Tile)
                and (name in _REFLECTED and getattr(type(rhs), f"__r{name}__", None) is None
                     or name in _AUGUST_OPERATORS)):
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
            if self.dialect.august:
                return ~v
            raise error(TypeError, "bad operand type for unary ~: 'Tile'",
                        "tiles have no bitwise operators; use comparisons and @where")
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
        if self.dialect.august:   # pyasc-dev: both sides evaluated, then Python's operator on their truth values
            return (bool(a) and bool(b)) if fn == "logical_and" else (bool(a) or bool(b))
        raise not_supported(f"`{'and' if fn == 'logical_and' else 'or'}` between two compile-time values",
                            "combine compile-time conditions on the host, or nest two `if` statements")

    def expr_IfExp(self, node):
        cond = ConstExpr.unwrap(self.visit(node.test))
        if not isinstance(cond, PlainValue):
            # a condition known while tracing takes one branch and leaves the other unevaluated, as in Python
            # and pyasc's front end: `input_shape[axis] if axis >= 0 else 16` stays a Python int
            return self.visit(node.body if cond else node.orelse)
        if self.dialect.august:  # pyasc-dev: an scf.if whose regions evaluate one branch each
            return self._runtime_ifexp(node, cond)
        a, b = ConstExpr.unwrap(self.visit(node.body)), ConstExpr.unwrap(self.visit(node.orelse))
        if isinstance(a, Tile) or isinstance(b, Tile):
            raise error(RuntimeError, f"Conditional operator must have numeric result type, got {type(a if isinstance(a, Tile) else b)}",
                        "select tile elements with @where(mask, a, b)")
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
        func = self.visit(node.func)
        args, kwargs = self.call_args(node)
        if isinstance(func, KernelFunction):
            return self.inline_call(func, args, kwargs)
        if not callable(func):
            raise error(TypeError, f"{type(func)} instance is not callable",
                        "only functions, asc / asc2 operations and @@jit helpers can be called")
        return func(*args, **kwargs)

    def expr_Starred(self, node):
        raise error(RuntimeError, "starred expressions are only supported in calls and lists",
                    "unpack a tuple into names (a, b = t) or pass it as f(*t)")


def signature_params(fn):
    return list(inspect.signature(fn).parameters.values())

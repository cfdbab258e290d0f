"""Operators on device values in a v1 kernel, computed as pyasc computes them.

A v1 body runs as Python, where a device value (a runtime argument, ``get_block_idx()``, ``t.get_value(i)``, a
runtime loop's index) is a Python number, so ``n / 2`` would be Python's true division. pyasc compiles it to
its scalar arithmetic (``language/core/scalar_rules.py``: ``/`` of ints truncates, ``n * 0.5`` is ``n * 0`` ...).
The kind walk (``frontend/v1_types.py``) marks each operator it finds applied to a device value; the body
then runs recompiled with those operators as calls of ``scalar_rules`` (at the kernel's own file and lines),
and every other operator, on Python numbers, stays Python's."""
from __future__ import annotations

import ast
import operator

from ..ir.kernel_warnings import LiteralConversionWarning
from ..ir.pipe_ops import current_block, user_loc
from ..language.core import scalar_rules

BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.FloorDiv: "floordiv",
          ast.Mod: "mod", ast.LShift: "lshift", ast.RShift: "rshift", ast.BitAnd: "and", ast.BitOr: "or",
          ast.BitXor: "xor"}
COMPARE = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
UNARY = {ast.USub: "neg", ast.Invert: "invert"}

_PY_BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
              "floordiv": operator.floordiv, "mod": operator.mod, "lshift": operator.lshift,
              "rshift": operator.rshift, "and": operator.and_, "or": operator.or_, "xor": operator.xor}
_PY_COMPARE = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
               "ge": operator.ge}


def node_key(node, key_type=None, first=0):
    """An operator's place in the kernel's source, lines counted from the ``def`` (the walk and the rewrite see
    different copies of it; the rewrite's is parsed at the file's lines, ``first`` lines further on)."""
    return (key_type or type(node).__name__, node.lineno - first, node.col_offset, node.end_lineno - first,
            node.end_col_offset)


_EXACT = {"add": operator.add, "sub": operator.sub, "mul": operator.mul}
_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1


def _binary(op, a, b, a_device, b_device):
    if type(a) is int and type(b) is int and op in _EXACT:
        # the common case (offset arithmetic on int32 values): the rules' result is Python's unless something
        # leaves int32, where the rules refuse the literal or wrap the result
        r = _EXACT[op](a, b)
        if _I32_MIN <= r <= _I32_MAX and _I32_MIN <= a <= _I32_MAX and _I32_MIN <= b <= _I32_MAX:
            return r
    r = scalar_rules.device_binary(op, a, b, a_device, b_device)
    if r is None:
        return _PY_BINARY[op](a, b)
    if a_device != b_device:
        _check_literal(scalar_rules.SYMBOL[op], b if a_device else a, a if a_device else b)
    return r


def _compare(op, a, b, a_device, b_device):
    r = scalar_rules.device_compare(op, a, b, a_device, b_device)
    if r is None:
        return _PY_COMPARE[op](a, b)
    if a_device != b_device:
        _check_literal(_CMP_SYMBOL[op], b if a_device else a, a if a_device else b)
    return r


_CMP_SYMBOL = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


class _At:
    """Where a warning points: the kernel line computing the value."""
    __slots__ = ("loc",)

    def __init__(self, loc):
        self.loc = loc


def _check_literal(symbol, value, device):
    """A launch warning where a float literal becomes an int (``n * 1.5`` multiplies by 1), as tile kernels get."""
    if type(value) is not float:
        return
    text = scalar_rules.lossy_literal(value, scalar_rules.value_dtype(device), symbol)
    eng = current_block()
    if text is not None and eng is not None:
        eng.launch.warn(_At(user_loc()), text + "; give the kernel the value as a float argument (or compute it on the "
                        "host) to compute in float", LiteralConversionWarning)


def _unary(op, v):
    if op == "invert":
        scalar_rules.device_invert(v)
        return ~v
    r = scalar_rules.device_negate(v)
    return -v if r is None else r


# the names the rewritten body calls them by (closure variables of the function it is compiled in)
_RUNTIME = {"_asc_binary_": _binary, "_asc_compare_": _compare, "_asc_unary_": _unary}


def _call(name, args, like):
    """A call of ``name`` at ``like``'s place (every new node located there: the body compiles without a walk
    that fills in missing locations)."""
    args = [a if isinstance(a, ast.AST) else ast.Constant(a) for a in args]
    for a in args:
        if not hasattr(a, "lineno"):
            ast.copy_location(a, like)
    return ast.copy_location(ast.Call(ast.copy_location(ast.Name(name, ast.Load()), like), args, []), like)


class _Rewrite(ast.NodeTransformer):
    def __init__(self, marks, first):
        self.marks, self.first = marks, first

    def visit_BinOp(self, node):
        self.generic_visit(node)
        m = self.marks.get(node_key(node, None, self.first))
        if m is None:
            return node
        (op, (da, db)) = m
        return _call("_asc_binary_", [op, node.left, node.right, da, db], node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        m = self.marks.get(node_key(node, None, self.first))
        if m is None:
            return node
        (op, (da, db)) = m
        return _call("_asc_compare_", [op, node.left, node.comparators[0], da, db], node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        m = self.marks.get(node_key(node, None, self.first))
        if m is None:
            return node
        return _call("_asc_unary_", [m[0], node.operand], node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        m = self.marks.get(node_key(node, "AugAssign", self.first))
        if m is None or not isinstance(node.target, ast.Name):
            return node
        (op, (da, db)) = m
        value = _call("_asc_binary_", [op, ast.copy_location(ast.Name(node.target.id, ast.Load()), node.target),
                                         node.value, da, db], node)
        return ast.copy_location(ast.Assign([node.target], value), node)


def rewrite(node, marks, first=0):
    """The kernel's ``ast.FunctionDef`` (a copy, parsed ``first`` lines further on) with its marked operators as
    calls of pyasc's arithmetic."""
    return _Rewrite(marks, first).visit(node) if marks else node


def compile_body(node, fn, source_file):
    """Compile a rewritten ``ast.FunctionDef`` of ``fn`` (parsed at its file's lines) in that file: a function with
    ``fn``'s globals, defaults and closure values (None when a closure variable is not bound yet)."""
    try:
        cells = [c.cell_contents for c in (fn.__closure__ or ())]
    except ValueError:
        return None
    node.decorator_list = []
    node.returns = None
    for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]:
        if a is not None:
            a.annotation = None      # (resolved already, by the original definition)
    names = list(_RUNTIME) + list(fn.__code__.co_freevars)
    at = lambda n: ast.copy_location(n, node)  # noqa: E731  (the wrapper's nodes, at the def)
    factory = at(ast.FunctionDef("_asc_factory_", ast.arguments([], [at(ast.arg(n)) for n in names], None, [], [],
                                                                None, []),
                                 [node, at(ast.Return(at(ast.Name(node.name, ast.Load()))))], [], None))
    mod = ast.Module([factory], type_ignores=[])
    try:
        code = compile(mod, source_file, "exec")
    except TypeError:     # a node left without a location: filled in from its parent
        code = compile(ast.fix_missing_locations(mod), source_file, "exec")
    scope = {}
    exec(code, fn.__globals__, scope)   # noqa: S102  (the kernel's own code)
    new = scope["_asc_factory_"](*_RUNTIME.values(), *cells)
    new.__defaults__, new.__kwdefaults__ = fn.__defaults__, fn.__kwdefaults__
    return new

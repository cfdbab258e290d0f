"""What pyasc's code generator refuses in a v1 kernel because of the kinds of values it holds, found before the
body runs as Python (where every device value is a Python number and both kinds look alike).

pyasc visits a kernel once with abstract values: a runtime kernel argument, a loop index of a runtime
``range`` and what ``get_block_idx()``, ``t.get_value(i)`` ... return are ``PlainValue``s (device values), Python
numbers stay Python numbers. This walk follows the same kinds through the kernel's source and its ``@jit``
helpers' (with the kinds of each call's arguments) and stops where pyasc stops:

- a name holding one kind of value re-assigned another kind inside a runtime ``if``, a runtime loop or a
  ``while`` (``compute_inout`` in pyasc's ``function_visitor.py``: each name of the enclosing scope the block
  assigns must keep its Python type, ``int`` and ``PlainValue``, ``NoneType`` and ``LocalTensor`` ... differ);
  a compile-time ``if`` (a Python condition) is unrolled there and checks nothing;
- a device value given to Python: ``int(v)``, ``float(v)``, ``len(v)``, a plain callable such as ``math.sqrt(v)``
  (pyasc calls it with a ``PlainValue``), or ``v ** k`` (``PlainValue`` has no power);
- an attribute a GlobalTensor / LocalTensor has here but not upstream (``itemsize``, ``size`` ...).

The same walk marks the operators it finds applied to a device value (``n / 2``, ``i * 0.5``, ``n < 2.5``,
``-n``): the body runs with those rewritten to pyasc's scalar arithmetic (``frontend/v1_arith.py``), the
others stay Python's.

A kind the walk cannot tell (a value of an unknown call, a branch of a compile-time ``if`` it cannot decide)
checks nothing: it refuses only what pyasc certainly refuses."""
from __future__ import annotations

import ast
import builtins
import numbers

from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from .device_calls import KernelFunction
from .errors import error_at
from .v1_arith import BINARY, COMPARE, UNARY, node_key

PV = "PlainValue"
_NUMBERS = ("int", "float", "bool")
# asc functions whose result is a device value whatever their arguments
_DEVICE_RESULTS = frozenset(("get_block_idx", "get_block_num", "get_sub_block_idx", "get_sub_block_num",
                             "get_task_ratio", "ascend_is_aic", "ascend_is_aiv", "get_system_cycle",
                             "get_program_counter"))
_DEVICE_METHODS = frozenset(("get_value", "get_size", "get_length"))
_TENSOR_MAKERS = {"GlobalTensor": "GlobalTensor", "LocalTensor": "LocalTensor", "alloc_tensor": "LocalTensor",
                  "deque": "LocalTensor", "get": "LocalTensor", "get_with_offset": "LocalTensor",
                  "reinterpret_cast": "LocalTensor"}
# attributes this engine's tensors carry that upstream's GlobalTensor / LocalTensor lack
_ENGINE_ATTRS = frozenset(("itemsize", "np_dtype", "size", "buf", "addr", "offset", "space", "owner", "region"))
# Python's conversions pyasc's name scope offers, and what each says of a PlainValue
_CONVERSIONS = {"int": ("int", "int() argument must be a string, a bytes-like object or a real number, not "
                               "'PlainValue'"),
                "float": ("float", "float() argument must be a string or a real number, not 'PlainValue'"),
                "len": ("int", "object of type 'PlainValue' has no len()")}


def _value_kind(v):
    """The kind of a Python value the kernel names (None: none the walk follows)."""
    if isinstance(v, ConstExpr):
        v = v.value
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, numbers.Integral):
        return "int"
    if isinstance(v, numbers.Real):
        return "float"
    if v is None:
        return "NoneType"
    if isinstance(v, str):
        return "str"
    return None


def parameter_kinds(jit_fn, args, kwargs):
    """({parameter: kind}, {parameter: value} of the compile-time ones) of a launch's arguments, as pyasc sees
    them: a ConstExpr (by value or annotation) is its Python value, an array a GlobalAddress, any other number
    a device value."""
    try:
        bound = jit_fn.signature.bind(*args, **kwargs)
    except TypeError:
        return None       # (the launch reports it)
    kinds, values = {}, {}
    for name, p in jit_fn.signature.parameters.items():
        v = bound.arguments.get(name)
        if isinstance(v, ConstExpr) or is_constexpr_annotation(p.annotation):
            kinds[name] = _value_kind(v)
            if kinds[name] is not None:
                values[name] = ConstExpr.unwrap(v)
        elif isinstance(v, (bool, numbers.Real)) or (hasattr(v, "dtype") and getattr(v, "ndim", 1) == 0
                                                      and not hasattr(v, "__len__")):
            kinds[name] = PV
        elif hasattr(v, "__array_interface__") or hasattr(v, "data_ptr"):
            kinds[name] = "GlobalAddress"
        else:
            kinds[name] = None
    return kinds, values


def check_kinds(jit_fn, args, kwargs):
    """Stop the launch (a ``CodegenError`` at the user's line) where pyasc's code generator would stop; give
    the kernel and its helpers the operators on device values of this launch's kinds (``_v1_arith``)."""
    found = parameter_kinds(jit_fn, args, kwargs)
    if found is None:
        return
    kinds, values = found
    key = (tuple(sorted(kinds.items())), tuple(sorted((n, repr(v)) for n, v in values.items())))
    done = jit_fn.__dict__.setdefault("_kinds_checked", {})
    marks = done.get(key)
    if marks is None:
        marks = {}
        _Walk(jit_fn, dict(kinds), sure=True, memo=set(), values=values, marks=marks).run()
        if len(done) < 256:
            done[key] = marks
    for fn, ops in marks.items():
        fn._v1_arith = ops or None


class _Walk:
    def __init__(self, jit_fn, env, sure, memo, values=None, marks=None):
        self.fn, self.env, self.sure, self.memo = jit_fn, env, sure, memo
        self.all_marks = {} if marks is None else marks
        self.marks = self.all_marks.setdefault(jit_fn, {})   # node key -> (operator, left / right a device value)
        self.values = dict(values or {})     # the locals whose Python value the walk knows (compile-time ones)
        self.scope = jit_fn.namespace
        self.assigned = set()

    def run(self):
        self.block(self.fn.node.body)

    # -- refusals --------------------------------------------------------------------------------------
    def refuse(self, node, exc_type, message, hint):
        if not self.sure:
            return
        raise error_at(self.fn, node, exc_type, message, hint)

    # -- names -----------------------------------------------------------------------------------------
    def resolve(self, node):
        """The object an expression names outside the kernel's locals (a module, a function, a constant), or
        None."""
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return None
            v = self.scope.get(node.id, None)
            if v is None and node.id not in self.scope:
                v = getattr(builtins, node.id, None)
            return v
        if isinstance(node, ast.Attribute):
            owner = self.resolve(node.value)
            if owner is None:
                return None
            try:
                return getattr(owner, node.attr)
            except Exception:
                return None
        return None

    def is_builtin(self, node, name):
        return isinstance(node, ast.Name) and node.id == name and name not in self.env and name not in self.scope

    def assign(self, name, kind, value=None):
        self.env[name] = kind
        self.assigned.add(name)
        known, v = self.const(value) if value is not None else (False, None)
        if known and kind != PV:
            self.values[name] = v
        else:
            self.values.pop(name, None)

    def const(self, e):
        """(True, value) of an expression pyasc evaluates while compiling, when the walk knows it; else
        (False, None)."""
        import operator as op
        if isinstance(e, ast.Constant):
            return True, e.value
        if isinstance(e, ast.Name):
            if e.id in self.values:
                return True, self.values[e.id]
            if e.id not in self.env and e.id in self.scope and _value_kind(self.scope[e.id]) is not None:
                return True, ConstExpr.unwrap(self.scope[e.id])
            return False, None
        parts = [self.const(c) for c in ast.iter_child_nodes(e) if isinstance(c, ast.expr)]
        if not all(ok for ok, _ in parts):
            return False, None
        vals = [v for _, v in parts]
        fns = {ast.Add: op.add, ast.Sub: op.sub, ast.Mult: op.mul, ast.FloorDiv: op.floordiv, ast.Mod: op.mod,
               ast.Div: op.truediv, ast.Eq: op.eq, ast.NotEq: op.ne, ast.Lt: op.lt, ast.LtE: op.le, ast.Gt: op.gt,
               ast.GtE: op.ge, ast.Not: op.not_, ast.USub: op.neg, ast.And: lambda a, b: a and b,
               ast.Or: lambda a, b: a or b}
        try:
            if isinstance(e, ast.BinOp):
                return True, fns[type(e.op)](*vals)
            if isinstance(e, ast.UnaryOp):
                return True, fns[type(e.op)](*vals)
            if isinstance(e, ast.Compare) and len(e.ops) == 1:
                return True, fns[type(e.ops[0])](*vals)
            if isinstance(e, ast.BoolOp) and len(vals) == 2:
                return True, fns[type(e.op)](*vals)
        except Exception:     # (an unknown operator, a division by zero: pyasc reports those itself)
            pass
        return False, None

    def mark(self, node, op, kinds, key_type=None):
        """Record an operator on a device value (``kinds``: its operands'), unless an operand is a known
        non-number (a tensor, a pointer: its own operator decides)."""
        if PV not in kinds or any(k not in (PV, None, *_NUMBERS) for k in kinds):
            return
        key = node_key(node, key_type)
        devices = tuple(k == PV for k in kinds)
        old = self.marks.get(key)
        if old is not None:
            devices = tuple(a or b for a, b in zip(old[1], devices))
        self.marks[key] = (op, devices)

    # -- statements ------------------------------------------------------------------------------------
    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            if s.value is None:
                return
            kind = self.kind(s.value)
            for target in (s.targets if isinstance(s, ast.Assign) else [s.target]):
                self.store(target, s.value, kind)
        elif isinstance(s, ast.AugAssign):
            load = ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target) \
                if isinstance(s.target, ast.Name) else s.target
            kind = self.kind(ast.copy_location(ast.BinOp(load, s.op, s.value), s), key_type="AugAssign")
            self.store(s.target, s.value, kind)
        elif isinstance(s, ast.If):
            self.branch(s)
        elif isinstance(s, ast.For):
            self.loop(s)
        elif isinstance(s, ast.While):
            self.kind(s.test)
            self.region(s, s.body)
        elif isinstance(s, ast.With):
            for item in s.items:
                self.kind(item.context_expr)
                if isinstance(item.optional_vars, ast.Name):
                    self.assign(item.optional_vars.id, None)
            self.block(s.body)
        elif isinstance(s, (ast.Expr, ast.Return)) and s.value is not None:
            self.kind(s.value)
        elif isinstance(s, ast.Assert):
            self.kind(s.test)

    def store(self, target, value, kind):
        if isinstance(target, ast.Name):
            self.assign(target.id, kind, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            parts = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
                else [None] * len(target.elts)
            for t, v in zip(target.elts, parts):
                self.store(t, v, self.kind(v) if v is not None else None)
        else:     # t[i] = v, s.field = v
            self.kind(target.value)

    def branch(self, s):
        cond = self.kind(s.test)
        if cond == PV:            # a runtime if: both branches compiled, each checked against the scope before
            self.region(s, s.body, orelse=s.orelse)
            return
        known, value = self.const(s.test)
        if known:                 # a compile-time if: pyasc compiles the branch taken
            self.block(s.body if value else s.orelse)
            return
        # one whose value the walk does not know: it checks neither branch
        before, sure = dict(self.env), self.sure
        self.sure = False
        self.block(s.body)
        then = self.env
        self.env = dict(before)
        self.block(s.orelse)
        self.sure = sure
        self.env = {n: (k if then.get(n, k) == k else None) for n, k in self.env.items()}
        self.env.update({n: None for n in then if n not in self.env})
        self.forget(s)

    def loop(self, s):
        self.kind(s.iter)
        it = s.iter.func if isinstance(s.iter, ast.Call) else None
        target = s.target.id if isinstance(s.target, ast.Name) else None
        callee = self.resolve(it) if it is not None else None
        name = getattr(callee, "__name__", "")
        runtime = it is not None and (self.is_builtin(it, "range") or name == "range" and (
            getattr(callee, "__module__", None) or "").startswith("asc"))
        if runtime:      # (asc.jit's range is asc.range: a runtime loop whatever its bounds)
            self.region(s, s.body, target=target)
            return
        self.forget(s)            # (the body runs more than once: values it assigns are not known)
        sure = self.sure
        if not (callee is not None and name == "static_range"):
            self.sure = False     # not a loop pyasc compiles (it refuses it elsewhere): nothing to check
        if target is not None:
            self.assign(target, "int" if name == "static_range" else None)
        self.block(s.body)
        self.sure = sure

    def forget(self, node):
        """Forget the values of the names a statement assigns."""
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                self.values.pop(n.id, None)

    def region(self, node, body, orelse=None, target=None):
        """A block pyasc compiles once into an ``scf`` region: each name of the scope around it that the block
        assigns must keep its kind; names first assigned inside are not seen after it."""
        outer, assigned, values = self.env, self.assigned, self.values
        redefined = set()
        for stmts in ([body] if orelse is None else [body, orelse]):
            self.env, self.assigned, self.values = dict(outer), set(), dict(values)
            if target is not None:
                self.assign(target, PV)
            self.block(stmts)
            for name in sorted(self.assigned & set(outer)):
                old, new = outer[name], self.env.get(name)
                if old is not None and new is not None and old != new:
                    what = "if" if isinstance(node, ast.If) else "loop"
                    self.refuse(node, _UnsupportedSyntax,
                                f"'{name}' was re-assigned to an object with different type: initial type is "
                                f"{old}, new type is {new}",
                                _keep_hint(name, what, old, new))
            redefined |= self.assigned & set(outer)
        # what the block yields is materialised: a Python number comes out of it a device value
        self.env, self.assigned, self.values = outer, assigned | redefined, values
        for name in redefined:
            self.values.pop(name, None)
            if outer[name] in _NUMBERS:
                outer[name] = PV

    # -- expressions -----------------------------------------------------------------------------------
    def kind(self, e, key_type=None):
        if e is None:
            return None
        if key_type is not None:      # (an augmented assignment's operator, keyed by its statement)
            return self.k_BinOp(e, key_type)
        method = getattr(self, "k_" + type(e).__name__, None)
        if method is not None:
            return method(e)
        for child in ast.iter_child_nodes(e):
            if isinstance(child, ast.expr):
                self.kind(child)
        return None

    def k_Constant(self, e):
        return _value_kind(e.value)

    def k_Name(self, e):
        if e.id in self.env:
            return self.env[e.id]
        return _value_kind(self.scope.get(e.id)) if e.id in self.scope else None

    def k_JoinedStr(self, e):
        for v in e.values:
            self.kind(v)
        return "str"

    def k_FormattedValue(self, e):
        self.kind(e.value)
        return "str"

    def k_Tuple(self, e):
        for v in e.elts:
            self.kind(v)
        return "tuple"

    def k_List(self, e):
        for v in e.elts:
            self.kind(v)
        return "list"

    def k_BinOp(self, e, key_type=None):
        a, b = self.kind(e.left), self.kind(e.right)
        if PV in (a, b):
            if type(e.op) in BINARY:
                self.mark(e, BINARY[type(e.op)], (a, b), key_type)
            if isinstance(e.op, ast.Pow):
                self.refuse(e, TypeError, "unsupported operand type(s) for ** or pow(): a device value (PlainValue)"
                            " has no power in pyasc", "multiply it out (x * x), or raise a tensor to a power with "
                            "asc's vector instructions (asc.mul, asc.sqrt ...)")
            return PV if {a, b} <= {PV, *_NUMBERS} else None
        if a in _NUMBERS and b in _NUMBERS:
            if isinstance(e.op, ast.Div) or "float" in (a, b):
                return "float"
            return "int"
        if a == b == "str" and isinstance(e.op, ast.Add):
            return "str"
        return None

    def k_UnaryOp(self, e):
        a = self.kind(e.operand)
        if a == PV:
            if type(e.op) in UNARY:
                self.mark(e, UNARY[type(e.op)], (a,))
            return PV
        if isinstance(e.op, ast.Not):
            return "bool" if a is not None else None
        return "int" if a == "bool" else a if a in _NUMBERS else None

    def k_Compare(self, e):
        kinds = [self.kind(e.left)] + [self.kind(c) for c in e.comparators]
        if PV in kinds:
            if len(e.ops) == 1 and type(e.ops[0]) in COMPARE:
                self.mark(e, COMPARE[type(e.ops[0])], kinds)
            return PV
        return "bool" if all(k in _NUMBERS for k in kinds) else None

    def k_BoolOp(self, e):
        kinds = [self.kind(v) for v in e.values]
        if PV in kinds:
            return PV
        return "bool" if all(k == "bool" for k in kinds) else None

    def k_IfExp(self, e):
        cond = self.kind(e.test)
        a, b = self.kind(e.body), self.kind(e.orelse)
        if cond == PV:
            return PV if PV in (a, b) or {a, b} <= set(_NUMBERS) else None
        return a if a == b else None

    def k_Subscript(self, e):
        base = self.kind(e.value)
        self.kind(e.slice)
        return base if base in ("GlobalTensor", "LocalTensor") else None    # (t[i] is a tensor from element i)

    def k_Slice(self, e):
        for part in (e.lower, e.upper, e.step):
            self.kind(part)
        return "slice"

    def k_Attribute(self, e):
        base = self.kind(e.value)
        if base in ("GlobalTensor", "LocalTensor") and e.attr in _ENGINE_ATTRS:
            hints = {"itemsize": "the element size in bytes is t.dtype.sizeof()",
                     "size": "the element count is t.get_size() (a GlobalTensor's: the count given to "
                             "set_global_buffer, which the kernel can take as an argument)"}
            self.refuse(e, AttributeError, f"'{base}' object has no attribute '{e.attr}'",
                        hints.get(e.attr, f"{base} has no '{e.attr}' in pyasc: use its methods (get_size(), "
                                          "get_length(), get_phy_addr() ...) or its dtype"))
        return "DataType" if e.attr == "dtype" and base in ("GlobalTensor", "LocalTensor") else None

    def k_Call(self, e):
        arg_kinds = [self.kind(a.value if isinstance(a, ast.Starred) else a) for a in e.args]
        kw_kinds = {k.arg: self.kind(k.value) for k in e.keywords}
        f = e.func
        for name, (result, text) in _CONVERSIONS.items():
            if self.is_builtin(f, name):
                if PV in arg_kinds:
                    self.refuse(e, TypeError, f"{text} ({name}() of a device value: pyasc compiles the call with "
                                "the value it will have on the device, which Python cannot convert)",
                                "use the device value as it is (asc's instructions and set_value take it and convert "
                                "it to the tensor's element type), or convert a tensor with asc.cast")
                return result
        if isinstance(f, ast.Attribute):
            base = self.kind(f.value)
            if f.attr in _DEVICE_METHODS and base not in ("DataType",):
                return PV if self.resolve(f) is None else None
        callee = self.resolve(f)
        if isinstance(callee, KernelFunction):
            self.helper(callee, e, arg_kinds, kw_kinds)
            return None
        name = getattr(callee, "__name__", None) or (f.attr if isinstance(f, ast.Attribute) else None)
        module = getattr(callee, "__module__", None) or ""
        if callee is not None and module.startswith("asc"):
            if name in _DEVICE_RESULTS:
                return PV
            return _TENSOR_MAKERS.get(name)
        if callee is None and isinstance(f, ast.Attribute):
            return _TENSOR_MAKERS.get(f.attr)
        if _converts_numbers(callee, module) and PV in arg_kinds + list(kw_kinds.values()):
            what = getattr(callee, "__qualname__", name) or "the function"
            self.refuse(e, TypeError, f"must be real number, not PlainValue: {module + '.' if module else ''}{what}() "
                        "is a Python function, and pyasc calls it while compiling the kernel with a device value",
                        "compute it on the device with asc's instructions (asc.sqrt / asc.exp ... on a tensor), "
                        "or on the host from the kernel's arguments and pass the result")
        return None

    def helper(self, callee, call, arg_kinds, kw_kinds):
        """Walk a ``@jit`` helper with the kinds of this call's arguments (once per kinds)."""
        params = list(callee.signature.parameters.values())
        kinds, nodes = {}, {}
        for p, k, a in zip(params, arg_kinds, call.args):
            kinds[p.name], nodes[p.name] = k, a
        for kw in call.keywords:
            if kw.arg in callee.signature.parameters:
                kinds[kw.arg], nodes[kw.arg] = kw_kinds[kw.arg], kw.value
        for p in params:
            if p.name not in kinds:
                kinds[p.name] = _value_kind(p.default) if p.default is not p.empty else None
            if is_constexpr_annotation(p.annotation) and kinds[p.name] == PV:
                kinds[p.name] = None
            elif not is_constexpr_annotation(p.annotation) and kinds[p.name] in _NUMBERS and p.name in nodes:
                kinds[p.name] = PV      # pyasc materialises a number passed to a runtime parameter
        values = {}
        for name, node in nodes.items():
            known, v = self.const(node)
            if known and kinds[name] != PV:
                values[name] = v
        key = (callee, tuple(sorted(kinds.items())), tuple(sorted((n, repr(v)) for n, v in values.items())),
               self.sure)
        if key in self.memo:
            return
        self.memo.add(key)
        _Walk(callee, kinds, self.sure, self.memo, values, self.all_marks).run()


def _keep_hint(name, what, old, new):
    if PV in (old, new) and {old, new} <= {PV, *_NUMBERS}:
        return (f"pyasc compiles the {what} once, so '{name}' keeps one kind of value through it: make both "
                f"values device values (a constant as one: `{name} = <device value> * 0 + CONST`, or pass it as "
                f"a kernel argument), or both Python numbers, or use another name inside the {what}")
    return (f"pyasc compiles the {what} once, so '{name}' keeps one type through it: give it a {new} before the "
            f"{what} too, or use another name inside the {what}")


def _converts_numbers(callee, module):
    """Whether a Python callable needs a real number (``math.sqrt``, ``numpy.exp`` ...): given a device value
    while pyasc compiles the kernel, it fails. (Other callables, ``list.append`` say, take any object.)"""
    if callee is None or isinstance(callee, type):
        return False
    module = module or getattr(type(callee), "__module__", "") or ""
    return module in ("math", "cmath") or module.split(".")[0] == "numpy"


class _UnsupportedSyntax(SyntaxError):
    """pyasc's ``UnsupportedSyntaxError``."""


_UnsupportedSyntax.__name__ = "UnsupportedSyntaxError"

"""Static reading of kernel files (no import, no execution).

:func:`read_kernel_file` parses a kernel with :mod:`ast` and evaluates the literal module-level
assignments (``OP = "abs"``, ``CASES = [...]``, ``TOLERANCE = {...}``; names of earlier literal
assignments and simple arithmetic are allowed). The harness uses it to decide whether a file has the
golden interface and ``check_capabilities`` uses it to compare a golden file with its registry cell.
"""

from __future__ import annotations

import ast
import operator
import os
from dataclasses import dataclass, field
from typing import Any

GOLDEN_VALUES = ("OP", "DTYPE", "TOLERANCE", "CASES")
GOLDEN_FUNCTIONS = ("make_inputs", "launch", "reference")

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}


class NotLiteral(Exception):
    pass


def _eval(node: ast.AST, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_eval(e, env) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise NotLiteral("dict unpacking")
        return {_eval(k, env): _eval(v, env) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise NotLiteral(f"name {node.id!r} is not a literal module constant")
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand, env))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _eval(node.left, env), _eval(node.right, env)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left, right)):
            if isinstance(node.op, (ast.Add, ast.Mult)) and isinstance(left, (list, tuple, str)):
                return _BINOPS[type(node.op)](left, right)
            raise NotLiteral("arithmetic on non-numbers")
        if isinstance(node.op, ast.Pow) and abs(right) > 64:
            raise NotLiteral("exponent too large")
        return _BINOPS[type(node.op)](left, right)
    raise NotLiteral(f"{type(node).__name__} is not a literal")


@dataclass
class KernelFile:
    path: str
    syntax_error: str | None = None
    defined: set[str] = field(default_factory=set)       # every name bound at module level
    functions: set[str] = field(default_factory=set)     # names bound by top-level def
    values: dict[str, Any] = field(default_factory=dict)  # literal module-level values
    not_literal: dict[str, str] = field(default_factory=dict)
    has_main_guard: bool = False

    @property
    def has_golden_interface(self) -> bool:
        return self.syntax_error is None and all(n in self.defined for n in GOLDEN_VALUES + GOLDEN_FUNCTIONS)

    @property
    def missing_interface(self) -> list[str]:
        return [n for n in GOLDEN_VALUES + GOLDEN_FUNCTIONS if n not in self.defined]


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _bound_names(e)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def _walk_top(body: list[ast.stmt], kf: KernelFile, env: dict[str, Any], literal: bool) -> None:
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kf.defined.add(stmt.name)
            if not isinstance(stmt, ast.ClassDef):
                kf.functions.add(stmt.name)
            env.pop(stmt.name, None)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                name = (alias.asname or alias.name).split(".")[0]
                kf.defined.add(name)
                env.pop(name, None)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [n for t in targets for n in _bound_names(t)]
            kf.defined.update(names)
            value = getattr(stmt, "value", None)
            single = len(names) == 1 and isinstance(targets[0], ast.Name)
            if literal and single and value is not None and not isinstance(stmt, ast.AugAssign):
                try:
                    env[names[0]] = _eval(value, env)
                    kf.not_literal.pop(names[0], None)
                except NotLiteral as exc:
                    env.pop(names[0], None)
                    kf.not_literal[names[0]] = str(exc)
                except Exception as exc:  # arithmetic errors such as division by zero
                    env.pop(names[0], None)
                    kf.not_literal[names[0]] = f"{type(exc).__name__}: {exc}"
            else:
                for n in names:
                    env.pop(n, None)
                    kf.not_literal[n] = "assigned in a non-literal way"
        elif isinstance(stmt, ast.If):
            test = stmt.test
            if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"):
                kf.has_main_guard = True
                continue
            _walk_top(stmt.body, kf, env, False)
            _walk_top(stmt.orelse, kf, env, False)
        elif isinstance(stmt, ast.Try):
            _walk_top(stmt.body, kf, env, False)
            for h in stmt.handlers:
                _walk_top(h.body, kf, env, False)
            _walk_top(stmt.orelse, kf, env, False)
            _walk_top(stmt.finalbody, kf, env, False)
        elif isinstance(stmt, ast.With):
            _walk_top(stmt.body, kf, env, False)


def read_kernel_file(path: str | os.PathLike, source: str | None = None) -> KernelFile:
    """Parse ``path`` (or ``source``) without executing it."""
    kf = KernelFile(str(path))
    if source is None:
        with open(path, "rb") as fh:
            raw = fh.read()
        try:
            source = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            kf.syntax_error = f"not UTF-8 source: {exc.reason}"
            return kf
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        kf.syntax_error = f"{type(exc).__name__}: {exc.msg} (line {exc.lineno})"
        return kf
    except ValueError as exc:  # e.g. null bytes
        kf.syntax_error = f"SyntaxError: {exc}"
        return kf
    env: dict[str, Any] = {}
    _walk_top(tree.body, kf, env, True)
    kf.values = {k: v for k, v in env.items() if k in kf.defined}
    return kf

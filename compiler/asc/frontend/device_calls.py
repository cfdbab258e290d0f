"""Calls of one ``@jit`` function from another (device functions): traced inline at the call site."""
from __future__ import annotations

from ..language.core import dtype as dt
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.errors import error
from ..language.core.ir_value import const


class KernelFunction:
    """What the frontend needs of a ``@jit`` function: ``fn``, ``node`` (its ``ast.FunctionDef``),
    ``signature``, ``source_file``, ``first_line``, ``indent`` and ``codegen_options()``. The runtime's
    ``JITFunction`` is one; the frontend never imports the runtime."""


def bind_device_args(fn, args, kwargs):
    """(constexprs, scope) of a device-function call: ConstExpr parameters get the raw values, Python
    numbers become typed scalars, everything else (tiles, tensors, scalars) is passed as is."""
    try:
        bound = fn.signature.bind(*args, **kwargs)
    except TypeError as e:
        raise error(TypeError, f"{fn.__name__}: {e}") from None
    bound.apply_defaults()
    constexprs, scope = {}, {}
    for name, p in fn.signature.parameters.items():
        v = bound.arguments[name]
        if is_constexpr_annotation(p.annotation):
            constexprs[name] = ConstExpr.unwrap(v)
        elif isinstance(v, (bool, int, float)) and not isinstance(v, bool):
            scope[name] = const(v, dt.int32 if isinstance(v, int) else dt.float32)
        else:
            scope[name] = v
    return constexprs, scope

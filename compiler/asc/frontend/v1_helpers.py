"""A ``@jit`` helper called from a v1 kernel, as pyasc compiles it: a ``func.call`` whose runtime arguments
(those not ``ConstExpr``) are IR values, so a value with no IR form (a ``DataType``, ``None``, a string, a
tuple) cannot be passed (``Unsupported value type for materialization``); and one function per kernel,
compiled for its first call's argument types, so a later call whose arguments have other IR types (a
``TQue`` of another depth or position, a tensor of another element type, a float where an int was) does not
match it (``'func.call' op operand type mismatch``). The body runs as Python here: each call is checked
against both rules before it runs."""
from __future__ import annotations

import enum
import numbers

import numpy as np

from ..ir.pipe_ops import current_block
from ..language.core.constexpr import ConstExpr, is_constexpr_annotation
from ..language.core.dtype import DataType
from ..language.core.errors import error

_NO_IR = (DataType, type(None), str, bytes, tuple, list, dict)


_PLAIN = {bool: "a bool (i1)", np.bool_: "a bool (i1)", int: "an int (int32)", float: "a float"}
_DESCRIBED = {}     # (kind, position or dtype, depth) -> its description: a helper is called at every trip


def _ir_type(value):
    """A description of the IR type pyasc gives a helper argument (None: none this engine can tell apart)."""
    plain = _PLAIN.get(type(value))
    if plain is not None:
        return plain
    kind = type(value).__name__
    if kind in ("TQue", "TQueBind", "TBuf", "GlobalTensor", "LocalTensor", "LocalTensorAuto"):
        dtype = getattr(value, "dtype", None)       # (a DataType is unhashable: keyed by its name)
        key = (kind, getattr(value, "position", None), getattr(value, "depth", None), getattr(dtype, "name", dtype))
        try:
            return _DESCRIBED[key]
        except KeyError:
            described = _DESCRIBED[key] = _describe(value)
            return described
        except TypeError:       # an unhashable field: describe it afresh
            pass
    return _describe(value)


def _describe(value):
    if isinstance(value, (bool, np.bool_)):
        return "a bool (i1)"
    if isinstance(value, enum.Enum):
        return None
    if isinstance(value, numbers.Integral):
        return "an int (int32)"
    if isinstance(value, numbers.Real):
        return "a float"        # (a float16 device value and a float32 one look alike here)
    kind = type(value).__name__
    if kind in ("TQue", "TQueBind", "TBuf") and hasattr(value, "depth"):
        depth = "" if kind == "TBuf" else f", depth {value.depth}"
        return f"a {kind}({value.position}{depth})"
    dtype = getattr(value, "dtype", None)
    if kind in ("GlobalTensor", "LocalTensor", "LocalTensorAuto") and isinstance(dtype, DataType):
        return f"a {kind} of {dtype}"
    return None


def _runtime_arguments(helper, args, kwargs):
    """(name, value) of the arguments pyasc passes as IR values (the others are compile-time constants)."""
    params = helper.signature.parameters
    if not kwargs and len(args) == len(params):      # the common call: every argument by position
        for name, value, constexpr in zip(params, args, helper._constexpr_flags):
            if not constexpr and not isinstance(value, ConstExpr):
                yield name, value
        return
    try:
        bound = helper.signature.bind(*args, **kwargs)
    except TypeError as e:
        raise error(TypeError, f"{helper.__name__}(): {e}",
                    f"call it as {helper.__name__}({', '.join(helper.signature.parameters)})") from None
    bound.apply_defaults()
    for name, value in bound.arguments.items():
        p = helper.signature.parameters[name]
        if isinstance(value, ConstExpr) or is_constexpr_annotation(p.annotation):
            continue
        yield name, value


def check_helper_call(helper, args, kwargs):
    """Refuse a call pyasc cannot compile (see the module's docstring); remember the first call's types."""
    blk = current_block()
    launch = getattr(blk, "launch", None)
    seen = getattr(launch, "helper_types", None)
    if launch is not None and seen is None:
        seen = launch.helper_types = {}
    first = seen.get(helper.__name__) if seen is not None else None
    types = {}
    for name, value in _runtime_arguments(helper, args, kwargs):
        if isinstance(value, _NO_IR):
            what = type(value).__name__
            raise error(TypeError, f"Unsupported value type for materialization: {what} (argument '{name}' of "
                        f"the jit helper {helper.__name__}(): pyasc passes a helper's arguments as device values, "
                        f"and a {what} has none)",
                        f"annotate the parameter as compile-time (`{name}: asc.ConstExpr`), or pass what the "
                        "helper needs instead (a tensor: its .dtype is read inside the helper)")
        types[name] = _ir_type(value)
        if first is not None:
            was = first.get(name)
            if was is not None and types[name] is not None and was != types[name]:
                raise error(TypeError, "'func.call' op operand type mismatch: the jit helper "
                            f"{helper.__name__}() is "
                            f"compiled once per kernel, for its first call's argument types; argument '{name}' "
                            f"was {was} there and is {types[name]} here",
                            f"give every call of {helper.__name__}() arguments of the same types, or write one "
                            "helper per type")
    if seen is not None and first is None:
        seen[helper.__name__] = types

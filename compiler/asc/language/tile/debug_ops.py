"""Debugging: ``device_print`` / ``device_assert`` (run in the kernel, active with ``@jit(debug=True)``)
and ``static_print`` / ``static_assert`` (run once while the kernel is traced), as pyasc-dev.

In a kernel of the August dialect the builtin ``print(...)`` is ``device_print`` and the builtin
``assert`` is ``device_assert``, on a compile-time value too (pyasc-dev's front end dispatches them so). Without
``debug=True`` both emit nothing, as upstream compiles them out: they cost nothing and change nothing.
With it, ``device_print`` writes one line per block to the launching process's standard output
(``[block N] ...``; tiles and global tensors are printed whole) and costs a scalar call per value, and a failing
``device_assert`` stops the launch with an error naming the blocks, the message and the line.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.builder import current_builder
from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import IRHandle, PlainValue, to_scalar
from .tensor import Tensor
from .tile import Tile


def _check_str(name, value):
    if value is not None and not isinstance(value, str):
        raise error(TypeError, f"'{name}' argument must be Union[str, NoneType], got {type(value).__name__}",
                    f"pass {name} as a string literal")


def _debug():
    return bool(getattr(current_builder(), "debug", False))


def device_assert(test, message=None):
    """Stop the kernel when ``test`` (a runtime comparison or a compile-time value) is false."""
    _check_str("message", message)
    if isinstance(test, Tile):
        raise error(TypeError, "device_assert takes a scalar condition, got a tile",
                    "reduce the tile first, e.g. @device_assert(@reduce_min(x) >= 0)")
    if not isinstance(test, (PlainValue, bool, numbers.Real, np.number, np.bool_)):
        raise error(TypeError, f"Unsupported value type for materialization: {type(test).__name__}",
                    "compare runtime scalars, e.g. @device_assert(@block_idx() >= 0, \"...\")")
    if not _debug():
        return None
    cond = test if isinstance(test, PlainValue) else to_scalar(bool(test), dt.int1)
    current_builder().create("debug.assert", [cond.handle], [], {"message": message or ""})
    return None


def device_print(*values, sep=None, end=None):
    """Print strings, scalars and tiles from every block while the kernel runs (``debug=True``)."""
    _check_str("sep", sep)
    _check_str("end", end)
    parts, operands = [], []
    for v in values:
        if isinstance(v, (Tile, PlainValue, Tensor)):  # a global tensor is dumped whole, as upstream
            parts.append(None)
            operands.append(v.handle)
        elif isinstance(v, IRHandle):
            raise error(TypeError, f"device_print cannot print {type(v).__name__}", "print tiles and scalars")
        else:
            parts.append(str(int(v) if isinstance(v, bool) else v))
    if not _debug():
        return None
    current_builder().create("debug.print", operands, [], {"parts": tuple(parts), "sep": " " if sep is None
                                                          else sep, "end": "\n" if end is None else end})
    return None


def static_assert(test, message=None):
    """Check a compile-time condition while the kernel is traced (``AssertionError`` when false)."""
    if isinstance(test, IRHandle):
        raise error(TypeError, f"static_assert expects a compile-time value, got {type(test).__name__}, use "
                    "device_assert", "assert runtime values with @device_assert (active with debug=True)")
    _check_str("message", message)
    if not test:
        raise AssertionError(message or "")


def static_print(*args, **kwargs):
    """Print compile-time values while the kernel is traced (once per specialisation)."""
    print(*args, **kwargs)


def _scalar_cost(op, hw):
    return ("S", hw.scalar_op * max(1, len(op.operands)))


define("debug.assert", cost=_scalar_cost)
define("debug.print", cost=_scalar_cost)

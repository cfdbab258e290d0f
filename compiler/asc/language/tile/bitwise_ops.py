"""Bitwise ops and the power of tiles (pyasc-dev's ``bitwise_and`` / ``bitwise_or`` / ``bitwise_xor`` /
``bitwise_not`` and ``pow``; the operators ``& | ^ ~ **`` of August tiles).

Operands follow the binary ops' rules (at least one tile, a common dtype, NumPy broadcasting in August
kernels). Semantics on this engine:

- ``bitwise_*`` on int8 / int16 / int32 tiles: two's complement, as numpy's ``bitwise_and`` etc.;
  ``bitwise_xor`` is ``(a | b) & ~(a & b)`` upstream and costs those three vector calls here.
- ``pow`` on int8 / int16 / int32 / float16 / float32: floats are computed in float32 and rounded once
  to the result type (``0 ** 0 == 1``, a negative base with a fractional exponent is NaN); integers wrap
  around on overflow, and a negative exponent gives the truncated quotient of ``1 / a ** -b`` (1 for a
  base of 1, +-1 for -1, 0 otherwise; ``0 ** -n`` is 0). Its cost is a vector call of weight 5
  (``exp(b * log(a))`` with its sign fix-ups).
"""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.registry import define
from ..core.errors import BinaryOperandTypeError, error
from ..core.ir_value import PlainValue, to_scalar
from .costs import vector_cost
from .memory_ops import vector_operand
from .tile import Tile, bind_tile_method, emit_tile
from .utils import create_tile, infer_common_dtype, infer_common_shape

BITWISE_DTYPES = ("int8", "int16", "int32", "int64")
POW_DTYPES = ("int8", "int16", "int32", "float16", "float32")


def _check_operand(name, value, support):
    if not isinstance(value, (Tile, PlainValue, numbers.Real, np.number)):
        raise error(BinaryOperandTypeError, f"'{name}' argument must be LocalTensor or RuntimeNumeric, got "
                    f"{type(value).__name__}", "operands are tiles, Python numbers or runtime scalars")
    if isinstance(value, Tile) and str(value.dtype) not in support:
        raise error(RuntimeError, f"'{name}' dtype must be one of {', '.join(support)}, got {value.dtype}",
                    "convert the tile first, e.g. x.to(@int32)" if "float32" not in support else
                    "convert the tile first, e.g. x.to(@float32)")


def _elementwise(op_name, kind, input, other, support):
    for name, value in (("input", input), ("other", other)):
        _check_operand(name, value, support)
    if not isinstance(input, Tile) and not isinstance(other, Tile):
        raise error(BinaryOperandTypeError, f"At least one operand must be tensor, got {type(input)} and "
                    f"{type(other)}", "for two scalars use Python operators; tile ops need a tile operand")
    dtype = infer_common_dtype(input, other)
    if str(dtype) not in support:  # a scalar operand cannot change a tile's dtype, but two scalars' could
        raise error(RuntimeError, f"'input' dtype must be one of {', '.join(support)}, got {dtype}",
                    "convert the operands first")
    shape = infer_common_shape(input, other)
    input, other = vector_operand(input, f"@{op_name}"), vector_operand(other, f"@{op_name}")
    ir_name = "tile.pow" if kind == "pow" else "tile.bitwise"
    if isinstance(input, Tile) and isinstance(other, Tile):
        a, b = create_tile(input, dtype, shape), create_tile(other, dtype, shape)
        return emit_tile(ir_name, [a.handle, b.handle], shape, dtype, kind=kind)
    tile, scalar, reverse = (input, other, False) if isinstance(input, Tile) else (other, input, True)
    s = to_scalar(scalar, dtype)
    return emit_tile(ir_name + "_scalar", [tile.to(dtype).handle, s.handle], shape, dtype, kind=kind,
                     reverse=reverse)


def bitwise_and(input, other):
    """``input & other`` element-wise on integer tiles (a tile and a tile or a scalar)."""
    return _elementwise("bitwise_and", "and", input, other, BITWISE_DTYPES)


def bitwise_or(input, other):
    """``input | other`` element-wise on integer tiles."""
    return _elementwise("bitwise_or", "or", input, other, BITWISE_DTYPES)


def bitwise_xor(input, other):
    """``input ^ other`` element-wise on integer tiles."""
    return _elementwise("bitwise_xor", "xor", input, other, BITWISE_DTYPES)


def pow(input, other):  # noqa: A001  (pyasc's name)
    """``input ** other`` element-wise (see the module notes for integer exponents)."""
    return _elementwise("pow", "pow", input, other, POW_DTYPES)


def bitwise_not(input):
    """``~input`` element-wise on an integer tile."""
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be LocalTensor, got {type(input).__name__}",
                    "bitwise_not takes an integer tile")
    if str(input.dtype) not in BITWISE_DTYPES:
        raise error(RuntimeError, f"'input' dtype must be one of {', '.join(BITWISE_DTYPES)}, got {input.dtype}",
                    "convert the tile first, e.g. x.to(@int32)")
    input = vector_operand(input, "@bitwise_not")
    return emit_tile("tile.bitwise_not", [input.handle], input.shape, input.dtype)


for _name, _fn in (("__and__", bitwise_and), ("__or__", bitwise_or), ("__xor__", bitwise_xor),
                   ("__pow__", pow)):
    bind_tile_method(_name, _fn, operator=True)
bind_tile_method("__invert__", bitwise_not)


# -- op definitions and costs (executed by asc.sim.ops.bitwise) -----------------------------------------
_WEIGHT = {"and": 1.0, "or": 1.0, "xor": 3.0, "pow": 5.0}


def _cost(op, hw):
    pipe, ticks = vector_cost()(op, hw)
    return (pipe, ticks * _WEIGHT[op.attrs["kind"]])


def _tiles(op, align, count):
    return count * (-(-op.results[0].type.nbytes // align) * align)


def _filled(op):
    """pyasc-dev fills the scalar operand of a bitwise op or ``**`` into a tile (a constant one is
    hoisted; counted here where it is used)."""
    return 1 if op.name.endswith("_scalar") else 0


def _bitwise_work(op, align, arch):
    """pyasc-dev's lowering of ``^`` (no Xor instruction) has one temporary tile, three with a scalar."""
    xor = op.attrs["kind"] == "xor"
    return _tiles(op, align, _filled(op) + ((3 if _filled(op) else 1) if xor else 0))


def _pow_work(op, align, arch):
    """pyasc-dev's lowering of ``**`` (Power) has a scratch of 3 float32 tiles on C310 (none for integers)
    and 5 (integers 6) tiles on C220, as its compiler counts them."""
    integer = op.results[0].type.dtype.is_int()
    return _tiles(op, align, _filled(op) + ((0 if integer else 3) if arch == "c310" else (6 if integer else 5)))


define("tile.bitwise", cost=_cost, in_place=True, work_bytes=_bitwise_work)
define("tile.bitwise_scalar", cost=_cost, in_place=True, work_bytes=_bitwise_work)
define("tile.pow", cost=_cost, in_place=True, work_bytes=_pow_work)
define("tile.pow_scalar", cost=_cost, in_place=True, work_bytes=_pow_work)
define("tile.bitwise_not", cost=vector_cost(), in_place=True)

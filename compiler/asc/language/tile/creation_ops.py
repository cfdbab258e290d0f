"""Tile creation: ``full``, ``zeros``, ``*_like``, ``zeros_acc`` (cube accumulator) and ``concat``."""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.builder import tracing_august
from ...ir.registry import define
from ...ir.types import Location
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import PlainValue
from .costs import vector_cost
from .memory_ops import vector_operand
from .tile import Tile, emit_tile, require_location, splat
from .utils import verify_shape, SPLAT_DTYPES


# pyasc-dev's dtypes of an August ``full`` (``creation_ops.full``: checked before anything else is)
_AUGUST_FULL_DTYPES = ("int8", "int16", "int32", "int64", "float16", "bfloat16", "float32")


def full(shape, value, dtype=None, location=Location.UB):
    if dtype is not None and tracing_august() and str(dtype) not in _AUGUST_FULL_DTYPES:
        raise error(RuntimeError, f"'dtype' dtype must be one of {', '.join(_AUGUST_FULL_DTYPES)}, got {dtype}",
                    "fill a tile of one of those dtypes, then convert it with .to(dtype) if needed")
    try:
        shape = tuple(shape)
    except TypeError:
        raise error(RuntimeError, "shape must be integers",
                    "declare the parameter used in the shape as asc.ConstExpr[int]") from None
    if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in shape):
        raise error(RuntimeError, "shape must be integers",
                    "declare the parameter used in the shape as asc.ConstExpr[int]")
    shape = verify_shape(shape)
    if isinstance(value, PlainValue):
        dtype = dtype or value.dtype
    elif isinstance(value, (numbers.Real, np.number)):
        if dtype is None:
            dtype = dt.float32 if isinstance(value, (float, np.floating)) else dt.int32
        if str(dtype) not in SPLAT_DTYPES:
            raise error(ValueError, f"Unsupported dtype: {dtype}",
                        "fill tiles of int8, int16, int32, float16, bfloat16 or float32")
    else:
        raise error(TypeError, f"fill value must be a number or a runtime scalar, got {type(value)}",
                    "pass a Python number or a scalar (e.g. a reduction result); for a tile use @full_like")
    if location not in (Location.UB, Location.L1):
        raise error(RuntimeError, f"@full cannot create a tile in {location.name}",
                    "create tiles in UB; use @zeros_acc for a cube accumulator in L0C")
    return splat(value, dtype, shape, location)


def full_like(input, value, location=Location.UB):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "pass a tile; for a plain shape use @full / @zeros")
    return full(input.shape, value, input.dtype, location)


def zeros(shape, dtype=dt.int32, location=Location.UB):
    return full(shape, 0, dtype, location)


def zeros_like(input, location=Location.UB):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "pass a tile; for a plain shape use @full / @zeros")
    return full(input.shape, 0, input.dtype, location)


def zeros_acc(shape, dtype=dt.float32, *, bias=None):
    shape = verify_shape(shape)
    if len(shape) != 2:
        raise error(RuntimeError, f"Accumulation tile must have two dims, got {len(shape)}",
                    "the accumulator is the [M, N] result of a matmul: @zeros_acc([M, N], asc.float32)")
    if tracing_august() and str(dtype) != "float32":  # pyasc-dev checks here; April at matmul_acc
        raise error(RuntimeError, f"'dtype' dtype must be float32, got {dtype}",
                    "the cube accumulates in float32: @zeros_acc([M, N], asc.float32); cast on the store")
    if bias is None:
        return emit_tile("tile.zeros_acc", [], shape, dtype, Location.L0C)
    if not isinstance(bias, Tile):
        raise error(TypeError, f"'bias' argument must be Tile, got {type(bias)}",
                    "pass a 1-D bias tile in BT, e.g. @copy(bias_l1, location=@TileLocation.BT)")
    require_location(bias, (Location.BT,), "zeros_acc bias")
    if tuple(bias.shape) != (shape[1],) or str(bias.dtype) not in ("float16", "bfloat16", "float32"):
        raise error(RuntimeError, f"the bias must be a [{shape[1]}] float16 / bfloat16 / float32 tile, got "
                    f"{list(bias.shape)} x {bias.dtype}", "the bias row has one value per accumulator column")
    return emit_tile("tile.zeros_acc", [bias.handle], shape, dtype, Location.L0C)


def concat(*inputs):
    if not inputs or not all(isinstance(t, Tile) for t in inputs):
        raise error(RuntimeError, "All input arguments must be tiles",
                    "concat takes tiles only: wrap values with @full(...)")
    first = inputs[0]
    if any(t.shape[1:] != first.shape[1:] or len(t.shape) != len(first.shape) for t in inputs):
        raise error(RuntimeError, "All tiles must have the same shape except their first dimension",
                    "concat joins along dim 0: every tile needs the same trailing dimensions (reshape first)")
    if any(t.dtype != first.dtype for t in inputs):
        raise error(RuntimeError, "All tiles must have the same dtype", "convert the tiles with .to(dtype) first")
    try:
        first.dtype.sizeof()
    except ValueError:
        raise error(RuntimeError, "Tile dtype size must fit an integer number of bytes",
                    "convert boolean tiles with .to(asc.int8) first") from None
    inputs = [vector_operand(t, "@concat") for t in inputs]
    shape = (sum(t.shape[0] for t in inputs),) + tuple(first.shape[1:])
    return emit_tile("tile.concat", [t.handle for t in inputs], shape, first.dtype)


define("tile.zeros_acc", cost=lambda op, hw: ("M", 0.0), accumulator=True)
define("tile.concat", cost=vector_cost())

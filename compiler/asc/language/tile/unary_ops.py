"""Unary math on tiles, plus the fused row ops ``softmax`` and ``rms_norm``."""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.builder import tracing_august
from ...ir.registry import define
from ...ir.types import Location
from ..core.errors import error, not_supported
from ..core.ir_value import PlainValue, scalar_unary, to_scalar
from .costs import vector_cost
from .memory_ops import vector_operand
from .tile import Tile, bind_tile_method, emit_tile, location_of, require_location


_AUGUST_ABS_DTYPES = ("int8", "int16", "int32", "int64", "float16", "float32")


def _unary(kind, input, scalar_ok=False):
    if scalar_ok and isinstance(input, (PlainValue, numbers.Real, np.number)) and not isinstance(input, bool):
        return scalar_unary(kind, input)
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "this operation takes a tile (only @exp, @erf and @sqrt also take scalars)")
    if tracing_august():  # pyasc-dev's dtype lists and text (no bfloat16)
        allowed = _AUGUST_ABS_DTYPES if kind == "abs" else ("float16", "float32")
        if str(input.dtype) not in allowed:
            raise error(RuntimeError, f"'input' dtype must be one of {', '.join(allowed)}, got {input.dtype}",
                        "convert the tile first, e.g. x.to(@float32)")
    if not input.dtype.is_float():
        raise error(RuntimeError, f"Operation not support this dtype: {input.dtype}",
                    "convert the tile to a float type first, e.g. x.to(asc.float32)")
    input = vector_operand(input, f"@{kind}")
    return emit_tile("tile.unary", [input.handle], input.shape, input.dtype, kind=kind)


def sin(input): return _unary("sin", input)
def cos(input): return _unary("cos", input)
def tan(input): return _unary("tan", input)
def sinh(input): return _unary("sinh", input)
def cosh(input): return _unary("cosh", input)
def tanh(input): return _unary("tanh", input)
def exp(input): return _unary("exp", input, scalar_ok=True)
def exp2(input): return _unary("exp2", input)
def log(input): return _unary("log", input)
def log2(input): return _unary("log2", input)
def floor(input): return _unary("floor", input)
def ceil(input): return _unary("ceil", input)
def abs(input): return _unary("abs", input)  # noqa: A001
def erf(input): return _unary("erf", input, scalar_ok=True)
def sqrt(input): return _unary("sqrt", input, scalar_ok=True)
def rsqrt(input): return _unary("rsqrt", input)


def relu(input):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "this operation takes a tile (only @exp, @erf and @sqrt also take scalars)")
    require_location(input, (Location.UB, Location.L0C), "@relu")
    return emit_tile("tile.unary", [input.handle], input.shape, input.dtype, location_of(input), kind="relu")


def negative(input):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "this operation takes a tile (only @exp, @erf and @sqrt also take scalars)")
    if not input.dtype.is_float():
        raise not_supported(f"unary minus on an integer tile ({input.dtype})",
                            "multiply by -1 instead: x * -1")
    input = vector_operand(input, "negation")
    return emit_tile("tile.unary", [input.handle], input.shape, input.dtype, kind="neg")


def softmax(input):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "this operation takes a tile (only @exp, @erf and @sqrt also take scalars)")
    if str(input.dtype) not in ("float32", "float16"):
        raise error(RuntimeError, "Only float and half types are supported.",
                    "convert the tile with .to(@float32) first", name="input", dtype=input.dtype)
    if len(input.shape) > 2:
        raise error(RuntimeError, "Tensor dimensionality greater than two is not supported",
                    "reshape the tile to [rows, cols] with the normalised dimension last")
    input = vector_operand(input, "@softmax")
    return emit_tile("tile.softmax", [input.handle], input.shape, input.dtype)


def rms_norm(input, gamma, epsilon):
    if not isinstance(input, Tile) or not isinstance(gamma, Tile):
        raise error(TypeError, f"'input' and 'gamma' arguments must be Tiles, got {type(input)} and {type(gamma)}",
                    "load gamma as a tile of the row length")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (float, PlainValue)):
        raise error(TypeError, f"'epsilon' argument must be float or a runtime scalar, got {type(epsilon)}",
                    "write the epsilon as a float literal, e.g. 1e-5 (not 0)")
    if str(input.dtype) not in ("float32", "float16"):
        raise error(RuntimeError, "Only float and half types are supported.",
                    "convert the tile with .to(@float32) first", name="input", dtype=input.dtype)
    if len(input.shape) > 2:
        raise error(RuntimeError, "Tensor dimensionality greater than two is not supported.",
                    "reshape the tile to [rows, cols] with the normalised dimension last")
    if gamma.dtype != input.dtype:
        raise error(RuntimeError, f"gamma must have the input's dtype {input.dtype}, got {gamma.dtype}",
                    f"cast it: gamma.to(asc.{input.dtype})")
    if gamma.shape[-1] != input.shape[-1]:
        raise error(RuntimeError, f"gamma's last dimension {gamma.shape[-1]} differs from the input's {input.shape[-1]}",
                    "gamma holds one weight per element of the normalised (last) dimension")
    input, gamma = vector_operand(input, "@rms_norm"), vector_operand(gamma, "@rms_norm (gamma)")
    eps = to_scalar(epsilon, input.dtype)
    return emit_tile("tile.rms_norm", [input.handle, gamma.handle, eps.handle], input.shape, input.dtype)


for _k in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "exp", "exp2", "log", "log2", "floor", "ceil", "abs",
           "erf", "sqrt", "rsqrt", "relu", "softmax"):
    bind_tile_method(_k, globals()[_k])
bind_tile_method("__neg__", negative)


# -- op definitions and costs (executed by asc.sim.ops) -----------------------------------
def _unary_cost(op, hw):
    pipe, t = vector_cost(op.attrs["kind"])(op, hw)
    if op.results[0].type.location == Location.L0C:
        return ("FIX", 0.0)  # relu on L0C is fused into the fixpipe store
    return (pipe, t)


def _unary_work(op, align, arch):
    """pyasc-dev expands ``exp2`` and ``rsqrt`` into two instructions with two temporary tiles (as its
    compiler counts them); the other unary ops are one instruction each."""
    tile = -(-op.results[0].type.nbytes // align) * align
    return 2 * tile if op.attrs["kind"] in ("exp2", "rsqrt") else 0


def _unary_in_place(op):
    """pyasc-dev computes these in place under ``reuse_alloc``; its expansions of the others (sin, tanh,
    erf, floor, exp2, ...) keep the input and the result apart."""
    return op.attrs["kind"] in ("abs", "relu", "exp", "log", "sqrt")


define("tile.unary", cost=_unary_cost, in_place=_unary_in_place, work_bytes=_unary_work)


def _softmax_work(op, align, arch):
    """The scratch pyasc-dev's lowering gives a softmax of [rows, cols] (as its compiler counts it,
    measured): the input as float32, and a row max and row sum of float32 per row padded to a 32-byte
    block of the input dtype; at least 288 bytes, and for 16-bit inputs at least one float32 row more."""
    t = op.operands[0].type
    cols = t.shape[-1]
    rows = t.size // cols
    per_block = 32 // t.dtype.sizeof()
    need = 4 * t.size + 2 * 4 * (-(-rows // per_block) * per_block)
    return max(need, 288 + (4 * cols if t.dtype.sizeof() == 2 else 0))


define("tile.softmax", cost=vector_cost("softmax"), temp_factor=2, work_bytes=_softmax_work)
define("tile.rms_norm", cost=vector_cost("rms_norm"), temp_factor=2)

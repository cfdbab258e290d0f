"""Shared shape / dtype rules of the tile ops (pyasc's ``language/tile/utils.py``)."""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.builder import tracing_august
from ..core import dtype as dt
from ..core.errors import BinaryOperandTypeError, error
from ..core.ir_value import PlainValue

UB_BLOCK_SIZE = 32


def verify_shape(shape, name="shape"):
    try:
        shape = tuple(shape)
    except TypeError:
        raise error(RuntimeError, f"All values in '{name}' must be integers",
                    "tile shapes are lists of compile-time ints, e.g. [TILE] or [1, COLS]") from None
    if len(shape) == 0:
        raise error(RuntimeError, f"'{name}' must have at least one value",
                    "give the tile shape as a non-empty list, e.g. [TILE]")
    if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in shape):
        raise error(RuntimeError, f"All values in '{name}' must be integers",
                    "declare the parameter used in the shape as asc.ConstExpr[int] (a plain `int` "
                    "parameter is a runtime value)")
    shape = tuple(int(s) for s in shape)
    if not all(s > 0 for s in shape):
        raise error(RuntimeError, f"All values in '{name}' must be positive", "tile dimensions must be >= 1")
    return shape


def check_data_alignment(shape, dtype):
    if len(shape) <= 1:
        return
    try:
        size = dtype.sizeof()
    except ValueError:
        return
    if shape[-1] * size % UB_BLOCK_SIZE:
        multiple = UB_BLOCK_SIZE // np.gcd(UB_BLOCK_SIZE, size)
        raise error(RuntimeError,
                    f"Last dimension of tile must be aligned by 32 bytes, got {shape[-1]} x {size} bytes",
                    f"make the last tile dimension a multiple of {multiple} elements for {dtype} "
                    f"(pad the row and load with pad_value, or reshape the data)")


def operand_dtype(value):
    from .tile import Tile
    if isinstance(value, (Tile, PlainValue)):
        return value.dtype
    if isinstance(value, bool):
        return dt.int1
    if isinstance(value, numbers.Integral):
        return dt.int32
    if isinstance(value, numbers.Real):
        return dt.float32
    raise error(BinaryOperandTypeError, f"Operand of type {type(value)} is not supported",
                "operands are tiles, Python numbers or runtime scalars")


def infer_common_dtype(lhs, rhs):
    from .tile import Tile
    a, b = operand_dtype(lhs), operand_dtype(rhs)
    if a == b:
        return a
    if not (a.is_numeric() and b.is_numeric()) and not (str(a) == "int1" or str(b) == "int1"):
        raise error(RuntimeError, f"Operand dtypes must be numeric, got {a} and {b}",
                    "convert boolean tiles with .to(asc.int8) first")
    if a.is_unsigned() or b.is_unsigned():
        raise error(NotImplementedError, f"Unsigned dtype operands not supported, got {a} and {b}",
                    "use signed values: pass a signed numpy scalar (e.g. np.int32) or a Python int")
    lt, rt = isinstance(lhs, Tile), isinstance(rhs, Tile)
    if lt != rt:
        return lhs.dtype if lt else rhs.dtype
    if a.is_int() and b.is_int():
        return a if a.bitwidth > b.bitwidth else b
    if a.is_float() and b.is_float():
        if a.bitwidth != b.bitwidth:
            return a if a.bitwidth > b.bitwidth else b
        return a
    if a.bitwidth == b.bitwidth:
        return a if a.is_float() else b
    raise error(RuntimeError, f"Unable to infer common dtype between {a} and {b}",
                "convert one operand with .to(dtype) so both have the same element type")


def broadcast_shape(lhs, rhs):
    """NumPy's broadcast of two tile shapes (shorter shapes padded with 1s on the left), pyasc-dev's
    ``infer_common_shape_impl``; its error text when a dimension pair is neither equal nor 1."""
    lhs, rhs = tuple(lhs), tuple(rhs)
    if lhs == rhs:
        return lhs
    rank = max(len(lhs), len(rhs))
    a = (1,) * (rank - len(lhs)) + lhs
    b = (1,) * (rank - len(rhs)) + rhs
    if any(x != y and x != 1 and y != 1 for x, y in zip(a, b)):
        raise error(RuntimeError, f"Shapes are not broadcastable: {lhs} vs. {rhs}",
                    "dimensions align from the right and each pair must be equal or contain a 1 "
                    "(reshape one operand, e.g. x.reshape(rows, 1), first)")
    return tuple(max(x, y) for x, y in zip(a, b))


def infer_common_shape(lhs, rhs):
    """The shape of a binary op's result. August (pyasc-dev): tiles broadcast as in NumPy; April (pyasc
    ``7065cd7``): two tiles must have the same shape."""
    from .tile import Tile
    if isinstance(lhs, Tile) and isinstance(rhs, Tile):
        if lhs.shape != rhs.shape:
            if tracing_august():
                return broadcast_shape(lhs.shape, rhs.shape)
            raise error(RuntimeError, f"Shape mismatch: {list(lhs.shape)} vs. {list(rhs.shape)}",
                        "asc2 has no implicit broadcasting: use x.broadcast_to(*shape) or reshape first")
        return lhs.shape
    if isinstance(lhs, Tile):
        return lhs.shape
    if isinstance(rhs, Tile):
        return rhs.shape
    return None


def broadcast_tile(input, shape):
    """``input`` broadcast to ``shape`` (a ``tile.broadcast`` op; the tile itself when the shapes agree)."""
    from .tile import emit_tile, location_of
    src = tuple(input.shape)
    ok = len(src) <= len(shape) and all(s == d or s == 1 for s, d in zip(src[::-1], shape[::-1]))
    if not ok:
        text = (f"Cannot broadcast tensor with shape {src} to {tuple(shape)}" if tracing_august() else
                f"Cannot broadcast tile with shape {list(src)} to {list(shape)}")
        raise error(RuntimeError, text,
                    "every source dimension must equal the target's or be 1 (dimensions align from the right)")
    if src == tuple(shape):
        return input
    return emit_tile("tile.broadcast", [input.handle], shape, input.dtype, location_of(input))


SPLAT_DTYPES = ("int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")


def create_tile(value, dtype, shape, location=None):
    """Materialise an operand as a tile of ``shape`` and ``dtype`` (scalars are splatted)."""
    from .tile import Tile, splat
    if isinstance(value, Tile):
        if value.shape != tuple(shape):
            if tracing_august():  # pyasc-dev: value.to(dtype).broadcast_to(*shape)
                return broadcast_tile(value.to(dtype), tuple(shape))
            raise error(RuntimeError, "Tile shape doesn't match the required shape",
                        "asc2 has no implicit broadcasting: use x.broadcast_to(*shape)")
        return value.to(dtype)
    if isinstance(value, (numbers.Real, PlainValue, np.number)):
        if not isinstance(value, PlainValue) and str(dtype) not in SPLAT_DTYPES:
            raise error(ValueError, f"Unsupported dtype: {dtype}",
                        "scalar operands can be splatted into int8, int16, int32, float16, bfloat16 or float32 tiles")
        return splat(value, dtype, shape, location)
    raise error(BinaryOperandTypeError, f"Tile cannot be created from {type(value)}",
                "pass a tile, a Python number or a runtime scalar")

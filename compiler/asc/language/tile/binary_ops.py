"""Binary arithmetic and comparisons on tiles (``+ - * / // << >>``, ``== != > >= < <=``)."""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.builder import current_builder, tracing_august
from ...ir.registry import define, traits
from ...ir.types import Location
from ..core import dtype as dt
from ..core.errors import BinaryOperandTypeError, error, not_supported
from ..core.ir_value import PlainValue, to_scalar
from . import memory_ops
from .costs import vector_cost
from .tile import Tile, bind_tile_method, emit_tile, location_of, require_location
from .utils import create_tile, infer_common_dtype, infer_common_shape

_UB = (Location.UB,)


def _check_operand(x):
    if not isinstance(x, (Tile, PlainValue, numbers.Real, np.number)):
        raise error(BinaryOperandTypeError, f"Operand of type {type(x)} is not supported",
                    "operands are tiles, Python numbers or runtime scalars")


# pyasc-dev's dtypes of the August binary ops and comparisons (checked per tile operand)
_AUGUST_DTYPES = ("int16", "int32", "int64", "float16", "bfloat16", "float32")
_AUGUST_DIV_DTYPES = ("int16", "int32", "int64", "float16", "float32")
_AUGUST_CMP_DTYPES = ("int8", "int16", "int32", "float16", "bfloat16", "float32")


def _august_dtypes(input, other, allowed):
    if not tracing_august():
        return
    for name, x in (("input", input), ("other", other)):
        if isinstance(x, Tile) and str(x.dtype) not in allowed:
            raise error(RuntimeError, f"'{name}' dtype must be one of {', '.join(allowed)}, got {x.dtype}",
                        f"convert the tile first, e.g. x.to(@{'int16' if x.dtype.is_int() else 'float32'})")


def check_august_scalar(tile, scalar):
    """pyasc-dev materialises a Python scalar operand in the tile's dtype, and its builder has no integer
    attribute for a float literal: an integer tile with a float literal is refused there, not truncated."""
    if tracing_august() and tile.dtype.is_int() and isinstance(scalar, (float, np.floating)):
        raise error(TypeError, f"a float scalar ({scalar!r}) cannot be combined with an {tile.dtype} tile: it would "
                    f"be truncated to {tile.dtype}", "write an integer, or convert the tile first, e.g. x.to(@float32)")


def _binary(kind, input, other, symbol=None):
    _august_dtypes(input, other, _AUGUST_DIV_DTYPES if kind == "div" else _AUGUST_DTYPES)
    if not isinstance(input, Tile) and not isinstance(other, Tile):
        raise error(BinaryOperandTypeError, f"At least one operand must be tile, got {type(input)} and "
                    f"{type(other)}", "for two scalars use Python operators; tile ops need a tile operand")
    _check_operand(input)
    _check_operand(other)
    dtype = infer_common_dtype(input, other)
    shape = infer_common_shape(input, other)
    name = symbol or kind
    input, other = memory_ops.vector_operand(input, f"'{name}'"), memory_ops.vector_operand(other, f"'{name}'")
    # pyasc-dev lowers an August integer '/' to arith.divsi (truncating); the April lowering had no such path
    if kind == "div" and dtype.is_int() and isinstance(input, Tile) and isinstance(other, Tile) \
            and not tracing_august():
        raise not_supported("integer tile / tile division",
                            "convert to float first: (a.to(asc.float32) / b.to(asc.float32))")
    if isinstance(input, Tile) and isinstance(other, Tile):
        a, b = create_tile(input, dtype, shape), create_tile(other, dtype, shape)
        return emit_tile("tile.binary", [a.handle, b.handle], shape, dtype, kind=kind)
    tile, scalar, reverse = (input, other, False) if isinstance(input, Tile) else (other, input, True)
    check_august_scalar(tile, scalar)
    s = to_scalar(scalar, dtype)
    return emit_tile("tile.binary_scalar", [tile.to(dtype).handle, s.handle], shape, dtype, kind=kind, reverse=reverse)


def _shift(kind, input, other):
    if not isinstance(input, Tile):
        raise error(BinaryOperandTypeError, f"At least one operand must be tile, got {type(input)} and "
                    f"{type(other)}", "for two scalars use Python operators; tile ops need a tile operand")
    label = "Left" if kind == "lshift" else "Right"
    ok = (isinstance(other, int) and not isinstance(other, bool) and other >= 0) or \
         (isinstance(other, PlainValue) and other.dtype.is_int())
    if not ok:
        raise error(BinaryOperandTypeError, f"{label} shift requires positive integer operand, got {other!r}",
                    "shift by a non-negative int or an integer scalar")
    if not input.dtype.is_int():
        raise error(RuntimeError, f"Operation not support this dtype: {input.dtype}",
                    "shifts work on integer tiles; convert with .to(asc.int32) or multiply by a power of two")
    s = to_scalar(other, input.dtype)
    return emit_tile("tile.binary_scalar", [input.handle, s.handle], input.shape, input.dtype, kind=kind, reverse=False)


def _compare(mode, input, other):
    _august_dtypes(input, other, _AUGUST_CMP_DTYPES)
    if not isinstance(input, Tile) and not isinstance(other, Tile):
        raise error(BinaryOperandTypeError, f"At least one operand must be tile, got {type(input)} and "
                    f"{type(other)}", "for two scalars use Python operators; tile ops need a tile operand")
    _check_operand(input)
    _check_operand(other)
    dtype = infer_common_dtype(input, other)
    shape = infer_common_shape(input, other)
    input, other = memory_ops.vector_operand(input, "comparison"), memory_ops.vector_operand(other, "comparison")
    if str(dtype) == "int8" and current_builder().arch == "c220":
        # C220 compares integers through a float cast of i16 / i32 tiles (pyasc's LowerAscTileI1)
        raise error(RuntimeError, "can only be lowered with i16 or i32 tile operands",
                    f"on {current_builder().platform.value} compare int8 tiles after converting them with .to(asc.int16)")
    if isinstance(input, Tile) and isinstance(other, Tile):
        a, b = create_tile(input, dtype, shape), create_tile(other, dtype, shape)
        return emit_tile("tile.cmp", [a.handle, b.handle], shape, dt.int1, mode=mode)
    tile, scalar, reverse = (input, other, False) if isinstance(input, Tile) else (other, input, True)
    check_august_scalar(tile, scalar)
    return emit_tile("tile.cmp_scalar", [tile.to(dtype).handle, to_scalar(scalar, dtype).handle], shape, dt.int1,
                     mode=mode, reverse=reverse)


def add(input, other): return _binary("add", input, other, "+")
def sub(input, other): return _binary("sub", input, other, "-")
def mul(input, other): return _binary("mul", input, other, "*")
def div(input, other): return _binary("div", input, other, "/")
def maximum(input, other): return _binary("max", input, other, "maximum")
def minimum(input, other): return _binary("min", input, other, "minimum")
def left_shift(input, other): return _shift("lshift", input, other)
def right_shift(input, other): return _shift("rshift", input, other)
def equal(input, other): return _compare("eq", input, other)
def not_equal(input, other): return _compare("ne", input, other)
def greater(input, other): return _compare("gt", input, other)
def greater_equal(input, other): return _compare("ge", input, other)
def less(input, other): return _compare("lt", input, other)
def less_equal(input, other): return _compare("le", input, other)


for _name, _fn in (("__add__", add), ("__sub__", sub), ("__mul__", mul), ("__truediv__", div),
                   ("__floordiv__", div), ("__lshift__", left_shift), ("__rshift__", right_shift),
                   ("__eq__", equal), ("__ne__", not_equal), ("__gt__", greater), ("__ge__", greater_equal),
                   ("__lt__", less), ("__le__", less_equal)):
    bind_tile_method(_name, _fn, operator=True)


# -- op definitions and costs (executed by asc.sim.ops) -----------------------------------
_COMMUTATIVE = ("add", "mul", "max", "min")


def _scalar_operand(op, index, arch):
    """pyasc-dev reads a constant operand as the scalar of one instruction (``x + full(c)`` is one Adds)
    where the instruction has a scalar form: either side of a commutative op; the right of ``-`` and
    ``/`` on C310 only (C220 has no Subs / Divs)."""
    return op.attrs["kind"] in _COMMUTATIVE or (index == 1 and arch == "c310")


def _scalar_work(op, align, arch):
    """The tile pyasc-dev fills with the scalar: for ``-`` and ``/`` on C220 (no Subs / Divs there), and on
    C310 for a scalar read straight from a reduction (UnscalarizeReduction keeps it a broadcast tile)."""
    need = op.attrs["kind"] in ("sub", "div") if arch == "c220" else \
        getattr(op.operands[1].owner, "name", None) == "tile.reduce_all"
    return -(-op.results[0].type.nbytes // align) * align if need else 0


define("tile.binary", cost=vector_cost(lambda op: op.attrs["kind"]), in_place=True, scalar_constants=_scalar_operand)


define("tile.binary_scalar", cost=vector_cost(lambda op: op.attrs["kind"]), in_place=True, work_bytes=_scalar_work)
def _compare_work(op, align, arch):
    """Integer comparisons in pyasc-dev's lowering: C220 compares through float casts of the tile operands
    (LowerAscTileI1: a tile each); an integer tile compared with a scalar gets the scalar filled into a tile."""
    if not op.operands[0].type.dtype.is_int():
        return 0
    tile = -(-op.operands[0].type.nbytes // align) * align
    if op.name == "tile.cmp_scalar":
        return tile
    return 2 * tile if arch == "c220" else 0


define("tile.cmp", cost=vector_cost("compare"), scalar_constants=True, work_bytes=_compare_work)
define("tile.cmp_scalar", cost=vector_cost("compare"), work_bytes=_compare_work)


# -- cube: matrix multiply ------------------------------------------------------------------------
# Operands of the cube unit: left in L0A, right in L0B; the result is float32 in L0C.
def _verify_matmul(input, other):
    """pyasc's operand checks; returns the operands as the cube reads them (``cube_operand``)."""
    if not isinstance(input, Tile) or not isinstance(other, Tile):
        raise error(BinaryOperandTypeError, f"Input operands must be tiles, got {type(input)} and {type(other)}",
                    "multiply an L0A tile by an L0B tile; scale the result after storing it")
    if input.dtype != other.dtype:
        raise error(RuntimeError, f"Input tiles must have the same types, got {input.dtype} and {other.dtype}",
                    "cast one operand with .to() before loading it into L0A / L0B")
    if str(input.dtype) not in ("float32", "float16", "bfloat16"):
        raise error(RuntimeError, f"Input tiles have unsupported types: {input.dtype}",
                    "the cube unit takes float16, bfloat16 or float32 operands")
    if len(input.shape) != 2 or len(other.shape) != 2:
        raise error(RuntimeError, f"Input tiles must have two dims, got {len(input.shape)} and {len(other.shape)}",
                    "load the operands as 2-D tiles, e.g. [m_tile, k] and [k, n_tile]")
    if input.shape[1] != other.shape[0]:
        text = (f"Input tensors have incompatible shapes: {tuple(input.shape)}, {tuple(other.shape)}"
                if tracing_august() else
                f"Input tiles have incompatible shapes: {list(input.shape)}, {list(other.shape)}")
        raise error(RuntimeError, text,
                    "the left tile's last dimension (K) must equal the right tile's first dimension")
    input, other = memory_ops.cube_operand(input, Location.L0A), memory_ops.cube_operand(other, Location.L0B)
    require_location(input, (Location.L0A,), "@matmul (left operand)")
    require_location(other, (Location.L0B,), "@matmul (right operand)")
    return input, other


def _check_hf32(hf32, input):
    if not isinstance(hf32, bool):
        raise error(TypeError, f"'hf32' argument must be bool, got {type(hf32).__name__}",
                    "pass hf32=True or hf32=False")
    if hf32 and input.dtype != dt.float32:
        raise error(RuntimeError, "HF32 mode can only be set when input tensor dtype is float32",
                    "drop hf32=True: float16 / bfloat16 operands are multiplied exactly already")


def _check_bias(bias, size):
    """pyasc's bias rule: a 1-D float16 / bfloat16 / float32 tile of the output's column count, in BT;
    returns the bias as the cube reads it (``cube_operand``)."""
    if not isinstance(bias, Tile):
        raise error(TypeError, f"'bias' argument must be LocalTensor, got {type(bias).__name__}",
                    "load the bias row into BT: @copy_in(bias_gm, [0], [n], @TileLocation.BT)")
    if str(bias.dtype) not in ("bfloat16", "float16", "float32"):
        raise error(RuntimeError, f"'bias' dtype must be one of bfloat16, float16, float32, got {bias.dtype}",
                    "convert the bias on the host to float16 / bfloat16 / float32")
    if len(bias.shape) != 1:
        raise error(RuntimeError, f"Bias must be 1D tensor, got shape {tuple(bias.shape)}",
                    "the bias is one row: one value per output column")
    if bias.size != size:
        raise error(RuntimeError, f"Bias shape {bias.size} must match last output dimension {size}",
                    "the bias has one value per column of the result (the right operand's columns)")
    bias = memory_ops.cube_operand(bias, Location.BT)
    require_location(bias, (Location.BT,), "@matmul bias")
    return bias


def matmul(input, other, bias=None, *, hf32=False):
    """``matmul(input, other, bias=None, *, hf32=False)``: ``input @ other`` (+ the bias row, promoted to
    float32) into a float32 L0C tile; ``hf32`` rounds float32 operands to HF32 first."""
    input, other = _verify_matmul(input, other)
    _check_hf32(hf32, input)
    operands = [input.handle, other.handle]
    if bias is not None:
        bias = _check_bias(bias, other.shape[1])
        operands.append(bias.handle)
    attrs = {"hf32": True} if hf32 else {}
    return emit_tile("tile.matmul", operands, (input.shape[0], other.shape[1]), dt.float32, Location.L0C, **attrs)


def _from_accumulator(value):
    owner = value.owner
    if hasattr(owner, "name"):
        return traits(owner.name).accumulator
    init = current_builder().carried_init.get(value.id)
    return init is not None and _from_accumulator(init)


def _is_accumulator(t):
    return isinstance(t, Tile) and location_of(t) == Location.L0C


def matmul_acc(*args, hf32=False, **kwargs):
    """``matmul_acc(acc, input, other)`` (August) or ``matmul_acc(input, other, acc)`` (April): the
    accumulator is the L0C tile, so both orders are unambiguous."""
    if not isinstance(hf32, bool):
        raise error(TypeError, f"'hf32' argument must be bool, got {type(hf32).__name__}",
                    "pass hf32=True or hf32=False")
    unknown = sorted(set(kwargs) - {"input", "other", "acc"})
    if unknown or len(args) + len(kwargs) != 3:
        raise error(TypeError, f"matmul_acc() takes an accumulator and two operands, got {len(args)} positional "
                    f"and keyword(s) {sorted(kwargs)}", "call @matmul_acc(acc, a, b) (accumulator first) or "
                    "matmul_acc(a, b, acc)")
    august = tracing_august()
    if "acc" in kwargs or len(args) == 3 and not _is_accumulator(args[0]) and _is_accumulator(args[2]):
        names = ("input", "other", "acc")
    elif args and (_is_accumulator(args[0]) or august):  # August: pyasc-dev's order, accumulator first
        names = ("acc", "input", "other")
    else:
        names = ("input", "other", "acc")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k in bound:
            raise error(TypeError, f"matmul_acc() got multiple values for argument '{k}'",
                        "pass each of acc, input, other once")
        bound[k] = v
    return _matmul_acc(bound["input"], bound["other"], bound["acc"], hf32)


def _check_acc_type(acc):
    if not isinstance(acc, Tile):
        raise error(TypeError, f"'acc' argument must be Tile, got {type(acc)}",
                    "pass the accumulator created by @zeros_acc([M, N], @float32)")


def _check_acc_dtype(acc):
    if acc.dtype != dt.float32:
        raise error(RuntimeError, f"Accumulation tile have unsupported types: {acc.dtype}",
                    "the cube accumulates in float32: @zeros_acc([M, N], @float32); cast on the store")


def _matmul_acc(input, other, acc, hf32=False):
    if tracing_august():  # pyasc-dev checks the accumulator's type and dtype before the operands
        _check_acc_type(acc)
        _check_acc_dtype(acc)
    input, other = _verify_matmul(input, other)
    _check_hf32(hf32, input)
    _check_acc_type(acc)
    if len(acc.shape) != 2:
        raise error(RuntimeError, f"Accumulation tile must have two dims, got {len(acc.shape)}",
                    "create the accumulator as @zeros_acc([M, N], @float32)")
    _check_acc_dtype(acc)
    if not _from_accumulator(acc.handle):
        raise error(RuntimeError, "Incorrect use of accumulator in matmul operation.",
                    "create the accumulator with @zeros_acc([M, N], asc.float32) and only update it with @matmul_acc")
    if tuple(acc.shape) != (input.shape[0], other.shape[1]):
        raise error(RuntimeError, f"Accumulation tile shape {list(acc.shape)} does not match the product shape "
                    f"{[input.shape[0], other.shape[1]]}",
                    "size the accumulator [M, N] from the left tile's rows and the right tile's columns")
    # The accumulator is updated in place: the Python object now names the new value.
    attrs = {"hf32": True} if hf32 else {}
    new = emit_tile("tile.matmul_acc", [input.handle, other.handle, acc.handle], acc.shape, dt.float32, Location.L0C,
                    **attrs)
    acc.handle = new.handle
    return None


bind_tile_method("__matmul__", matmul, operator=True)


def _mmad_cost(op, hw):
    a, b = op.operands[0].type, op.operands[1].type
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    return ("M", hw.mmad_busy(m, k, n, 4 if str(a.dtype) == "float32" else 2))


define("tile.matmul", cost=_mmad_cost)
define("tile.matmul_acc", cost=_mmad_cost, accumulator=True)

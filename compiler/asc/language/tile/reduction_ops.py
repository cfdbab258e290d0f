"""Reductions: ``reduce_sum / max / min / prod`` over dims, or over the whole tile to a scalar.

Numerics: float16 / bfloat16 tiles are accumulated in float32 and the result rounded once to the
input dtype; float32 tiles are summed in float32 with numpy's pairwise summation; integer sums wrap.
"""
from __future__ import annotations

from ...ir.builder import current_builder, tracing_august
from ...ir.registry import define
from ...ir.types import ScalarType
from ..core.errors import error
from ..core.ir_value import PlainValue
from .costs import reduce_cost
from .memory_ops import vector_operand
from .tile import Tile, bind_tile_method, emit_tile, location_of


# pyasc-dev's dtypes per reduction (``asctile/language/reduction_ops.py``): over dims, and to a scalar.
_AUGUST_DTYPES = {
    "sum": (("int32", "int64", "float32"), ("int64", "float16", "float32")),
    "max": (("int8", "int16", "int32", "int64", "float16", "bfloat16", "float32"),
            ("int16", "int32", "int64", "float16", "float32")),
    "prod": (("float32",), ()),
}
_AUGUST_DTYPES["min"] = _AUGUST_DTYPES["max"]


def _check_dtype(input, allowed, hint):
    if str(input.dtype) not in allowed:
        raise error(RuntimeError, f"'input' dtype must be {'one of ' if len(allowed) > 1 else ''}"
                    f"{', '.join(allowed)}, got {input.dtype}", hint)


def _august_reduce(kind, input, dims, keep_dims):
    """pyasc-dev's front-end rules of a reduction in an August kernel; returns the result when no op is
    needed (every reduced dimension has size 1), else None."""
    if not isinstance(keep_dims, bool):
        raise error(TypeError, f"'keep_dims' argument must be bool, got {type(keep_dims).__name__}",
                    "pass keep_dims=True or keep_dims=False")
    over_dims, to_scalar = _AUGUST_DTYPES[kind]
    if not dims:
        if not to_scalar:
            raise error(RuntimeError, "Reduction to scalar not supported",
                        "reduce over explicit dims, e.g. @reduce_prod(x, 0)")
        _check_dtype(input, to_scalar, "cast the tile first, e.g. x.to(@float32)")
        return None
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise error(TypeError, "All reduction dimensions must be int", "pass dims as compile-time ints, e.g. 1")
    if len(dims) != len(set(dims)):
        raise error(RuntimeError, "Repeating dimensions are not allowed", "name each dimension once")
    rank = len(input.shape)
    if not all(0 <= d < rank for d in dims):
        raise error(RuntimeError, f"All reduction dimensions must be between 0 and {rank - 1}",
                    f"count dimensions from 0 (upstream takes no negative dims): the last one is {rank - 1}")
    if not any(input.shape[d] > 1 for d in dims):   # nothing to reduce: upstream returns the tile itself
        return input if keep_dims else input.reshape(*[s for i, s in enumerate(input.shape) if i not in dims] or [1])
    _check_dtype(input, over_dims, "cast the tile first, e.g. x.to(@float32)")
    if not keep_dims and len(dims) == rank:
        raise error(RuntimeError, "Reduction along all dimensions is not supported",
                    "reduce without dims to get a scalar, or pass keep_dims=True")
    return None


def _reduce(kind, input, dims, keep_dims):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "reductions take a tile; a scalar is already reduced")
    input = vector_operand(input, f"@reduce_{kind}")
    if tracing_august():
        done = _august_reduce(kind, input, dims, keep_dims)
        if done is not None:
            return done
    if str(input.dtype) == "int1":
        raise error(RuntimeError, "Operation not support this dtype: int1",
                    "convert the boolean tile first, e.g. (x > 0).to(asc.int32)")
    if not dims:
        if kind == "prod":
            raise error(RuntimeError, "Reduction to scalar not supported",
                        "reduce over explicit dims, e.g. @reduce_prod(x, 0)")
        op = current_builder().create("tile.reduce_all", [input.handle], [ScalarType(input.dtype)], {"kind": kind})
        return PlainValue(op.result)
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in dims):
        raise error(RuntimeError, "All reduction dimensions must be integers",
                    "pass dims as compile-time ints, e.g. @reduce_sum(x, 1)")
    rank = len(input.shape)
    norm = []
    for d in dims:
        if not -rank <= d < rank:
            raise error(IndexError, f"reduction dimension {d} is out of range for a rank-{rank} tile",
                        "dims count from 0 (or from the end with negative values) and must be below the tile's rank")
        norm.append(d % rank)
    shape = [1 if i in norm else s for i, s in enumerate(input.shape)] if keep_dims else \
        [s for i, s in enumerate(input.shape) if i not in norm]
    if not shape:
        shape = [1]
    return emit_tile("tile.reduce", [input.handle], shape, input.dtype, location_of(input),
                     kind=kind, dims=tuple(sorted(set(norm))), keep_dims=bool(keep_dims))


def reduce_sum(input, *dims, keep_dims=False): return _reduce("sum", input, dims, keep_dims)
def reduce_max(input, *dims, keep_dims=False): return _reduce("max", input, dims, keep_dims)
def reduce_min(input, *dims, keep_dims=False): return _reduce("min", input, dims, keep_dims)
def reduce_prod(input, *dims, keep_dims=False): return _reduce("prod", input, dims, keep_dims)


bind_tile_method("sum", reduce_sum)
bind_tile_method("max", reduce_max)
bind_tile_method("min", reduce_min)
bind_tile_method("prod", reduce_prod)


def _reduce_cost(op, hw):
    """Reading a reduced scalar on the scalar unit (V -> S) is a stall the schedule adds where the scalar is
    used; the call itself costs ``costs.reduce_cost``."""
    return reduce_cost(op, hw)


def _reduce_all_work(op, align, arch):
    """The scratch of a reduction to a scalar (pyasc-dev's lowering, as its compiler counts it): one
    partial result per 256-byte repeat, in whole 32-byte blocks."""
    t = op.operands[0].type
    return -(-t.nbytes // 256 * t.dtype.sizeof() // 32) * 32


def _reduce_all_result(op, align):
    """The tile the scalar result is written to, one element in a whole allocation unit of ``align`` bytes;
    the scalar is read out of it where it is used."""
    size = op.operands[0].type.dtype.sizeof()
    return -(-size // align) * align


define("tile.reduce_all", cost=_reduce_cost, work_bytes=_reduce_all_work, scalar_tile=_reduce_all_result)
def _reduce_work(op, align, arch):
    """The scratch of a reduction over dims (pyasc-dev's lowering): the input's elements as float32 (or
    wider), unless the reduction is the last reader of its input and works in it (``source_scratch``)."""
    t = op.operands[0].type
    return -(-max(4, t.dtype.sizeof()) * t.size // align) * align


define("tile.reduce", cost=_reduce_cost, work_bytes=_reduce_work, source_scratch=True)

"""Reductions: ``reduce_sum / max / min / prod`` over dims, or over the whole tile to a scalar.

Numerics: float16 / bfloat16 tiles are accumulated in float32 and the result rounded once to the
input dtype; float32 tiles are summed in float32 with numpy's pairwise summation; integer sums wrap.
"""
from __future__ import annotations

from ...ir.builder import current_builder
from ...ir.registry import define
from ...ir.types import ScalarType
from ..core.errors import error
from ..core.ir_value import PlainValue
from .costs import reduce_cost
from .memory_ops import vector_operand
from .tile import Tile, bind_tile_method, emit_tile, location_of


def _reduce(kind, input, dims, keep_dims):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "reductions take a tile; a scalar is already reduced")
    input = vector_operand(input, f"@reduce_{kind}")
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


define("tile.reduce_all", cost=_reduce_cost)
define("tile.reduce", cost=_reduce_cost)

"""The programming model: which block am I, how many blocks run, how many tiles cover an axis."""
from __future__ import annotations

from ...ir.builder import current_builder
from ...ir.registry import define, scalar_cost
from ...ir.types import ScalarType
from ..core import dtype as dt
from ..core.errors import error
from ..core.utils import ceildiv
from .tensor import Tensor
from .utils import verify_shape


def block_idx():
    return _scalar("block.idx")


def block_num():
    return _scalar("block.num")


def _scalar(name):
    from ..core.ir_value import PlainValue
    return PlainValue(current_builder().create(name, [], [ScalarType(dt.int32)]).result)


def num_tiles(tensor, axis, shape):
    if not isinstance(tensor, Tensor):
        raise error(TypeError, f"'tensor' argument must be an @tensor, got {type(tensor)}",
                    "wrap the pointer first: t = @tensor(ptr, shape)")
    shape = verify_shape(shape)
    if len(shape) != tensor.rank:
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    "give the tile shape with one entry per tensor dimension")
    if not isinstance(axis, int):
        raise error(TypeError, f"'axis' must be a Python int, got {type(axis)}",
                    "the axis is a compile-time int, e.g. 0")
    if axis >= len(shape):
        raise error(ValueError, f"axis ({axis}) exceeds number of dimensions",
                    "axis counts from 0 and must be below the tensor's rank")
    return ceildiv(tensor.shape[axis], shape[axis])


define("block.idx", cost=scalar_cost)
define("block.num", cost=scalar_cost)

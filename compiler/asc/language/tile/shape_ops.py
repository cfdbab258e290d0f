"""Shape ops: ``broadcast_to``, ``reshape``, ``ravel``, ``expand_dims``, ``squeeze``, ``transpose`` (all Tile
methods)."""
from __future__ import annotations

import numpy as np

from ...ir.builder import tracing_august
from ...ir.registry import define
from ...ir.types import Location
from ..core.errors import error
from .costs import vector_cost
from .tile import Tile, bind_tile_method, emit_tile, location_of
from .utils import check_data_alignment, verify_shape


def _tile(input):
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}", "shape operations take a tile")


def broadcast_to(input, *shape):
    _tile(input)
    august = tracing_august()
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        if not august:  # pyasc 7065cd7 takes varargs only; pyasc-dev also a sequence
            raise error(RuntimeError, "All values in 'shape' must be integers",
                        "pass the shape as separate arguments: x.broadcast_to(*shape) or x.broadcast_to(4, 32)")
        shape = tuple(shape[0])
    shape = verify_shape(shape)
    src = input.shape
    ok = len(src) <= len(shape) and all(s == d or s == 1 for s, d in zip(src[::-1], shape[::-1]))
    if not ok:
        text = (f"Cannot broadcast tensor with shape {tuple(src)} to {tuple(shape)}" if august else
                f"Cannot broadcast tile with shape {list(src)} to {list(shape)}")
        raise error(RuntimeError, text,
                    "every source dimension must equal the target's or be 1 (dimensions align from the right)")
    if tuple(src) == tuple(shape):
        return input
    return emit_tile("tile.broadcast", [input.handle], shape, input.dtype, location_of(input))


def reshape(input, *shape):
    _tile(input)
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    shape = verify_shape(shape)
    if int(np.prod(shape)) != input.size:
        raise error(RuntimeError, "Result tile must have the same number of elements as input tile",
                    "the new shape must hold exactly the tile's elements")
    if tuple(shape) == tuple(input.shape):
        return input
    return emit_tile("tile.reshape", [input.handle], shape, input.dtype, location_of(input))


def ravel(input):
    _tile(input)
    return reshape(input, input.size)


def expand_dims(input, *axis):
    _tile(input)
    shape = list(input.shape)
    for a in sorted(set(axis)):
        shape.insert(a, 1)
    return reshape(input, *shape)


def squeeze(input, *axis):
    _tile(input)
    shape = list(input.shape)
    if not axis:
        new = [s for s in shape if s != 1] or [1]
    else:
        for a in axis:
            if shape[a] != 1:
                raise error(RuntimeError, f"Unable to squeeze the axis {a} since its length must be 1, got {shape[a]}",
                            "squeeze only size-1 axes (or call squeeze() without axes)")
        drop = {a % len(shape) for a in axis}
        new = [s for i, s in enumerate(shape) if i not in drop] or [1]
    return reshape(input, *new)


def transpose(input):
    """The 2-D transpose of a UB tile (a vector transpose: the result's rows are 32-byte aligned too)."""
    _tile(input)
    if len(input.shape) != 2:
        raise error(RuntimeError, f"transpose takes a 2-D tile, got {len(input.shape)} dimension(s)",
                    "reshape the tile to [rows, cols] first")
    if location_of(input) != Location.UB:
        raise error(RuntimeError, "transpose works on UB tiles only", "transpose before moving a tile to L1 / L0")
    rows, cols = input.shape
    check_data_alignment((cols, rows), input.dtype)
    return emit_tile("tile.transpose", [input.handle], (cols, rows), input.dtype, Location.UB)


for _n in ("broadcast_to", "reshape", "ravel", "expand_dims", "squeeze", "transpose"):
    bind_tile_method(_n, globals()[_n])


define("tile.transpose", cost=vector_cost())
define("tile.broadcast", cost=vector_cost())
define("tile.reshape", cost=lambda op, hw: ("S", 0.0), zero_copy=True)

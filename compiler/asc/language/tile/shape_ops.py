"""Shape ops: ``broadcast_to``, ``reshape``, ``ravel``, ``expand_dims``, ``squeeze``, ``transpose`` (all Tile
methods)."""
from __future__ import annotations

import numpy as np

from ...ir.builder import localise, tracing_august
from ...ir.registry import define
from ...ir.types import Location
from ..core.errors import error
from .costs import vector_cost
from .memory_ops import is_auto_load, vector_operand
from .tile import Tile, august_attribute, bind_tile_method, emit_tile, location_of
from .utils import broadcast_shape, broadcast_tile, check_data_alignment, verify_shape


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
    if tuple(shape) != tuple(input.shape):
        input = vector_operand(input)  # pyasc-dev broadcasts in UB (an L0C tile is copied there first)
    return broadcast_tile(input, shape)


def reshape(input, *shape):
    _tile(input)
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = tuple(shape[0])
    shape = verify_shape(shape)
    if int(np.prod(shape)) != input.size:
        raise error(RuntimeError, "Result tile must have the same number of elements as input tile",
                    "the new shape must hold exactly the tile's elements", shape=input.shape, new_shape=shape)
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


def transpose(input, *axis):
    """The 2-D transpose of a UB tile (a vector transpose: the result's rows are 32-byte aligned too)."""
    _tile(input)
    if axis:
        raise error(RuntimeError, "transpose takes no axes in asc2: it swaps the two dimensions of a 2-D tile",
                    "call x.transpose()")
    if len(input.shape) != 2:
        raise error(RuntimeError, f"transpose takes a 2-D tile, got {len(input.shape)} dimension(s)",
                    "reshape the tile to [rows, cols] first")
    if location_of(input) != Location.UB:
        raise error(RuntimeError, "transpose works on UB tiles only", "transpose before moving a tile to L1 / L0")
    rows, cols = input.shape
    check_data_alignment((cols, rows), input.dtype)
    return emit_tile("tile.transpose", [input.handle], (cols, rows), input.dtype, Location.UB)


_TRANSPOSE_DTYPES = ("int8", "int16", "int32", "float16", "bfloat16", "float32")


def transpose_axes(input, *axis):
    """pyasc-dev's ``transpose(input, *axis)``: the dimensions of a UB tile in the order ``axis`` (by
    default the last two swapped); the identity order returns the tile itself."""
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be LocalTensor, got {type(input).__name__}",
                    "transpose takes a tile")
    if str(input.dtype) not in _TRANSPOSE_DTYPES:
        raise error(RuntimeError, f"'input' dtype must be one of {', '.join(_TRANSPOSE_DTYPES)}, got {input.dtype}",
                    "convert the tile first, e.g. x.to(@float32)")
    rank = len(input.shape)
    if len(axis) == 1 and isinstance(axis[0], (list, tuple)):
        axis = tuple(axis[0])
    if not axis:
        if rank < 2:
            raise error(RuntimeError, f"transpose without axes swaps the last two dimensions; the tile has {rank}",
                        "reshape the tile to two dimensions first")
        axis = list(range(rank))
        axis[-1], axis[-2] = axis[-2], axis[-1]
    if len(axis) != rank:
        raise error(RuntimeError, f"Transpose axis count {len(axis)} should match count of tensor dimensions {rank}",
                    f"give one axis per dimension, e.g. transpose({', '.join(map(str, reversed(range(rank))))})")
    if list(axis) == list(range(rank)):
        return input
    if set(axis) != set(range(rank)) or not all(isinstance(a, int) for a in axis):
        raise error(RuntimeError, f"Wrong dimensions rearrangement {axis} for tensor of {rank} dimensions",
                    f"the axes must be a permutation of 0..{rank - 1}")
    loc = location_of(input)
    if loc in _CUBE_LOCATIONS or (rank == 2 and is_auto_load(input)):   # an Auto load: decided by its uses
        return _cube_transpose(input, rank)
    if loc == Location.L0C:  # pyasc-dev transposes a matmul result in UB (copied there at this line)
        input = vector_operand(input)
    elif loc != Location.UB:
        raise error(RuntimeError, f"transpose works on UB, L1, L0A, L0B and L0C tiles, got a tile in {loc.name}",
                    "transpose the data before moving it to this location")
    shape = tuple(input.shape[a] for a in axis)
    check_data_alignment(shape, input.dtype)
    if rank == 2:  # the same op (and cost) as the April transpose
        return emit_tile("tile.transpose", [input.handle], shape, input.dtype, Location.UB)
    return emit_tile("tile.transpose", [input.handle], shape, input.dtype, Location.UB, perm=tuple(axis))


# -- transposes on the cube's side (August) ----------------------------------------------------------
# pyasc-dev's front end takes ``transpose`` / ``.T`` of any tile; for an L1 / L0A / L0B tile its
# CubeTransposeToLoad pass folds the transpose into the load that fills the tile (an L1 -> L0 LoadData,
# or the GM -> L1 Nd2Nz copy, with its transpose flag): an MTE load like any other, no vector work. A
# tile that is read both transposed and as it is, or a transpose of a transpose, has no such load and
# fails in that pass (``check_cube_transposes``, run once the kernel is traced).
_CUBE_LOCATIONS = (Location.L1, Location.L0A, Location.L0B)
_NOT_ON_CUBE = {Location.L1: "failed to legalize operation 'asctile.transpose' that was explicitly marked illegal"}
_NOT_ON_CUBE_DEFAULT = "'asctile.transpose' op not supported on cube"


def _cube_transpose(input, rank):
    if rank != 2:
        raise error(RuntimeError, _NOT_ON_CUBE.get(location_of(input), _NOT_ON_CUBE_DEFAULT),
                    "the cube transposes 2-D operands only: transpose a 2-D window")
    rows, cols = input.shape
    return emit_tile("tile.cube_transpose", [input.handle], (cols, rows), input.dtype, location_of(input))


def cube_transpose_fault(fn, uses):
    """pyasc-dev's rule for transposes on the cube's side, checked on the traced function ``fn`` (``uses``:
    ``ir.analysis.readers``): the transposed tile comes from a load or a copy, and every use of it is a
    transpose (the load then writes the transposed layout). Returns the first transpose breaking it as
    (op, message, hint), else None."""
    for op in (op for op in fn.walk() if op.name == "tile.cube_transpose"):
        src = op.operands[0]
        loaded = getattr(src.owner, "name", None) in ("tile.load", "tile.copy")
        if loaded and all(u.name == "tile.cube_transpose" for u in uses[src.id]):
            continue
        loc = src.type.location
        hint = (f"an {loc.name} tile is transposed by the load that fills it, and this one is also read without "
                f"the transpose: load the data a second time for the transposed use, e.g. @copy(l1_tile, offsets, "
                f"shape, @TensorLocation.{loc.name}).T" if loaded else
                f"an {loc.name} tile is transposed by the load that fills it: transpose the tile a load or copy "
                f"returns, once (a transpose of a transpose is the tile itself)")
        return op, _NOT_ON_CUBE.get(loc, _NOT_ON_CUBE_DEFAULT), localise(hint, fn.dialect)
    return None


_RANK_OVER_2 = "Not supporting tiles with dims greater than 2"


def ub_transpose_fault(fn, uses, c310):
    """pyasc-dev's rule for transposes of UB tiles of rank 3 or more (August), checked on the traced
    function ``fn``: the vector unit transposes 2-D tiles only, so such a transpose compiles only where
    Ascend950PR_9599 folds it into the copy_in that fills the tile (a strided DMA: the tile comes straight
    from a copy_in and is used by nothing else); Ascend910B1 folds none. Returns (op, message, hint) of
    the first transpose breaking it, else None (``uses``: ``ir.analysis.readers``)."""
    for op in (op for op in fn.walk() if op.name == "tile.transpose" and op.attrs.get("perm") is not None):
        src = op.operands[0]
        if c310 and getattr(src.owner, "name", None) == "tile.load" and len(uses[src.id]) == 1:
            continue
        hint = ("on this platform the vector unit transposes 2-D tiles only, and a copy_in is folded into a "
                "transpose only when its tile is used by nothing else: " if c310 else
                "Ascend910B1 transposes 2-D tiles only: ")
        hint += "copy the data in already permuted (one copy_in per slice), or transpose 2-D slices"
        return op, _RANK_OVER_2, localise(hint, fn.dialect)
    return None


def _tile_transpose(input, *axis):
    return transpose_axes(input, *axis) if tracing_august() else transpose(input, *axis)


def broadcast_shapes(*shapes):
    """The common shape all ``shapes`` broadcast to (NumPy's rule); usable on the host and in kernels."""
    if not shapes:
        raise error(ValueError, "'shapes' must be provided", "pass two or more shapes, e.g. ([8, 1], [64])")
    shapes = tuple(verify_shape(shape, f"shapes[{i}]") for i, shape in enumerate(shapes))
    common = shapes[0]
    for shape in shapes[1:]:
        common = broadcast_shape(common, shape)
    return tuple(common)


def broadcast_tensors(*tensors):
    """Every tile broadcast to the common shape of all (``broadcast_shapes`` then ``broadcast_to``)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, Tile):
            raise error(TypeError, f"'tensors[{i}]' argument must be LocalTensor, got {type(t).__name__}",
                        "broadcast_tensors takes tiles")
    if len(tensors) < 2:
        return tensors
    common = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(broadcast_to(t, *common) for t in tensors)


for _n in ("broadcast_to", "reshape", "ravel", "expand_dims", "squeeze"):
    bind_tile_method(_n, globals()[_n])
bind_tile_method("transpose", _tile_transpose)
Tile.T = august_attribute("T", _tile_transpose, "The tile with its last two dimensions swapped (August).")


define("tile.transpose", cost=vector_cost())
# the load that fills the tile writes it transposed (LoadData / Nd2Nz with the transpose flag): no cost of its own
define("tile.cube_transpose", cost=lambda op, hw: ("S", 0.0), zero_copy=True)
define("tile.broadcast", cost=vector_cost())
define("tile.reshape", cost=lambda op, hw: ("S", 0.0), zero_copy=True)

"""``gather`` / ``scatter`` (pyasc-dev): sub-tensors of a global tensor read / written at positions an
index tile gives.

``gather(src, offsets, dim, index, check_bounds=True, num_indices=None, pad_value=None)``: for every
``i`` below ``num_indices`` (default: the index tile's length) ``result[i]`` is the sub-tensor of ``src``
at ``[offsets[0], ..., offsets[dim - 1], offsets[dim] + index[i]]`` over the dimensions after ``dim``.
The result is a UB tile ``[len(index), *src.shape[dim + 1:]]`` whose last dimension is rounded up to 32
bytes; the padding columns hold ``pad_value`` (default 0), and so do rows whose index is outside the
tensor when ``check_bounds`` is on. Rows past ``num_indices`` are undefined (poison on this engine).
With ``check_bounds=False`` an index outside the tensor is an out-of-bounds error here (on the device it
would read memory the kernel does not own).

``scatter(src, dim, index, dst, offsets, check_bounds=True, num_indices=None)`` writes ``src[i]`` (the
columns of ``dst``'s last dimension) at those positions of ``dst``; indices outside ``dst`` are skipped
with ``check_bounds`` and an out-of-bounds error without it. Two blocks writing one element race; one
block writing an element twice keeps the last write (index order).

Both go through the same bounds and race checks as every other global-memory access. Cost: one DMA per
index (gather on MTE2, scatter on MTE3): the setup of a transfer per row plus the bytes moved.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...ir.builder import current_builder
from ...ir.registry import define
from ...ir.types import Location
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import PlainValue, to_scalar
from .costs import dma_ticks
from .tensor import Tensor
from .tile import Tile, emit_tile, require_location

INDEX_DTYPES = ("int8", "int16", "int32", "int64")
UB_BLOCK = 32


def _type(name, value, cls, what):
    if not isinstance(value, cls):
        raise error(TypeError, f"'{name}' argument must be {what}, got {type(value).__name__}",
                    f"pass {what} as '{name}'")


def _index(index):
    _type("index", index, Tile, "LocalTensor")
    if str(index.dtype) not in INDEX_DTYPES:
        raise error(RuntimeError, f"'index' dtype must be one of {', '.join(INDEX_DTYPES)}, got {index.dtype}",
                    "load the indices as an integer tile, e.g. int32")
    if len(index.shape) != 1:
        raise error(ValueError, f"'index' tensor must have rank 1, got {len(index.shape)}",
                    "reshape the index tile to one dimension")
    require_location(index, (Location.UB,), "the index of @gather / @scatter")


def _offsets(offsets, dim):
    try:
        offsets = tuple(offsets)
    except TypeError:
        raise error(TypeError, "'offsets' must be Iterable", "pass a list of offsets, e.g. [0]") from None
    if len(offsets) < 1:
        raise error(RuntimeError, "'offsets' must have at least one value", "pass a list of offsets, e.g. [0]")
    if len(offsets) != dim + 1:
        raise error(ValueError, f"'offsets' must have {dim + 1} values, got {len(offsets)}",
                    f"give the offsets of dimensions 0..{dim} (dim + 1 values)")
    for o in offsets:
        if not (isinstance(o, int) and not isinstance(o, bool) or isinstance(o, PlainValue) and o.dtype.is_signed()):
            raise error(TypeError, "All values in 'offsets' must be int or integer PlainValue",
                        "offsets are element indices (ints or integer runtime scalars)")
    return [to_scalar(o, dt.int32).handle for o in offsets]


def _num_indices(num_indices):
    if num_indices is None:
        return []
    if not (isinstance(num_indices, int) and not isinstance(num_indices, bool)
            or isinstance(num_indices, PlainValue) and num_indices.dtype.is_signed()):
        raise error(TypeError, f"'num_indices' argument must be int or integer PlainValue, got "
                    f"{type(num_indices).__name__}", "pass how many indices to process as an int")
    return [to_scalar(num_indices, dt.int32).handle]


def _static_tail(t, dim, name, first):
    tail = []
    for i in range(dim + 1, t.rank):
        d = t.shape[i]
        if not isinstance(d, (int, np.integer)):
            raise error(ValueError, f"All dimensions {first}..{t.rank - 1} of '{name}' tensor must have static size",
                        "declare the sizes after 'dim' as ConstExpr")
        tail.append(int(d))
    return tail


def gather(src, offsets, dim, index, check_bounds=True, num_indices=None, pad_value=None):
    """Rows (sub-tensors) of ``src`` at ``offsets[dim] + index[i]`` (see the module)."""
    _type("src", src, Tensor, "GlobalTensor")
    _type("dim", dim, int, "int")
    offs = _offsets(offsets, dim)
    _index(index)
    if dim < 0 or dim >= src.rank:
        raise error(ValueError, f"'dim' of value {dim} is not valid for tensor 'src' of rank {src.rank}",
                    f"dim indexes the tensor's dimensions 0..{src.rank - 1}")
    if dim == src.rank - 1:
        raise error(NotImplementedError, "Gather along the last dimension is not implemented",
                    "gather whole rows: index a dimension before the last one")
    _type("check_bounds", check_bounds, bool, "bool")
    extra = _num_indices(num_indices)
    pad = []
    if pad_value is not None:
        if not isinstance(pad_value, (numbers.Real, np.number, PlainValue)):
            raise error(TypeError, f"'pad_value' must be a number, got {type(pad_value).__name__}",
                        "pass the padding value as a number")
        pad = [to_scalar(pad_value, src.dtype).handle]
    tail = _static_tail(src, dim, "src", dim + 1)
    per_block = UB_BLOCK // src.dtype.sizeof()
    shape = [index.shape[0], *tail]
    shape[-1] = (shape[-1] + per_block - 1) // per_block * per_block
    return emit_tile("tile.gather", [src.handle, index.handle] + offs + extra + pad, tuple(shape), src.dtype,
                     Location.UB, dim=dim, check_bounds=check_bounds, has_num=bool(extra), has_pad=bool(pad))


def scatter(src, dim, index, dst, offsets, check_bounds=True, num_indices=None):
    """Write ``src[i]`` into ``dst`` at ``offsets[dim] + index[i]`` (see the module)."""
    _type("dst", dst, Tensor, "GlobalTensor")
    _type("index", index, Tile, "LocalTensor")
    _type("src", src, Tile, "LocalTensor")
    if str(index.dtype) not in INDEX_DTYPES:
        raise error(RuntimeError, f"'index' dtype must be one of {', '.join(INDEX_DTYPES)}, got {index.dtype}",
                    "load the indices as an integer tile, e.g. int32")
    _type("dim", dim, int, "int")
    offs = _offsets(offsets, dim)
    if dim < 0 or dim >= dst.rank:
        raise error(ValueError, f"'dim' value {dim} out of tensor 'dst' rank {dst.rank}",
                    f"dim indexes the tensor's dimensions 0..{dst.rank - 1}")
    if dim == dst.rank - 1:
        raise error(NotImplementedError, "Scatter along the last dimension is not implemented",
                    "scatter whole rows: index a dimension before the last one")
    if dst.rank != len(src.shape) + dim:
        raise error(ValueError, f"'src' tensor must have rank {dst.rank - dim}, got {len(src.shape)}",
                    "src holds one sub-tensor per index: [len(index), *dst.shape[dim + 1:]]")
    _index(index)
    if dst.dtype != src.dtype:
        raise error(ValueError, f"'src' and 'dst' have different data types: {src.dtype} and {dst.dtype}",
                    f"cast the tile first: .to(@{dst.dtype})")
    tail = _static_tail(dst, dim, "dst", dim)
    for i, d in enumerate(tail, start=dim + 1):
        if i != dst.rank - 1 and d != src.shape[i - dim]:
            raise error(ValueError, f"'src' tensor dimension {i - dim} with size {src.shape[i - dim]} and 'dst' "
                        f"tensor dimension {i} with size {d} are different",
                        "src holds one sub-tensor per index: [len(index), *dst.shape[dim + 1:]]")
    if src.shape[-1] < tail[-1]:
        raise error(ValueError, f"'src' tensor's last dimension {src.shape[-1]} is shorter than 'dst' tensor's "
                    f"{tail[-1]}", "src rows hold at least the destination's row length")
    if src.shape[0] < index.shape[0]:
        raise error(ValueError, f"'src' holds {src.shape[0]} sub-tensors but 'index' has {index.shape[0]} values",
                    "give one sub-tensor of src per index")
    _type("check_bounds", check_bounds, bool, "bool")
    extra = _num_indices(num_indices)
    require_location(src, (Location.UB,), "@scatter")
    current_builder().create("tile.scatter", [src.handle, index.handle, dst.handle] + offs + extra, [],
                             {"dim": dim, "check_bounds": check_bounds, "has_num": bool(extra)})


# -- costs: one DMA per index ------------------------------------------------------------------------------
def _gather_cost(op, hw):
    t = op.results[0].type
    rows = t.shape[0]
    return ("MTE2", dma_ticks(hw, t, runs=rows), hw.mte2_latency)


def _scatter_cost(op, hw):
    t = op.operands[0].type
    rows = op.operands[1].type.shape[0]
    return ("MTE3", dma_ticks(hw, t, store=True, runs=rows), hw.mte3_latency)


define("tile.gather", cost=_gather_cost, reads_gm=0, dma=True)
define("tile.scatter", cost=_scatter_cost, writes_gm=2, dma=True)

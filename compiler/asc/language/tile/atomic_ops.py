"""Atomic read-modify-write stores: many blocks may update one region and get the exact result."""
from __future__ import annotations

from ...ir.builder import current_builder
from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import to_scalar
from .memory_ops import _check_tensor, _store_cost, vector_operand
from .tile import Tile


def _atomic(kind, tile, tensor, offsets, clip=False):
    if not isinstance(tile, Tile):
        raise error(TypeError, f"'tile' argument must be Tile, got {type(tile)}",
                    "atomics store a tile: wrap a scalar with @full([n], value, dtype=...)")
    _check_tensor(tensor, f"atomic_{kind}")
    tile = vector_operand(tile, f"@atomic_{kind}")
    offs = [to_scalar(o, dt.int32).handle for o in offsets]
    if len(offs) != tensor.rank or len(tile.shape) != tensor.rank:
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    "give one offset per tensor dimension and a tile of the tensor's rank")
    if tile.dtype != tensor.dtype:
        raise error(RuntimeError, "failed to verify that all of {base, value} have same element type",
                    f"cast the tile first: .to(asc.{tensor.dtype})")
    # clip: the August window is clamped to the tensor in every dimension, as its copy_out (sim/ops/memory.py)
    current_builder().create("tile.atomic", [tile.handle, tensor.handle] + offs, [],
                             {"kind": kind, "clip": True} if clip else {"kind": kind})


def atomic_add(tile, tensor, offsets): return _atomic("add", tile, tensor, offsets)
def atomic_max(tile, tensor, offsets): return _atomic("max", tile, tensor, offsets)
def atomic_min(tile, tensor, offsets): return _atomic("min", tile, tensor, offsets)


# August (asc.experimental.asctile) names the operands src / dst, as pyasc-dev does; April keeps tile / tensor.
def august_atomic_add(src, dst, offsets): return _atomic("add", src, dst, offsets, clip=True)
def august_atomic_max(src, dst, offsets): return _atomic("max", src, dst, offsets, clip=True)
def august_atomic_min(src, dst, offsets): return _atomic("min", src, dst, offsets, clip=True)


for _fn in (august_atomic_add, august_atomic_max, august_atomic_min):
    _fn.__name__ = _fn.__qualname__ = _fn.__name__.removeprefix("august_")


define("tile.atomic", cost=_store_cost, writes_gm=1, atomic=True)

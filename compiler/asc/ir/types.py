"""IR types. A tile's memory location is part of its type."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from math import prod

from ..language.core.dtype import DataType


class Location(enum.Enum):
    """On-chip memory of a tile: pyasc's April ``TileLocation`` and August ``TensorLocation`` (one enum;
    values as in the MLIR attribute). ``Auto`` is only an argument value: the op picks the location."""
    L0A = 23
    L0B = 24
    L0C = 25
    UB = 26
    L1 = 27
    FIX = 28
    BT = 29
    Auto = 30

    def __repr__(self):
        from .builder import dialect_spelling
        return f"{dialect_spelling('Location')}.{self.name}"


@dataclass(frozen=True, eq=False)
class ScalarType:
    dtype: DataType

    def __eq__(self, other):
        return isinstance(other, ScalarType) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("scalar", str(self.dtype)))

    def __str__(self):
        return str(self.dtype)


@dataclass(frozen=True, eq=False)
class TileType:
    shape: tuple
    dtype: DataType
    location: Location = Location.UB

    @property
    def size(self) -> int:
        return prod(self.shape)

    @property
    def nbytes(self) -> int:
        if str(self.dtype) == "int1":
            return (self.size + 7) // 8  # boolean tiles are packed, 8 lanes per byte
        return self.size * self.dtype.sizeof()

    def __eq__(self, other):
        return (isinstance(other, TileType) and self.shape == other.shape
                and self.dtype == other.dtype and self.location == other.location)

    def __hash__(self):
        return hash(("tile", self.shape, str(self.dtype), self.location))

    def __str__(self):
        return f"tile<{'x'.join(map(str, self.shape))}x{self.dtype}, {self.location.name}>"


@dataclass(frozen=True, eq=False)
class TensorType:
    """A global-memory ND view; ``None`` marks a dynamic dimension."""
    shape: tuple
    dtype: DataType

    def __eq__(self, other):
        return isinstance(other, TensorType) and self.shape == other.shape and self.dtype == other.dtype

    def __hash__(self):
        return hash(("tensor", self.shape, str(self.dtype)))

    def __str__(self):
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"tensor<{dims}x{self.dtype}>"


def dma_runs(tile, gm):
    """(contiguous runs, bytes each) a DMA of ``tile`` moves: one run when the tile spans whole rows of the
    global tensor ``gm`` (or its layout is unknown), else one per tile row."""
    shape = tile.shape
    if gm is None or len(shape) < 2 or not isinstance(gm, TensorType) or gm.shape[-1] in (None, shape[-1]):
        return 1, tile.nbytes
    rows = prod(shape[:-1])
    return rows, tile.nbytes // max(1, rows)


@dataclass(frozen=True, eq=False)
class PtrType:
    dtype: DataType

    def __eq__(self, other):
        return isinstance(other, PtrType) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("ptr", str(self.dtype)))

    def __str__(self):
        return f"ptr<{self.dtype}>"

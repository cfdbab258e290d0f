"""``asc2.tensor``: a global-memory ND view over a kernel pointer argument."""
from __future__ import annotations

import numpy as np

from ...ir.builder import current_builder
from ...ir.registry import define, scalar_cost
from ...ir.types import ScalarType, TensorType
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import GlobalAddress, IRHandle, PlainValue


class RuntimeShape:
    """Tuple-like shape of a tensor; static dims are ints, dynamic dims int32 scalars."""

    def __init__(self, tensor, dims):
        self._tensor = tensor
        self._dims = tuple(dims)

    def __len__(self):
        return len(self._dims)

    def __iter__(self):
        return (self[i] for i in range(len(self._dims)))

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise error(TypeError, f"'index' argument must be int, got {type(index)}",
                        "index the shape with a compile-time int, e.g. t.shape[0]")
        n = len(self._dims)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise error(IndexError, f"shape index {index} out of range", "the index must be below the tensor's rank")
        d = self._dims[index]
        if isinstance(d, int):
            return d
        op = current_builder().create("tensor.dim", [self._tensor.handle], [ScalarType(dt.int32)], {"index": index})
        return PlainValue(op.result)

    def is_static(self):
        return all(isinstance(d, int) for d in self._dims)

    def is_dynamic_dim(self, i):
        return not isinstance(self._dims[i], int)

    def __repr__(self):
        return "RuntimeShape(" + ", ".join(str(d) if isinstance(d, int) else "?" for d in self._dims) + ")"


class Tensor(IRHandle):
    __slots__ = ("dtype", "shape")

    def __init__(self, handle, dims):
        self.handle = handle
        self.dtype = handle.type.dtype
        self.shape = RuntimeShape(self, dims)

    @property
    def rank(self):
        return len(self.shape)

    def __repr__(self):
        return f"Tensor({self.handle.type})"


def tensor(base, shape):
    """Wrap a pointer argument as a tensor of ``shape`` (ints or runtime scalars)."""
    if not isinstance(base, GlobalAddress):
        raise error(TypeError, f"'base' argument must be a GlobalAddress (a kernel array argument), got {type(base)}",
                    "pass a numpy array or torch tensor for this kernel parameter")
    try:
        dims = list(shape)
    except TypeError:
        raise error(TypeError, f"Tensor dimension should be RuntimeInt, got {type(shape)}",
                    "pass the shape as a list, e.g. @tensor(ptr, [rows, cols])") from None
    static, operands = [], [base.handle]
    for d in dims:
        if isinstance(d, (int, np.integer)) and not isinstance(d, bool):
            static.append(int(d))
        elif isinstance(d, PlainValue):
            static.append(None)
            operands.append(d.cast(dt.int32).handle)
        else:
            raise error(TypeError, f"Tensor dimension should be RuntimeInt, got {type(d)}",
                        "tensor dimensions are ints or runtime int scalars")
    op = current_builder().create("tensor.make", operands, [TensorType(tuple(static), base.dtype)])
    return Tensor(op.result, [d if d is not None else "?" for d in static])


define("tensor.make", cost=scalar_cost)
define("tensor.dim", cost=scalar_cost)

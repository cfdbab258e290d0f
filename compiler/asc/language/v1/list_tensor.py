"""``ListTensorDesc`` / ``TensorDesc``: a list of GM tensors described in GM, as a framework passes a dynamic
number of inputs. The layout parsed (Ascend C's): a uint64 ``ptr_offset`` (bytes from the start to the
pointer list), then one shape record per tensor (a uint64 with the dimension count in its low 32 bits and
the tensor's index in its high 32 bits, followed by one uint64 per dimension), then the data pointers, one
uint64 each. Each word is read on the scalar unit as ``get_value`` reads GM (bounds and race checks).

A data pointer is a GM address: here GM is the launch's argument memory, so a pointer is the host address
of an argument's data (``ndarray.ctypes.data``, ``tensor.data_ptr()``) plus a byte offset into it."""
from __future__ import annotations

import numpy as np

from ..core import dtype as dt
from ..core.errors import error
from .tensors import GlobalTensor, GmPointer, ShapeInfo, _block

NOT_GIVEN = 0xFFFFFFFF


def _words(data):
    """A uint64 view of the GM bytes ``data`` points at."""
    if not isinstance(data, GmPointer):
        raise error(TypeError, f"ListTensorDesc takes the GM address of the list (a kernel argument), got "
                    f"{type(data).__name__}", "pass the kernel's GM argument holding the list")
    t = GlobalTensor(dt.uint64)
    t.buf, t.owner, t.addr = data.buf, data.buf, data.offset * data.dtype.sizeof()
    if t.addr % 8:
        raise error(ValueError, f"the list at byte {t.addr} of GM '{data.buf}' is not 8-byte aligned",
                    "pass the argument's start (or an offset that is a multiple of 8 bytes)")
    t.size = (data.size - data.offset) * data.dtype.sizeof() // 8
    return t


def resolve_address(addr, dtype, what):
    """The GM pointer a device address names: the argument whose host memory holds it."""
    launch = _block().launch
    addr = int(addr)
    for name, arr in launch.gm.items():
        base = arr.__array_interface__["data"][0]
        if base <= addr < base + max(arr.nbytes, 1):
            off = addr - base
            if arr.dtype != np.dtype(dtype.to_numpy()):
                raise error(TypeError, f"{what} points into GM '{name}' ({arr.dtype}) but is read as {dtype}",
                            f"ask for the argument's dtype ({arr.dtype})")
            if off % arr.itemsize:
                raise error(ValueError, f"{what} points at byte {off} of GM '{name}', inside an element",
                            f"point at a multiple of {arr.itemsize} bytes")
            return GmPointer(name, dtype, arr.size, off // arr.itemsize)
    raise error(ValueError, f"{what} is {addr:#x}, the address of no GM argument of this launch",
                "fill the list on the host with the data addresses (ndarray.ctypes.data / tensor.data_ptr()) "
                "of arrays passed to the same launch")


class TensorDesc:
    """One tensor of a ``ListTensorDesc`` (``get_desc`` fills it in)."""

    def __init__(self, dtype=dt.float32, handle=None):
        self.dtype = dtype
        self.shape_addr = None
        self.dim = self.index = None
        self.shape = ()
        self.pointer = None

    def set_shape_addr(self, shape_ptr):
        """Where ``get_desc`` stores the shape (Ascend C copies it there; here the shape is kept with the
        descriptor, so only that an address was given matters)."""
        self.shape_addr = int(shape_ptr)

    def _filled(self, what):
        if self.dim is None:
            raise error(RuntimeError, f"TensorDesc.{what}() before ListTensorDesc.get_desc filled it in",
                        "call list_desc.get_desc(desc, index) first")

    def get_dim(self):
        self._filled("get_dim")
        return self.dim

    def get_index(self):
        self._filled("get_index")
        return self.index

    def get_shape(self, offset):
        self._filled("get_shape")
        i = int(offset)
        if not 0 <= i < self.dim:
            raise error(IndexError, f"TensorDesc.get_shape({i}) of a tensor of {self.dim} dimensions",
                        f"use an offset in 0..{self.dim - 1}")
        return self.shape[i]

    def get_data_ptr(self):
        self._filled("get_data_ptr")
        return self.pointer

    def get_data_obj(self):
        """A GlobalTensor over the tensor's data: its elements the product of its shape."""
        self._filled("get_data_obj")
        size = 1
        for d in self.shape:
            size *= d
        t = GlobalTensor()
        t.set_global_buffer(self.pointer, size)
        t.set_shape_info(ShapeInfo(self.shape))
        return t


class ListTensorDesc:
    """``ListTensorDesc()`` then ``init(data, length, shape_size)``, or ``ListTensorDesc(data=..., ...)``."""

    def __init__(self, data=None, length=NOT_GIVEN, shape_size=NOT_GIVEN, handle=None):
        self.words = None
        if data is not None:
            self.init(data, length, shape_size)

    def init(self, data, length=NOT_GIVEN, shape_size=NOT_GIVEN):
        words = _words(data)
        self.length = int(length)
        self.words = words
        ptr_offset = self._word(0, "ptr_offset")
        if ptr_offset % 8 or ptr_offset < 8:
            raise error(ValueError, f"ListTensorDesc: the list's ptr_offset (its first uint64) is {ptr_offset}: "
                        "the pointers start after it, on an 8-byte boundary",
                        "write the byte offset of the pointer list (8 + 8 per shape word) into the first word")
        self.ptr_word = ptr_offset // 8
        self.records = []         # word index of each tensor's shape record
        w = 1
        while w < self.ptr_word:
            self.records.append(w)
            w += 1 + (self._word(w, f"tensor {len(self.records) - 1}'s shape record") & 0xFFFFFFFF)
        if w != self.ptr_word:
            raise error(ValueError, f"ListTensorDesc: the shape records run to byte {8 * w}, past the pointer list "
                        f"at byte {ptr_offset}", "each record is 8 bytes plus 8 per dimension; fix ptr_offset")
        self.count = len(self.records) if int(shape_size) == NOT_GIVEN else int(shape_size)

    def _word(self, w, what):
        if self.length != NOT_GIVEN and 8 * w + 8 > self.length:
            raise error(IndexError, f"ListTensorDesc: {what} lies at bytes [{8 * w}, {8 * w + 8}), past the "
                        f"length {self.length} given to init", "pass the list's length in bytes (or leave it out)")
        return int(self.words.get_value(w))

    def _check(self, index, what):
        if self.words is None:
            raise error(RuntimeError, f"ListTensorDesc.{what} before init", "call init(data, length, shape_size) "
                        "or build it as ListTensorDesc(data=...)")
        i = int(index)
        if not 0 <= i < self.count:
            raise error(IndexError, f"ListTensorDesc.{what}: index {i} of a list of {self.count} tensors",
                        f"use an index in 0..{self.count - 1}")
        return i

    def get_size(self):
        """The number of data pointers."""
        if self.words is None:
            self._check(0, "get_size")
        return self.count

    def get_data_ptr(self, index, dtype):
        i = self._check(index, "get_data_ptr")
        return resolve_address(self._word(self.ptr_word + i, f"pointer {i}"), dtype, f"pointer {i} of the list")

    def get_desc(self, desc, index):
        if not isinstance(desc, TensorDesc):
            raise error(TypeError, f"get_desc fills in a TensorDesc, got {type(desc).__name__}",
                        "pass asc.TensorDesc(dtype)")
        i = self._check(index, "get_desc")
        if desc.shape_addr is None:
            raise error(RuntimeError, "get_desc: the TensorDesc has no shape address to store the shape at",
                        "call desc.set_shape_addr(addr) before get_desc")
        if i >= len(self.records):
            raise error(IndexError, f"ListTensorDesc.get_desc: index {i}, but the list holds {len(self.records)} "
                        "shape records", "pass shape_size no larger than the number of tensors described")
        w = self.records[i]
        head = self._word(w, f"tensor {i}'s shape record")
        desc.dim, desc.index = head & 0xFFFFFFFF, head >> 32
        desc.shape = tuple(self._word(w + 1 + k, f"dimension {k} of tensor {i}") for k in range(desc.dim))
        desc.pointer = self.get_data_ptr(i, desc.dtype)

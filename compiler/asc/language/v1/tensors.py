"""v1 tensors: ``GlobalTensor`` over a kernel's GM argument, ``LocalTensor`` at a byte address of an on-chip
memory, ``LocalTensorAuto`` (placed by the engine, synchronised as pyasc's insert-sync pass does it)."""
from __future__ import annotations

import numpy as np

from ...ir.block_index import BlockIndex
from ...ir.pipe_ops import PipeOp, Region, current_block, scalar_code, user_loc
from ...ir.registry import define
from ..core import dtype as dt
from ..core.errors import error
from .enums import CacheMode, CacheRwMode, DataFormat, TPosition, memory_of


_SIZES = {}     # dtype name -> bytes of an element


_NP = {}        # dtype name -> numpy dtype


def _np(d):
    t = _NP.get(d.name)
    if t is None:
        t = _NP[d.name] = np.dtype(d.to_numpy())
    return t


def _block():
    blk = current_block()
    if blk is None:
        raise error(RuntimeError, "v1 tensors and instructions exist only inside a running @asc.jit kernel",
                    "call this from the body of a kernel launched as kernel[core_num](...)")
    return blk


def _index(i, what):
    if isinstance(i, slice):
        if i.stop is not None or i.step not in (None, 1):
            raise error(IndexError, f"{what}[start:stop:step] is not supported: only [offset:] gives a sub-tensor",
                        "write t[offset:] (and pass the element count to the instruction)")
        i = 0 if i.start is None else i.start
    if type(i) is BlockIndex:       # a traced kernel's offset of the block (ir/block_index.py)
        return i
    if not isinstance(i, (int, np.integer)):
        raise error(TypeError, f"{what} index must be an integer, got {type(i).__name__}")
    return int(i)


class GmPointer:
    """A kernel's GM argument (``asc.GlobalAddress`` in v1 kernels): buffer, element offset and dtype."""

    def __init__(self, buf, dtype, size, offset=0):
        self.buf, self.dtype, self.size, self.offset = buf, dtype, size, offset

    def __add__(self, n):
        if type(n) is BlockIndex:       # a traced kernel's offset of the block (ir/block_index.py)
            return GmPointer(self.buf, self.dtype, self.size, n + self.offset)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise error(TypeError, f"a GM address moves by whole elements: {self.buf} + {n!r}",
                        "compute the offset with integer arithmetic (// instead of /)")
        return GmPointer(self.buf, self.dtype, self.size, self.offset + n if type(self.offset) is BlockIndex
                         else self.offset + int(n))

    __radd__ = __add__

    def __repr__(self):
        return f"GlobalAddress({self.buf}+{self.offset}, {self.dtype})"


def scalar_operand(scalar, dtype):
    """The scalar as the instruction receives it: pyasc's front end materialises a float constant given for an
    integer tensor into that type, truncating toward zero (``adds(int16, ..., -1.5)`` adds -1)."""
    if isinstance(scalar, (float, np.floating)) and np.dtype(str(dtype)).kind in "iu" and np.isfinite(scalar):
        return int(scalar)
    return scalar


def scalar_fits(name, scalar, dtype):
    """A scalar operand is a number its tensor's dtype holds (upstream: Union[int, float])."""
    if isinstance(scalar, bool) or not isinstance(scalar, (int, float, np.integer, np.floating)):
        raise error(TypeError, f"{name}: the scalar must be an int or a float, got {type(scalar).__name__}",
                    "pass a Python number (or a value read with get_value)")
    npd = np.dtype(_np(dtype))
    if npd.kind in "iu":
        info = np.iinfo(npd)
        if not float(scalar).is_integer() or not info.min <= scalar <= info.max:
            raise error(ValueError, f"{name}: the scalar {scalar!r} is not a {dtype} value "
                        f"([{info.min}, {info.max}], whole)", f"pass a scalar the {dtype} tensor holds")


class _Tensor:
    """What every v1 tensor has: memory ``space`` and buffer ``buf``, byte ``addr``, ``dtype``, ``size``."""
    space = buf = ""
    position = ""
    owner = ""

    @property
    def np_dtype(self):
        return _np(self.dtype)

    @property
    def itemsize(self):
        if self.buf is None:
            raise error(RuntimeError, "a GlobalTensor is used before set_global_buffer gave it memory",
                        "call t.set_global_buffer(x + offset[, size]) on the kernel's GM argument first")
        d = self.dtype
        s = _SIZES.get(d.name)          # (asked for several times per instruction)
        if s is None:
            s = _SIZES[d.name] = d.sizeof()
        return s

    def region(self, lo_elem, hi_elem):
        s = self.itemsize
        return Region(self.space, self.buf, self.addr + lo_elem * s, self.addr + hi_elem * s,
                      position=self.position, owner=self.owner)

    def get_value(self, index):
        i = int(index)
        op = PipeOp("get_value", "S", reads=(self.region(i, i + 1),), attrs={"src": self, "index": i}, loc=user_loc())
        return _block().issue(op)

    def set_value(self, index, value):
        i = int(index)
        scalar_fits("set_value", value, self.dtype)
        op = PipeOp("set_value", "S", writes=(self.region(i, i + 1),), attrs={"dst": self, "index": i, "value": value},
                    loc=user_loc())
        _block().issue(op)

    def get_size(self):
        return self.size

    def get_length(self):
        return self.size * self.itemsize


class GlobalTensor(_Tensor):
    space = "GM"
    position = "GM"

    def __init__(self, dtype=None):
        self.dtype = dtype
        self.buf = None
        self.addr = 0
        self.size = None

    def set_global_buffer(self, buffer=None, buffer_size=None):
        ptr = buffer
        if not isinstance(ptr, GmPointer):
            raise error(TypeError, f"set_global_buffer expects a kernel's GM argument (plus an offset), got "
                        f"{type(ptr).__name__}")
        scalar_code()
        self.buf, self.dtype = ptr.buf, ptr.dtype
        self.addr = ptr.offset * ptr.dtype.sizeof()
        self.size = ptr.size - ptr.offset if buffer_size is None else int(buffer_size)
        self.given_size = buffer_size is not None
        self.owner = ptr.buf

    def get_size(self):
        """The element count ``set_global_buffer`` was given (0 when it was given only the address)."""
        return self.size if getattr(self, "given_size", False) else 0

    def get_value(self, offset):
        return super().get_value(offset)

    def set_value(self, offset, value):
        super().set_value(offset, value)

    def get_phy_addr(self, offset=0):
        """The GM address of element ``offset`` (an address a GlobalTensor can be set to)."""
        if self.buf is None:
            self.itemsize    # noqa: B018  (the error for a GlobalTensor without memory)
        return GmPointer(self.buf, self.dtype, self.addr // self.itemsize + (self.size or 0),
                         self.addr // self.itemsize + int(offset))

    def set_shape_info(self, shape_info):
        self.shape = tuple(int(d) for d in shape_info.shape)

    def get_shape_info(self):
        return ShapeInfo(array(dt.int32, getattr(self, "shape", None) or (self.size or 0,)))

    def set_l2_cache_hint(self, mode=CacheMode.CACHE_MODE_NORMAL, rw_mode=CacheRwMode.RW):
        """An L2 cache policy for this tensor's accesses: a performance hint, no value changes (GM is read and
        written directly here)."""
        CacheMode(mode), CacheRwMode(rw_mode)

    def __getitem__(self, i):
        off = _index(i, "GlobalTensor")
        t = GlobalTensor(self.dtype)
        t.buf, t.owner, t.addr = self.buf, self.owner, self.addr + off * self.itemsize
        t.size = None if self.size is None else self.size - off
        t.given_size = getattr(self, "given_size", False)
        return t

    def __repr__(self):
        return f"GlobalTensor({self.buf}+{self.addr}B, {self.dtype})"


class LocalTensor(_Tensor):
    """``LocalTensor(dtype, pos, addr, tile_size)``: ``tile_size`` elements at byte ``addr`` of ``pos``'s memory."""

    def __init__(self, dtype=None, pos=TPosition.VECIN, addr=0, tile_size=0, owner=None):
        blk = _block()
        if not isinstance(pos, TPosition) and isinstance(pos, (int, np.integer)) and not addr and not tile_size:
            pos, addr = TPosition.VECIN, pos     # pyasc's LocalTensor(dtype, addr)
        self.dtype = dtype
        self.position = TPosition(pos).name
        self.space = self.buf = memory_of(pos)
        self.addr, self.size = int(addr), int(tile_size)
        self.shape = (self.size,)
        if self.addr < 0 or self.size < 0:
            raise error(ValueError, f"LocalTensor at byte {self.addr} of {self.size} elements: neither may be "
                        "negative", "place local tensors at addresses >= 0 with tile_size >= 0")
        if self.addr % 32:
            raise error(ValueError, f"LocalTensor address {self.addr} is not 32-byte aligned",
                        "local tensors start on a 32-byte boundary")
        loc = user_loc()
        self.owner = owner or f"LocalTensor({self.position}) of line {loc[1] if loc else '?'}"
        if dtype is not None:     # LocalTensor(): a tensor an in-place alloc_tensor / deque fills in
            blk.check_capacity(self.space, self.addr, self.addr + self.size * self.itemsize, self.owner)

    @classmethod
    def _view(cls, base, addr, size, dtype=None):
        t = cls.__new__(cls)
        t.__dict__.update(base.__dict__)
        t.addr, t.size = addr, size
        if dtype is not None:
            t.dtype = dtype
        t.shape = (size,)
        return t

    def __getitem__(self, i):
        off = _index(i, "LocalTensor")
        return LocalTensor._view(self, self.addr + off * self.itemsize, max(0, self.size - off))

    def get_phy_addr(self, offset=0):
        return self.addr + int(offset) * self.itemsize

    def get_position(self):
        return int(TPosition[self.position])

    def reinterpret_cast(self, dtype):
        return LocalTensor._view(self, self.addr, self.get_length() // dtype.sizeof(), dtype)

    def set_shape_info(self, shape_info):
        self.shape = tuple(int(d) for d in shape_info.shape)

    def get_shape_info(self):
        return ShapeInfo(array(dt.int32, self.shape))

    def set_size(self, size=0):
        """The tensor's element count from now on (a reused tensor variable)."""
        self.size = int(size)
        self.shape = (self.size,)

    def set_buffer_len(self, data_len):
        """The tensor's length in bytes from now on."""
        self.set_size(int(data_len) // self.itemsize)

    def set_addr_with_offset(self, src, offset):
        """This tensor at ``src``'s address plus ``offset`` of ``src``'s elements, in ``src``'s memory."""
        if not isinstance(src, LocalTensor):
            raise error(TypeError, f"set_addr_with_offset takes a LocalTensor, got {type(src).__name__}")
        t = LocalTensor._view(src, src.addr + int(offset) * src.itemsize,
                              max(0, (src.size - int(offset)) * src.itemsize // self.itemsize), self.dtype)
        self.__dict__.update(t.__dict__)

    def set_user_tag(self, tag=0):
        self.user_tag = int(tag)

    def get_user_tag(self):
        return getattr(self, "user_tag", 0)

    def print(self, data_len=None):   # noqa: A003  (pyasc's name)
        """Print the tensor (its first ``data_len`` elements), one 32-byte block per line (CPU debug)."""
        _dump(self, data_len, {"mode": "print"})

    def to_file(self, file_name):
        """Write the tensor's bytes to ``file_name`` (CPU debug); 0 when written."""
        _dump(self, None, {"mode": "file", "file": str(file_name)})
        return 0

    def __repr__(self):
        return f"LocalTensor({self.position}@{self.addr}, {self.size} x {self.dtype})"


class LocalTensorAuto(LocalTensor):
    """``LocalTensorAuto(dtype, n | (d0, d1))``: a UB tensor the engine places (one buffer per creation site,
    as pyasc hoists the allocation out of loops); its kernel is synchronised as insert-sync does it."""

    def __init__(self, dtype, shape, pos=TPosition.VECCALC):
        blk = _block()
        shape = tuple(int(d) for d in shape) if isinstance(shape, (tuple, list)) else (int(shape),)
        size = int(np.prod(shape))
        loc = user_loc()
        self.dtype = dtype
        self.position = TPosition(pos).name
        self.space = self.buf = memory_of(pos)
        self.owner = f"LocalTensorAuto of line {loc[1] if loc else '?'}"
        self.addr = blk.auto_alloc(loc, self.space, size * dtype.sizeof(), self.owner)
        self.size, self.shape = size, shape


class array:   # noqa: N801  (pyasc's name)
    """``asc.array(dtype, values)``: a small constant array (shapes for ``ShapeInfo``)."""

    def __init__(self, dtype, length_or_values, fill_value=None):
        self.dtype = dtype
        if isinstance(length_or_values, (int, np.integer)):     # asc.array(dtype, length[, fill_value])
            self.values = (0 if fill_value is None else fill_value,) * int(length_or_values)
        else:
            self.values = tuple(length_or_values)


class ShapeInfo:
    def __init__(self, shape=(), original_shape=None, data_format=DataFormat.ND):
        self.shape = tuple(shape.values if isinstance(shape, array) else shape)
        self.original_shape = self.shape if original_shape is None else tuple(
            original_shape.values if isinstance(original_shape, array) else original_shape)
        self.data_format = DataFormat(data_format)


def get_shape_size(shape_info):
    """The product of ``shape_info``'s dimensions (1 for no dimensions, as Ascend C's GetShapeSize)."""
    if not isinstance(shape_info, ShapeInfo):
        raise error(TypeError, f"get_shape_size takes a ShapeInfo, got {type(shape_info).__name__}",
                    "pass tensor.get_shape_info()")
    size = 1
    for d in shape_info.shape:
        size *= int(d)
    return size


def _dump(t, count, attrs):
    """A debug read of ``count`` elements of ``t`` on the scalar unit (DumpTensor, Print, ToFile)."""
    n = t.size if count is None else int(count)
    if n < 0 or (t.size is not None and n > t.size):
        raise error(ValueError, f"dump of {n} elements of a tensor of {t.size}",
                    "dump at most the tensor's elements")
    op = PipeOp("dump_tensor", "S", reads=(t.region(0, n),) if n else (), attrs=dict(attrs, src=t, count=n),
                loc=user_loc())
    return _block().issue(op)


def _scalar_access_cost(op, hw):
    """A scalar read / write of one element: of global memory, or of on-chip memory."""
    gm = any(r.space == "GM" for r in op.reads + op.writes)
    return ("S", hw.scalar_gm if gm else hw.scalar_op)


define("v1.get_value", cost=_scalar_access_cost)
define("v1.set_value", cost=_scalar_access_cost)

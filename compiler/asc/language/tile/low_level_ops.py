"""Low-level interoperability (pyasc-dev): ``empty`` / ``empty_like`` (uninitialised tiles), and the
escape hatches to Ascend C (``inline``, ``inline_vf``, ``to_asc``, ``from_asc``).

``empty`` allocates a tile without writing it. On this engine its elements are poison (NaN for floats,
the type's minimum for integers), like every on-chip buffer before it is written, so a value read
before being written shows up in the results; it costs no instruction.

The escape hatches embed Ascend C source (or hand tiles to pyasc's low-level ``asc`` API, which this
engine does not provide). The simulator cannot execute C++, so they are rejected with an error naming
the limitation, at the user's line.
"""
from __future__ import annotations

from ...ir.registry import define
from ...ir.types import Location
from ..core import dtype as dt
from ..core.errors import error
from .memory_ops import is_auto_load
from .tensor import Tensor
from .tile import Tile, as_location, emit_tile
from .utils import verify_shape


def _location(location):
    if not isinstance(location, (str, Location)):
        raise error(TypeError, f"'location' argument must be str or TensorLocation, got {type(location).__name__}",
                    "pass e.g. @Location.UB or \"UB\"")
    loc = as_location(location)
    return Location.UB if loc == Location.Auto else loc


def empty(shape, dtype, location=Location.Auto):
    """An uninitialised tile of ``shape`` and ``dtype`` (its elements must be written before being read)."""
    if not isinstance(dtype, dt.DataType):
        raise error(TypeError, f"'dtype' argument must be DataType, got {type(dtype).__name__}",
                    "pass a dtype such as @float32")
    auto = location is None or (isinstance(location, (Location, str)) and as_location(location) == Location.Auto)
    location = _location(location)
    shape = verify_shape(shape)
    # an Auto tile is placed by nothing in pyasc-dev's compiler: used, it fails there (dialect.compile_fault)
    return emit_tile("tile.empty", [], shape, dtype, location, **({"auto_location": True} if auto else {}))


def empty_like(tensor, location=None):
    """``empty(tensor.shape, tensor.dtype, location or tensor's location)``."""
    if not isinstance(tensor, Tile):
        raise error(TypeError, f"'tensor' argument must be LocalTensor, got {type(tensor).__name__}",
                    "pass a tile")
    if location is None:   # the tile's location: Auto for a copy_in left at Auto (resolved later)
        location = Location.Auto if is_auto_load(tensor) else tensor.handle.type.location
    return empty(tensor.shape, tensor.dtype, location)


def _ascend_c(name, what):
    def fn(*args, **kwargs):
        raise error(RuntimeError, f"{name} is not supported on this engine: {what}, and the simulator cannot "
                    "execute Ascend C", f"express the computation with tile operations, or run the kernel with "
                    "pyasc on a CANN toolkit")
    fn.__name__ = name
    fn.__doc__ = f"Not supported on this engine: {what}."
    return fn


inline = _ascend_c("inline", "it injects raw C++ (Ascend C) code into the generated kernel")
inline_vf = _ascend_c("inline_vf", "it embeds an Ascend C vector function (__VEC_SCOPE__ body)")
_to_asc = _ascend_c("to_asc", "it hands a tensor to pyasc's low-level asc API, which this engine does not have")


def to_asc(asctile_object):
    """Tiles and global tensors: not supported (no low-level ``asc`` API); other values unchanged."""
    if isinstance(asctile_object, (Tile, Tensor)):
        _to_asc()
    return asctile_object


def from_asc(asc_object, **kwargs):
    """No low-level ``asc`` tensor exists on this engine, so every value comes back unchanged. As in
    pyasc-dev, keywords (its ``location``) only apply to a low-level tensor and are not looked at otherwise."""
    return asc_object


define("tile.empty", cost=lambda op, hw: ("S", 0.0))

"""The ``Tile`` class: an on-chip value with a static shape, a dtype and (in its IR type) a location."""
from __future__ import annotations

from math import prod

import numpy as np

from ...ir.builder import current_builder, dialect_qualified, tracing_august
from ...ir.registry import define
from ...ir.types import Location, ScalarType, TileType
from ..core import dtype as dt
from ..core.errors import BinaryOperandTypeError, error, not_supported
from ..core.ir_value import IRHandle, PlainValue, to_scalar
from .costs import vector_cost

TileLocation = TensorLocation = Location


def as_location(value) -> Location:
    """A location argument: the enum, or its name as a string (``"UB"``), as pyasc accepts."""
    if isinstance(value, Location):
        return value
    if isinstance(value, str) and value in Location.__members__:
        return Location[value]
    spelled = dialect_qualified("Location")
    raise error(TypeError, f"'location' must be an {spelled}, got {value!r}",
                f"e.g. location=@Location.L0A")


class Tile(IRHandle):
    __slots__ = ()

    def __init__(self, handle):
        if not isinstance(handle.type, TileType):
            raise TypeError(f"Tile must be built from a tile-typed value, got {handle.type}")
        if len(handle.type.shape) == 0:
            raise error(RuntimeError, "Tile shape must have at least one dimension",
                        "use shape [1] for a single element")
        self.handle = handle

    @property
    def dtype(self):
        return self.handle.type.dtype

    @property
    def shape(self):
        return self.handle.type.shape

    @property
    def size(self):
        return prod(self.shape)

    def __repr__(self):
        return f"Tile({self.handle.type})"

    __hash__ = None

    # ``to`` (a cast, and in August kernels also a copy to a location) is bound by ``memory_ops``.

    def __pos__(self):
        return self

    def __bool__(self):
        raise error(TypeError, "a tile has no truth value",
                    "compare with a reduction, e.g. `if @reduce_max(t) > 0:`, or use @where")


def location_of(tile) -> Location:
    return tile.handle.type.location


def august_attribute(name, getter, doc):
    """A LocalTensor attribute of pyasc-dev (``rank``, ``location``, ``T``): April's Tile has none of them, so
    an April kernel using one fails as it did there."""
    def get(self):
        if not tracing_august():
            raise AttributeError(f"'Tile' object has no attribute '{name}'")
        return getter(self)
    return property(get, doc=doc)


Tile.rank = august_attribute("rank", lambda t: len(t.shape), "The number of dimensions (August).")
Tile.location = august_attribute("location", location_of, "The memory location (August).")


def emit_tile(name, operands, shape, dtype, location=Location.UB, **attrs) -> Tile:
    # pyasc-dev's August front end also has int64 tiles (its ops list int64 among their dtypes)
    if str(dtype) not in dt.TILE_DTYPES and str(dtype) != "int1" and location != Location.L0C \
            and not (str(dtype) == "int64" and tracing_august()):
        # The IR's NumericTile constraint (fixpipe quantisation may still produce 8-bit L0C results).
        raise error(RuntimeError, f"tiles of {dtype} are not supported: a tile holds float16, bfloat16, float32, "
                    "int8, int16 or int32 elements",
                    "convert the data on the host (e.g. x.astype(np.float32)) before passing it to the kernel")
    op = current_builder().create(name, operands, [TileType(tuple(shape), dtype, location)], attrs)
    return Tile(op.result)


def require_location(tile, allowed, what):
    loc = location_of(tile)
    if loc not in allowed:
        names = " or ".join(a.name for a in allowed)
        hint = {
            Location.L0A: "L0A/L0B tiles only feed @matmul; load vector operands with the default location (UB)",
            Location.L0B: "L0A/L0B tiles only feed @matmul; load vector operands with the default location (UB)",
            Location.L0C: "an L0C tile (matmul result) can only be stored, copied, cast with .to() or passed to relu",
            Location.L1: "an L1 tile can only be copied to L0A / L0B with @copy",
            Location.FIX: "no asc2 operation works on FIX tiles",
            Location.BT: "a BT (bias table) tile only initialises an accumulator: @zeros_acc([M, N], dtype, bias=b)",
            Location.UB: "load matmul operands with location=@TileLocation.L0A (left) / L0B (right), or copy "
                         "them there from L1 with @copy" if Location.L0A in allowed or Location.L0B in allowed
                         else "UB tiles feed vector ops and @store",
        }.get(loc)
        if loc == Location.L1:  # pyasc's SplitCubeLoad message
            raise error(RuntimeError, "L1 tile is expected to be used for copy operations only.",
                        f"{what} needs a tile in {names}; {hint}")
        raise error(RuntimeError, f"{what} expects a tile in {names}, got a tile in {loc.name}", hint)


def bind_tile_method(name, fn, operator=False):
    if operator:
        def method(self, *args, **kwargs):
            try:
                return fn(self, *args, **kwargs)
            except BinaryOperandTypeError:
                return NotImplemented
        method.__name__ = name
        setattr(Tile, name, method)
    else:
        setattr(Tile, name, fn)


# -- creation of constant tiles -----------------------------------------------------------------
def splat(value, dtype, shape, location=None) -> Tile:
    location = location or Location.UB
    if isinstance(value, PlainValue):
        s = value.cast(dtype) if value.dtype != dtype else value
        return emit_tile("tile.splat", [s.handle], shape, dtype, location)
    if isinstance(value, np.generic):
        value = value.item()
    value = int(value) if dtype.is_int() else float(value)
    return emit_tile("tile.const", [], shape, dtype, location, value=value)


define("tile.const", cost=vector_cost(), constant=True)
define("tile.splat", cost=vector_cost())


# -- conversion ---------------------------------------------------------------------------------
def _cast_rule(src, dst):
    if src.is_unsigned() or dst.is_unsigned():
        raise error(RuntimeError, f"Cast from {src} to {dst} is not supported",
                    "unsigned tiles are not supported; use a signed type of the same width")
    src_int, dst_int = src.is_int() or str(src) == "int1", dst.is_int() or str(dst) == "int1"
    # pyasc-dev's front end takes any cast (its compiler chains the conversions); April's crashed on these.
    if src_int != dst_int and src.bitwidth != dst.bitwidth and not tracing_august():
        mid = dt.DataType(("float" if dst.is_float() else "int") + str(src.bitwidth)) if src.bitwidth in (16, 32) else None
        via = f" e.g. .to(asc.{mid}).to(asc.{dst})" if mid is not None and str(mid) in dt.TILE_DTYPES else ""
        raise not_supported(f"Tile.to from {src} to {dst} (an int<->float cast between different bit widths)",
                            f"cast in two steps through a type of the source width{via}")


_QUANT_PAIRS = {("float32", "float16"), ("float32", "bfloat16"), ("int32", "float16"), ("float32", "int8"),
                ("float32", "uint8"), ("int32", "int8"), ("int32", "uint8")}


def cast(tile, dtype, round_mode=None) -> Tile:
    if not isinstance(dtype, dt.DataType):
        raise error(TypeError, f"Tile.to expects an asc dtype (e.g. asc.float32), got {dtype!r}",
                    "use the asc dtypes: asc.float16, asc.float32, asc.int32, ...")
    mode = _round_mode(round_mode)
    if dtype == tile.dtype:
        return tile
    if mode is not None:
        if location_of(tile) == Location.L0C:
            raise error(RuntimeError, "a rounding mode cannot be given for a conversion out of L0C",
                        "the fixpipe rounds to nearest: drop round_mode, or copy the tile to UB first")
        _cast_rule(tile.dtype, dtype)
        return emit_tile("tile.cast", [tile.handle], tile.shape, dtype, location_of(tile), round_mode=mode)
    if location_of(tile) == Location.L0C:
        if (str(tile.dtype), str(dtype)) not in _QUANT_PAIRS:
            raise error(RuntimeError, f"Unsupported quant mode from {tile.dtype} to {dtype}",
                        "fixpipe converts float32 -> float16 / bfloat16 / int8 and int32 -> float16 / int8")
        return emit_tile("tile.cast", [tile.handle], tile.shape, dtype, Location.L0C)
    _cast_rule(tile.dtype, dtype)   # August: pyasc-dev's compiler table is checked once traced (cast_rules)
    return emit_tile("tile.cast", [tile.handle], tile.shape, dtype, location_of(tile))


def _round_mode(round_mode):
    """The name of an explicit rounding (None for the default conversion)."""
    from .round_mode import RoundMode
    if round_mode is None or round_mode == RoundMode.Default:
        return None
    if not isinstance(round_mode, RoundMode):
        raise error(TypeError, f"'round_mode' argument must be RoundMode, got {type(round_mode).__name__}",
                    "pass e.g. @RoundMode.Floor")
    return round_mode.name


define("tile.cast", cost=vector_cost())   # pyasc-dev never casts in place (16-bit to 16-bit: two buffers)

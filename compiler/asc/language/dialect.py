"""The dialect table: every public kernel name of both pyasc generations -> the one semantic function.

pyasc's April 2026 API (``asc2.tensor`` / ``load`` / ``store`` / ``TileLocation`` / ``range(parallel=)``)
and its August 2026 API (``global_tensor`` / ``copy_in`` / ``copy_out`` / ``TensorLocation`` /
``range(gm_barrier=)``, published upstream as ``asc.experimental.asctile``) are spellings of the same
ops. ``asc2`` exports both generations, ``asc.experimental.asctile`` the August names only; both
namespaces are built from ``ENTRIES`` below. Keyword adapters (argument order, renamed keywords) are the
small functions here; they call the April functions, which own the checks and emit the IR.

A kernel's dialect (``Dialect``) decides how error hints spell names (``@load`` in a hint becomes
``asc2.load`` or ``asctile.copy_in``) and which default ``range`` has (see ``frontend.generation``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..ir.builder import localise as _localise
from ..ir.types import Location
from .core import dtype as dt
from .core.constexpr import ConstExpr
from .core.errors import error
from .core.ir_value import GlobalAddress
from .core.ir_value import PlainValue, to_scalar
from .core.ops import number
from .core.range import static_range
from .core.utils import ceildiv
from .tile import (atomic_ops, binary_ops, bitwise_ops, creation_ops, debug_ops, indexed_ops, indexing_ops,
                   low_level_ops, memory_ops, norm_ops, prog_model_ops, reduction_ops, shape_ops, subblock_ops,
                   unary_ops)
from .tile.range import asctile_range, range as asc2_range
from .tile.cast_rules import cast_fault
from .tile.round_mode import RoundMode
from .tile.tensor import Tensor, tensor
from .tile.tile import Tile, cast as tile_cast

APRIL, AUGUST = "april", "august"


# -- August adapters (argument order / keywords of the August spelling -> the April function) ---------
def global_tensor(base, shape, l2_cache=True):
    """``global_tensor(base, shape, l2_cache=True)``: a global-memory view of a pointer argument."""
    if not isinstance(l2_cache, bool):
        raise error(TypeError, f"'l2_cache' argument must be bool, got {type(l2_cache)}",
                    "pass l2_cache=True or l2_cache=False")
    return tensor(base, shape)


def _require_tensor(value, what, arg):
    if not isinstance(value, Tensor):
        raise error(TypeError, f"'{arg}' argument of {what} must be a GlobalTensor, got {type(value)}",
                    "wrap the pointer first: x_gm = @tensor(x_ptr, [size])")


def _check_offsets(offsets, dst):
    """pyasc-dev's check (and text) for the offsets of copy_in / copy_out: one per tensor dimension."""
    if isinstance(offsets, (list, tuple)) and len(offsets) and len(offsets) != len(dst.shape):
        raise error(ValueError, f"'offsets' must have {len(dst.shape)} values, got {len(offsets)}",
                    f"give one offset per tensor dimension ({len(dst.shape)})")


def copy_in(src, offsets, shape=None, location=Location.Auto, *, real_shape=None, pad_value=None):
    """``copy_in(src, offsets, shape=None, location=Auto, *, real_shape=None, pad_value=None)``.

    Without ``shape`` one scalar is read. The window is clamped to the tensor in every dimension (rows
    and columns); ``real_shape`` limits it further. What is not read is ``pad_value`` (0 when only
    ``real_shape`` is given, undefined when neither is); a window that starts wholly outside the tensor
    is an error. Loads into L1 / L0A / L0B pad with 0 without a ``pad_value``, as pyasc-dev lowers them."""
    _require_tensor(src, "copy_in", "src")
    _check_offsets(offsets, src)
    if shape is None:
        if real_shape is not None or pad_value is not None:
            raise error(ValueError, "'real_shape' and 'pad_value' need a tile shape",
                        "pass a shape to load a tile, or drop them to read one scalar")
        return memory_ops.load_tile(src, offsets=offsets, clip=True)
    user_pad = real_shape is not None or pad_value is not None
    if real_shape is not None and pad_value is None:
        pad_value = 0  # as pyasc: real_shape without a pad value pads with zeros
    cube_pad = False
    if pad_value is None:
        # pyasc-dev's front end gives every LoadOp a pad value (0 by default), and its lowering of a load
        # into L1 (alone or on the way to L0A / L0B) fills what the clipped window leaves with it; a UB
        # load (DataCopyPad) leaves that part undefined. Auto loads learn their location after tracing.
        where = memory_ops.as_location(location)
        if where in memory_ops.CUBE_SIDE_LOADS:
            pad_value = 0
        elif where == Location.Auto:
            pad_value, cube_pad = 0, True
    return memory_ops.load_tile(src, shape, offsets=offsets, location=location, pad_value=pad_value,
                                real_shape=real_shape, clip=True, cube_pad=cube_pad, user_pad=user_pad)


_NO_TRANSFER = ("Direct data transfer from {} to UB is not supported. Please call copy() with explicit locations to "
                "fulfill the requested data flow.")


def compile_fault(fn, uses):
    """What pyasc-dev's compiler refuses in the traced function ``fn`` (August) beyond its front end, once
    dead code is gone (``uses``: ``ir.analysis.readers``): the first (op, message, hint), else None.

    - a copy_in with ``pad_value`` / ``real_shape`` (a load with a real shape) into L1 / L0A / L0B, given or
      an Auto location resolved from its uses: that load is lowered into UB only;
    - a used ``copy`` from UB to UB (its docstring's example included): no data mover has that route;
    - a used ``empty`` / ``empty_like`` tile left at ``TensorLocation.Auto``: nothing places it in UB;
    - a conversion the vector unit lacks, or a rounding mode the conversion does not take (``cast_rules``)."""
    refused = cast_fault(fn, uses)
    if refused is not None:
        op, message, hint = refused
        return op, message, _localise(hint, fn.dialect)
    for op in fn.walk():
        loc = op.result.type.location if op.results and hasattr(op.result.type, "location") else None
        if op.name == "tile.load" and op.attrs.get("user_pad") and loc in memory_ops.CUBE_SIDE_LOADS:
            return op, f"'asctile.load' op only supports 'real_shape' with UB location, got {loc.name}", _localise(
                "a load into L1 / L0A / L0B fills what lies past the tensor with 0 by itself: drop pad_value / "
                "real_shape here (or copy into UB when another pad value is needed)", fn.dialect)
        used = op.results and uses.get(op.result.id)
        if used and op.name == "tile.copy" and loc == Location.UB and op.operands[0].type.location == Location.UB:
            return op, _NO_TRANSFER.format("UB"), _localise(
                "a UB tile cannot be copied into UB: copy_in each window from global memory (or compute on the "
                "whole tile)", fn.dialect)
        if used and op.name == "tile.empty" and op.attrs.get("auto_location"):
            return used[0], _NO_TRANSFER.format("auto"), _localise(   # at its first use, as pyasc reports it
                "give the tile a location: @empty(shape, dtype, @TensorLocation.UB) (empty_like takes the location "
                "of its tile, which is Auto for a copy_in without one)", fn.dialect)
    return None


def copy_out(src, dst, offsets, *, real_shape=None):
    """``copy_out(src, dst, offsets, *, real_shape=None)``: a tile, or a scalar / 1-element tile. The window
    is clipped to the tensor in every dimension, as pyasc-dev's interpreter clips it: what lies outside
    is not written."""
    if isinstance(src, Tensor) or not isinstance(src, (Tile, PlainValue, int, float, np.number)):
        # pyasc-dev's check_type("src", src, (LocalTensor, RuntimeNumeric)), which prints the tuple of types
        got = "GlobalTensor" if isinstance(src, Tensor) else type(src).__name__
        raise error(TypeError, "'src' argument must be (<class 'asc.experimental.asctile.language.local_tensor."
                    "LocalTensor'>, typing.Union[asc.language.core.ir_value.PlainValue, int, float]), got " + got,
                    "copy_out writes a tile or a scalar; to copy global memory, @copy_in the window first and "
                    "@copy_out that tile")
    _require_tensor(dst, "copy_out", "dst")
    _check_offsets(offsets, dst)
    if isinstance(src, Tile) and src.size == 1:
        real_shape = None   # pyasc-dev: a one-element tile is a scalar store, which has no real_shape
    return memory_ops.store_tile(src, dst, offsets=offsets, real_shape=real_shape, clip=True)


def cast(input, dtype, round_mode=RoundMode.Default):
    """``cast(input, dtype, round_mode=RoundMode.Default)``: ``input.to(dtype, round_mode)`` for a tile
    (``tile.round_mode`` states the roundings); a scalar is converted with the default rounding."""
    if not isinstance(dtype, dt.DataType):
        raise error(TypeError, f"'dtype' argument must be DataType, got {type(dtype).__name__}",
                    "pass a dtype such as @float32")
    if isinstance(input, (PlainValue, int, float)) and not isinstance(input, Tile):
        if round_mode != RoundMode.Default:
            raise error(RuntimeError, "'round_mode' argument cannot be used with scalar input",
                        "drop round_mode for a scalar (or cast a tile)")
        return to_scalar(input, dtype)
    if not isinstance(input, Tile):
        raise error(TypeError, f"'input' argument must be Tile, got {type(input)}",
                    "cast a tile, a runtime scalar or a number")
    return tile_cast(input, dtype, round_mode)


def copy_form(n_positional, keywords):
    """Which spelling a ``copy`` call uses: April ``copy(tile, shape, *, offsets=, location=)`` or August
    ``copy(src, offsets, shape, location)``; None when the call reads the same in both, e.g.
    ``copy(t, x)``, whose ``x`` is the April shape or the August offsets: the kernel's generation decides."""
    keywords = set(keywords)
    if n_positional >= 3 or "shape" in keywords or "distrib" in keywords:
        return AUGUST
    if "offsets" in keywords:
        return APRIL
    return None


def copy(src, *args, **kwargs):
    """``copy`` in both spellings (``copy_form``); an ambiguous call follows the kernel's generation.
    August: ``copy(src, offsets=None, shape=None, location=None, distrib=None)`` (location defaults to the
    source's; ``distrib``: a ``DistribMode``);
    April: ``copy(tile, shape=None, *, offsets=None, location=UB)``."""
    unknown = sorted(set(kwargs) - {"offsets", "shape", "location", "distrib"})
    if unknown:
        raise error(TypeError, f"copy() got an unexpected keyword argument '{unknown[0]}'",
                    "copy(src, offsets, shape, location)")
    form = copy_form(len(args), [k for k, v in kwargs.items()])
    if form is None:
        form = AUGUST if current_dialect().august else APRIL
    names = ("shape",) if form == APRIL else ("offsets", "shape", "location", "distrib")
    if len(args) > len(names):
        raise error(TypeError, f"copy() takes at most {len(names) + 1} positional arguments ({len(args) + 1} given)",
                    "@copy(src, offsets, shape, location, distrib)" if form == AUGUST else
                    "@copy(tile, shape, offsets=[...], location=...)")
    given = dict(zip(names, args))
    for k, v in kwargs.items():
        if k in given:
            raise error(TypeError, f"copy() got multiple values for argument '{k}'", "pass each argument once")
        given[k] = v
    if not isinstance(src, Tile):
        raise error(TypeError, f"'tile' argument must be Tile, got {type(src)}",
                    "copy moves a tile between on-chip locations")
    location = given.get("location")
    if location is None:
        location = Location.UB if form == APRIL else src.handle.type.location
    return memory_ops.copy(src, given.get("shape"), offsets=given.get("offsets"), location=location,
                           distrib=given.get("distrib"))


def current_dialect():
    from ..ir.builder import current_builder
    return current_builder().dialect or Dialect()


# -- the table -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    name: str
    obj: object
    dialects: tuple = (APRIL, AUGUST)


def _module_entries(module, names, dialects=(APRIL, AUGUST)):
    return [Entry(n, getattr(module, n), dialects) for n in names]


_BOTH = (APRIL, AUGUST)
ENTRIES = [
    # global memory and placement
    Entry("tensor", tensor, (APRIL,)),
    Entry("load", memory_ops.load, (APRIL,)),
    Entry("store", memory_ops.store, (APRIL,)),
    Entry("TileLocation", Location, (APRIL,)),
    Entry("global_tensor", global_tensor, (AUGUST,)),
    Entry("copy_in", copy_in, (AUGUST,)),
    Entry("copy_out", copy_out, (AUGUST,)),
    Entry("TensorLocation", Location, (AUGUST,)),
    Entry("copy", copy),
    Entry("cast", cast, (AUGUST,)),
    Entry("GlobalAddress", GlobalAddress),
    Entry("GlobalTensor", Tensor, (AUGUST,)),
    Entry("LocalTensor", Tile, (AUGUST,)),
    Entry("ConstExpr", ConstExpr),
    # loops
    Entry("range", asc2_range, (APRIL,)),
    Entry("static_range", static_range),
    Entry("ceildiv", ceildiv),
    Entry("number", number),
    # asctile's operands are src / dst (pyasc-dev), asc2's tile / tensor (April): asc2 takes the later entry
    *[Entry(n, getattr(atomic_ops, f"august_{n}"), (AUGUST,)) for n in ("atomic_add", "atomic_max", "atomic_min")],
    *_module_entries(atomic_ops, ("atomic_add", "atomic_max", "atomic_min"), (APRIL,)),
    *_module_entries(binary_ops, ("add", "div", "equal", "greater", "greater_equal", "left_shift", "less",
                                  "less_equal", "matmul", "matmul_acc", "maximum", "minimum", "mul", "not_equal",
                                  "right_shift", "sub")),
    *_module_entries(creation_ops, ("concat", "full", "full_like", "zeros", "zeros_acc", "zeros_like")),
    *_module_entries(prog_model_ops, ("block_idx", "block_num")),
    Entry("num_tiles", prog_model_ops.num_tiles, (APRIL,)),
    *_module_entries(shape_ops, ("broadcast_to", "expand_dims", "ravel", "reshape", "squeeze")),
    *_module_entries(unary_ops, ("abs", "ceil", "cos", "cosh", "erf", "exp", "exp2", "floor", "log", "log2",
                                 "negative", "relu", "rms_norm", "rsqrt", "sin", "sinh", "softmax", "sqrt", "tan",
                                 "tanh")),
    *_module_entries(indexing_ops, ("mask", "where")),
    *_module_entries(reduction_ops, ("reduce_max", "reduce_min", "reduce_prod", "reduce_sum")),
    *[Entry(n, getattr(dt, n)) for n in ("DataType", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                          "uint32", "uint64", "float16", "bfloat16", "float32", "float64", "half",
                                          "float_", "double", "int_")],
    # names pyasc-dev's asctile adds (asc.experimental.asctile's dir())
    *[Entry(n, getattr(dt, n), (AUGUST,)) for n in ("bool_", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnuz")],
    *_module_entries(bitwise_ops, ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "pow"), (AUGUST,)),
    *_module_entries(debug_ops, ("device_print", "device_assert", "static_print", "static_assert"), (AUGUST,)),
    *_module_entries(subblock_ops, ("DistribMode", "cv_strategy", "sub_block_idx", "sub_block_num"), (AUGUST,)),
    *_module_entries(low_level_ops, ("empty", "empty_like", "inline", "inline_vf", "to_asc", "from_asc"),
                     (AUGUST,)),
    *_module_entries(norm_ops, ("layer_norm",), (AUGUST,)),
    *_module_entries(indexed_ops, ("gather", "scatter"), (AUGUST,)),
    *_module_entries(shape_ops, ("broadcast_shapes", "broadcast_tensors"), (AUGUST,)),
    Entry("transpose", shape_ops.transpose_axes, (AUGUST,)),
    Entry("RoundMode", RoundMode, (AUGUST,)),
]

# The August loop (gm_barrier only) is what asctile calls ``range``; asc2.range takes both keywords.
ASCTILE_ONLY = [Entry("range", asctile_range, (AUGUST,))]

# Names whose use makes a kernel August (``frontend.generation``); ``copy`` only in its August form.
AUGUST_ONLY_NAMES = frozenset({"global_tensor", "copy_in", "copy_out", "TensorLocation", "DistribMode", "GlobalAddress",
                               "GlobalTensor", "LocalTensor"})


# Names ``asc2`` keeps (its April surface and the fork's ``asc2.number``) that upstream's
# ``asc.experimental.asctile`` does not export: an asctile kernel using one would fail there.
NOT_IN_ASCTILE = frozenset({"number", "half", "double", "uint8", "uint16", "uint32", "uint64"})


def namespace(dialects):
    """Public name -> object of the entries of ``dialects`` (asc2: both; asctile: August)."""
    out = {}
    for e in ENTRIES:
        if any(d in e.dialects for d in dialects):
            out[e.name] = e.obj
    if dialects == (AUGUST,):
        out.update({e.name: e.obj for e in ASCTILE_ONLY})
        for name in NOT_IN_ASCTILE:
            out.pop(name, None)
    return out


# -- how a kernel's errors spell names -----------------------------------------------------------------
_AUGUST_SPELLING = {"tensor": "global_tensor", "load": "copy_in", "store": "copy_out",
                    "TileLocation": "TensorLocation", "Location": "TensorLocation"}
_APRIL_SPELLING = {"Location": "TileLocation"}


@dataclass
class Dialect:
    """The generation of a kernel and the module name it calls the API by (``asc2``, ``asctile``...)."""
    generation: str = APRIL
    module: str = "asc2"
    aliases: dict = field(default_factory=dict)

    @property
    def august(self):
        return self.generation == AUGUST

    def name_of(self, key):
        table = _AUGUST_SPELLING if self.august else _APRIL_SPELLING
        return table.get(key, key)

    def spell(self, key):
        return f"{self.module}.{self.name_of(key)}"

    def localise(self, text):
        return localise(text, self)


def localise(text, dialect=None):
    """``@name`` tokens of a message or hint in the dialect's spelling (``@load`` -> ``asc2.load``)."""
    return _localise(text, dialect or Dialect())

"""``load`` / ``store`` / ``copy``: moving tiles between global memory and on-chip buffers."""
from __future__ import annotations

import enum

import numpy as np

from ...ir.builder import current_builder, tracing_august
from ...ir.registry import define
from ...ir.types import Location, ScalarType
from ..core import dtype as dt
from ..core.errors import NotSupportedError, error
from .costs import dma_ticks, vector_cost
from ..core.ir_value import PlainValue, to_scalar
from .round_mode import RoundMode
from .tensor import Tensor
from .tile import Tile, as_location, bind_tile_method, cast, emit_tile, location_of, require_location
from .utils import check_data_alignment, verify_shape

_LOAD_LOCATIONS = (Location.UB, Location.L1, Location.L0A, Location.L0B, Location.BT)
# Loads whose clipped part the August lowering fills with the load's pad value (Nd2Nz into L1, then Fill)
CUBE_SIDE_LOADS = (Location.L1, Location.L0A, Location.L0B)


def _check_tensor(t, what):
    if not isinstance(t, Tensor):
        raise error(TypeError, f"'{what}' expects an @tensor as the global-memory argument, got {type(t)}",
                    "wrap the pointer first: x_gm = @tensor(x_ptr, [size])")
    if t.rank > 2 and not tracing_august():   # August's front end takes any rank
        raise error(RuntimeError, f"{what} of a rank-{t.rank} tensor is not supported: pyasc lowers "
                    "load/store for tensors of rank <= 2 only",
                    "view the data as 2-D on the host (e.g. x.reshape(-1, last_dim)) and use a 2-D tensor")


def _offsets(tensor, shape, tile_id, offsets):
    if (tile_id is None) == (offsets is None):
        raise error(ValueError, "Exactly one of 'tile_id' or 'offsets' must be provided",
                    "pass offsets=[...] (element indices) or tile_id=[...] (in units of the tile shape), not both")
    vals = list(tile_id if tile_id is not None else offsets)
    if len(vals) != tensor.rank:
        raise error(RuntimeError, f"{'tile_id' if tile_id is not None else 'offsets'} needs one value per "
                    f"tensor dimension: got {len(vals)} for a rank-{tensor.rank} tensor",
                    "give one value per tensor dimension, e.g. offsets=[row, col] for a 2-D tensor")
    if tile_id is not None:
        vals = [v * s for v, s in zip(vals, shape)]
    return [to_scalar(v, dt.int32).handle for v in vals]


def _real_shape(real_shape, shape, what):
    """Operands of ``real_shape`` (how many elements per dimension are valid), checked against ``shape``."""
    if real_shape is None:
        return []
    try:
        vals = list(real_shape)
    except TypeError:
        raise error(TypeError, f"'real_shape' must be a list of ints, got {type(real_shape)}",
                    "pass one count per dimension, e.g. real_shape=[rows_left, cols]") from None
    if len(vals) != len(shape):
        raise error(RuntimeError, f"'real_shape' needs one value per dimension: got {len(vals)} for a rank-"
                    f"{len(shape)} {what}", "give real_shape the rank of the tile shape")
    for i, (d, r) in enumerate(zip(shape, vals)):
        if isinstance(r, (int, np.integer)) and not isinstance(r, bool) and not 0 <= int(r) <= d:
            # pyasc's text, which names the value where an index would be and prints both as tuples
            raise error(RuntimeError, f"real_shape[{int(r)}] (which is {tuple(vals)}) exceeds tensor dimension "
                        f"#{d} (which is {tuple(shape)})",
                        f"real_shape[{i}] is {int(r)}; each real_shape value must lie in 0..{d} (the tile's dimension)")
    return [to_scalar(r, dt.int32).handle for r in vals]


class _DefaultPad(int):
    """The April ``load``'s default ``pad_value`` (0, as pyasc's): a load given no pad_value whose window
    reads nothing (it starts past the end of the tensor) yields only this padding, which the simulator
    follows as undefined (``sim.ops.memory``), while one given ``pad_value=0`` asked for it."""

    def __repr__(self):
        return "0"


DEFAULT_PAD = _DefaultPad(0)


def load(tensor, shape=None, *, tile_id=None, offsets=None, location=Location.UB, pad_value=DEFAULT_PAD,
         real_shape=None):
    return load_tile(tensor, shape, tile_id=tile_id, offsets=offsets, location=location, pad_value=pad_value,
                     real_shape=real_shape)


def load_tile(tensor, shape=None, *, tile_id=None, offsets=None, location=Location.UB, pad_value=0,
              real_shape=None, clip=False, cube_pad=False, user_pad=False):
    """``load``; ``clip``: the window is clamped to the tensor in every dimension (the August ``copy_in``,
    as pyasc-dev's interpreter clips it): what lies outside is padding, a window wholly outside reads
    nothing, and a scalar outside the tensor reads 0 with a warning (``sim/ops/memory.py``); ``cube_pad``:
    an Auto load's ``pad_value`` holds only if it resolves to L1 / L0A / L0B; ``user_pad``: the kernel gave
    ``pad_value`` or ``real_shape`` (which pyasc-dev lowers for UB loads only: ``dialect.compile_fault``)."""
    _check_tensor(tensor, "load")
    if shape is None:
        if tile_id is not None:
            raise error(ValueError, "'tile_id' cannot be used for a scalar load (no shape given)",
                        "pass offsets=[...] to read one element, or a shape to load a tile")
        if offsets is None:
            raise error(ValueError, "'offsets' argument must be provided",
                        "pass offsets=[...] with one element index per tensor dimension")
        offs = [to_scalar(v, dt.int32).handle for v in offsets]
        if len(offs) != tensor.rank:
            raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'offsets'",
                        "give one offset per tensor dimension")
        op = current_builder().create("tensor.get_value", [tensor.handle] + offs, [ScalarType(tensor.dtype)],
                                      {"clip": True} if clip else {})
        return PlainValue(op.result)
    shape = verify_shape(shape)
    check_data_alignment(shape, tensor.dtype)
    if len(shape) != tensor.rank:
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    f"the tensor has {tensor.rank} dimension(s); give the tile shape as many")
    location = as_location(location)
    auto = location == Location.Auto
    if auto:  # resolved from the tile's uses once the kernel is traced (resolve_auto_locations)
        location = Location.UB
    if location not in _LOAD_LOCATIONS:
        raise error(RuntimeError, "invalid destination location of the tile",
                    "load into UB (vector ops), L1 (cube staging), L0A / L0B (matmul operands) or BT (a bias row)")
    if location == Location.BT and (len(shape) != 1 or not tensor.dtype.is_float()):
        raise error(RuntimeError, "a BT (bias table) tile holds one row of float16 / bfloat16 / float32 values",
                    "load the bias as a 1-D tile, e.g. shape [n]")
    offs = _offsets(tensor, shape, tile_id, offsets)
    real = _real_shape(real_shape, shape, "tile")
    if real and location in CUBE_SIDE_LOADS and not tracing_august():   # August: padded_cube_load_fault
        raise error(RuntimeError, f"real_shape is not supported for loads into {location.name}",
                    "load the full tile into L1 / L0A / L0B, or load into UB with real_shape")
    operands = [tensor.handle] + offs
    has_pad = pad_value is not None
    if has_pad:
        operands.append(to_scalar(pad_value, tensor.dtype).handle)
    attrs = {"clip": True} if clip else {}
    if auto:
        attrs["auto_location"] = True
    if pad_value is DEFAULT_PAD:
        attrs["pad_default"] = True
    if cube_pad:
        attrs["cube_pad"] = True
    if user_pad:
        attrs["user_pad"] = True
    return emit_tile("tile.load", operands + real, shape, tensor.dtype, location, has_pad=has_pad,
                     has_real=bool(real), **attrs)


def store(value, tensor, *, tile_id=None, offsets=None, real_shape=None):
    return store_tile(value, tensor, tile_id=tile_id, offsets=offsets, real_shape=real_shape)


def store_tile(value, tensor, *, tile_id=None, offsets=None, real_shape=None, clip=False):
    """``store``; ``clip``: the window is clamped to the tensor in every dimension (the August ``copy_out``,
    as pyasc-dev's interpreter clips it): rows and columns outside are not written, a window wholly
    outside writes nothing, and so does a scalar store outside the tensor (with a warning)."""
    _check_tensor(tensor, "store")
    if not isinstance(value, Tile) or value.size == 1:
        if tile_id is not None:
            raise error(ValueError, "'tile_id' argument cannot be used when storing a scalar value or a tile with 1 element",
                        "store a scalar at element offsets: offsets=[...]")
        if offsets is None:
            raise error(ValueError, "'offsets' argument must be provided",
                        "pass offsets=[...] with one element index per tensor dimension")
        if real_shape is not None:
            raise error(ValueError, "'real_shape' cannot be used when storing a scalar value",
                        "drop real_shape: a scalar store writes one element")
        if isinstance(value, Tile):
            value = value.reshape(*([1] * len(value.shape)))
            v = value.to(tensor.dtype)
            operands = [v.handle]
        else:
            operands = [to_scalar(value, tensor.dtype).handle]
        offs = [to_scalar(o, dt.int32).handle for o in offsets]
        if len(offs) != tensor.rank:
            raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'offsets'",
                        "give one offset per tensor dimension")
        current_builder().create("tensor.set_value", [tensor.handle] + offs + operands, [],
                                 {"clip": True} if clip else {})
        return None
    require_location(value, (Location.UB, Location.L0C), "store")
    shape = value.shape
    if tracing_august():   # pyasc-dev checks real_shape against the tile before anything else
        _real_shape(real_shape, shape, "tile")
    check_data_alignment(shape, value.dtype)
    offs = _offsets(tensor, shape, tile_id, offsets)
    if len(shape) != tensor.rank:
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    f"the tensor has {tensor.rank} dimension(s) but the tile has {len(shape)}")
    if value.dtype != tensor.dtype:
        raise error(RuntimeError, "failed to verify that all of {base, value} have same element type",
                    f"cast the tile first: .to(asc.{tensor.dtype}) before storing it")
    real = _real_shape(real_shape, shape, "tile")
    attrs = {"has_real": bool(real)}
    if clip:
        attrs["clip"] = True
    current_builder().create("tile.store", [value.handle, tensor.handle] + offs + real, [], attrs)


_COPY_ROUTES = {(Location.L1, Location.L0A), (Location.L1, Location.L0B), (Location.L1, Location.BT),
                (Location.L0C, Location.L1), (Location.L0C, Location.UB), (Location.UB, Location.L1)}
_ROUTE_NAMES = "L1 -> L0A / L0B / BT, L0C -> L1 / UB and UB -> L1"


class DistribMode(enum.Enum):
    """How ``copy`` distributes a tile across the two vector sub-blocks of a cube core (``cv_ratio=2``)."""
    FullVec0 = 0
    FullVec1 = 1
    SplitByM = 2
    SplitByN = 3
    JoinByM = 4
    JoinByN = 5


# The transfers each mode is defined for (pyasc's copy docstring).
_DISTRIB_ROUTES = {
    DistribMode.FullVec0: {(Location.L0C, Location.UB), (Location.UB, Location.L1)},
    DistribMode.FullVec1: {(Location.L0C, Location.UB), (Location.UB, Location.L1)},
    DistribMode.SplitByM: {(Location.L0C, Location.UB)},
    DistribMode.SplitByN: {(Location.L0C, Location.UB)},
    DistribMode.JoinByM: {(Location.UB, Location.L1)},
    DistribMode.JoinByN: {(Location.UB, Location.L1)},
}


def _distrib_shape(tile, shape, distrib):
    """pyasc's shape rules of ``copy(..., distrib=)``: the result shape, or its error."""
    if not isinstance(distrib, DistribMode):
        raise error(TypeError, f"'distrib' argument must be DistribMode or None, got {type(distrib).__name__}",
                    "pass a member of @DistribMode, e.g. distrib=@DistribMode.FullVec0")
    result = list(tile.shape)
    by_axis = distrib not in (DistribMode.FullVec0, DistribMode.FullVec1)
    if by_axis:
        if len(tile.shape) != 2:
            raise error(RuntimeError, f"Distributing by axis is only supported for 2D tensors, got "
                        f"{tuple(tile.shape)} shape", "split or join a 2-D [M, N] tile")
        axis = 0 if distrib in (DistribMode.SplitByM, DistribMode.JoinByM) else 1
        split = distrib in (DistribMode.SplitByM, DistribMode.SplitByN)
        result[axis] = result[axis] // 2 if split else result[axis] * 2
        if shape is not None and tuple(shape) != tuple(result):
            raise error(RuntimeError, f"{'Splitting' if split else 'Joining'} by axis is only supported for the "
                        f"{'split' if split else 'joined'} shape {tuple(result)}, got {tuple(shape)}",
                        "omit the shape: the mode decides it")
        if distrib == DistribMode.SplitByM and tile.shape[0] % 2:
            raise error(RuntimeError, f"Splitting by M axis requires that it be a multiple of 2, got {tile.shape[0]}",
                        "give the tile an even number of rows")
        if distrib == DistribMode.SplitByN and tile.shape[1] % 32:
            raise error(RuntimeError, f"Splitting by N axis requires that it be a multiple of 32, got "
                        f"{tile.shape[1]}", "give the tile a multiple of 32 columns")
    return tuple(result) if shape is None else shape


def copy(tile, shape=None, *, offsets=None, location=Location.UB, distrib=None):
    if not isinstance(tile, Tile):
        raise error(TypeError, f"'tile' argument must be Tile, got {type(tile)}",
                    "@copy moves a tile between on-chip locations")
    if distrib is None and isinstance(location, (Location, str)) and as_location(location) in (Location.L0A,
                                                                                               Location.L0B):
        tile = _stage(tile)
    if distrib is not None:
        shape = _distrib_shape(tile, shape, distrib)
        route = (location_of(tile), as_location(location))
        if route not in _DISTRIB_ROUTES[distrib]:
            legal = " and ".join(f"{a.name} -> {b.name}" for a, b in sorted(_DISTRIB_ROUTES[distrib],
                                                                             key=lambda r: r[0].value))
            raise error(RuntimeError, f"distrib=DistribMode.{distrib.name} is defined for {legal} copies, not "
                        f"{route[0].name} -> {route[1].name}", "drop distrib for this copy, or copy between "
                        f"the locations the mode is defined for ({legal})")
        if distrib != DistribMode.FullVec0:
            raise error(NotSupportedError, f"copy with distrib=DistribMode.{distrib.name} needs the two vector "
                        "sub-blocks of a cube core (cv_ratio=2), which this engine does not model",
                        "use distrib=DistribMode.FullVec0 (the whole tile in the vector core), and split the "
                        "rows between blocks with @block_idx")
    shape = verify_shape(tile.shape if shape is None else shape)
    check_data_alignment(shape, tile.dtype)
    if len(shape) != len(tile.shape):
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    "the copy shape needs the source tile's rank")
    src = location_of(tile)
    location = as_location(location)
    if src == Location.L1 and location == Location.BT:
        if len(shape) != 1 or not tile.dtype.is_float():
            raise error(RuntimeError, "a BT (bias table) tile holds one row of float16 / bfloat16 / float32 values",
                        "copy a 1-D slice of the L1 tile into BT")
    elif src == Location.L1:
        if location not in (Location.L0A, Location.L0B):
            raise error(RuntimeError, "L1 tile copy to L0A/L0B location is expected only.",
                        "an L1 tile only stages matmul operands: copy it to location=@TileLocation.L0A or L0B")
        first = current_builder().l1_targets.setdefault(tile.handle.id, location)
        if first != location:
            raise error(RuntimeError, "The same L1 tile should be copied only to tiles in same L0A/L0B location.",
                        f"this L1 tile already feeds {first.name} (its layout depends on the operand): load the "
                        f"data into a second L1 tile for {location.name}")
    # pyasc-dev's copy (its own examples: ``copy(src)``, ``copy(src, [16, 16], [32, 32])`` of a UB tile) and
    # its interpreter take a window of a UB tile into UB; April's lowering had no such route
    ub_window = tracing_august() and src == location == Location.UB
    if (src, location) not in _COPY_ROUTES and not ub_window:
        raise error(RuntimeError, "dst tile location is not supported",
                    f"@copy moves {_ROUTE_NAMES}; {src.name} -> {location.name} has no lowering")
    if src == Location.L0C and tile.dtype == dt.float32 and not tracing_august():
        # April's lowering asserts a quantised destination; the August API copies float32 results as they are.
        raise error(RuntimeError, "copy from L0C needs a float16 / bfloat16 tile (fixpipe quantises on the way)",
                    "cast first: @copy(c.to(asc.float16), location=...)")
    offs = [to_scalar(o, dt.int32).handle for o in (offsets or [0] * len(shape))]
    if tracing_august() and any(not isinstance(o, int) or o + a > b
                                for o, (a, b) in zip(offsets or [], zip(shape, tile.shape))):
        # a window that may leave its source: clipped per dimension, the rest undefined (pyasc-dev's
        # interpreter; sim/ops/memory.py)
        return emit_tile("tile.copy", [tile.handle] + offs, shape, tile.dtype, location, clip=True)
    for o, (a, b) in zip(offsets or [], zip(shape, tile.shape)):
        if isinstance(o, int) and o + a > b:
            raise error(RuntimeError, f"copy window at offset {o} with size {a} exceeds the source tile dimension {b}",
                        "keep offset + size within the source tile")
    return emit_tile("tile.copy", [tile.handle] + offs, shape, tile.dtype, location)


# -- TensorLocation.Auto and the way into the cube ------------------------------------------------------
# August kernels: where the cube reads a UB tile (a matmul / matmul_acc operand or bias, a copy to L0A /
# L0B) the data goes UB -> L1 (a staging copy, ``auto_stage``) -> L0A / L0B / BT, as pyasc's casts lower
# (FulfillDataTransfer), and an L1 tile is copied L1 -> L0A / L0B / BT at that line; April kernels keep
# requiring L0A / L0B operands. A ``copy_in`` left at
# ``TensorLocation.Auto`` is traced as a UB load marked ``auto_location``; once the kernel is traced,
# ``resolve_auto_locations`` decides its location from all of its uses, as pyasc's ResolveAutoLocation
# pass does: a tile only the cube reads is loaded into L1 (its staging copies disappear; with whole-tile
# uses of one L0 buffer, the load goes straight there: MTE2 into L1, then MTE1 into L0A / L0B); a tile
# a vector op or a store also reads stays in UB and its cube uses keep the UB -> L1 -> L0 copies.
def is_auto_load(tile):
    """Whether ``tile`` is an Auto ``copy_in`` (also as a loop's block argument carried from one)."""
    value, carried = tile.handle, current_builder().carried_init
    while value.id in carried:
        value = carried[value.id]
    owner = value.owner
    return getattr(owner, "name", None) == "tile.load" and owner.attrs.get("auto_location", False)


def _stage(tile):
    """A UB tile the cube is about to read, copied to L1 first (August kernels, Auto loads)."""
    if location_of(tile) != Location.UB or not (tracing_august() or is_auto_load(tile)):
        return tile
    zeros = [to_scalar(0, dt.int32).handle for _ in tile.shape]
    return emit_tile("tile.copy", [tile.handle] + zeros, tile.shape, tile.dtype, Location.L1, auto_stage=True)


def cube_operand(tile, location):
    """``tile`` as the cube reads it from ``location`` (L0A / L0B, BT for a bias row): a UB tile is moved
    there (see above);
    any other tile is returned as it is, for the caller's location check."""
    if not isinstance(tile, Tile):
        return tile
    if location_of(tile) == Location.L1 and tracing_august():  # pyasc copies it L1 -> L0A / L0B / BT
        return copy(tile, None, location=location)
    staged = _stage(tile)
    if staged is tile:
        return tile
    zeros = [to_scalar(0, dt.int32).handle for _ in tile.shape]
    return emit_tile("tile.copy", [staged.handle] + zeros, tile.shape, tile.dtype, location, auto_whole=True)


def vector_operand(tile, what=None):
    """``tile`` as the vector op ``what`` reads it. In an August kernel an L0C tile (a matmul result, an
    accumulator) is copied to UB at that line, as pyasc-dev does: its front end casts every vector operand
    to UB and its LocationCastToCopy pass makes the cast an L0C -> UB copy (the cost of an explicit
    ``copy(c, location=UB)``: the FIX pipe); an L1 / L0A / L0B / BT tile has no path to UB and fails
    with its FulfillDataTransfer text. April kernels keep requiring a UB tile. ``what`` None: move only,
    for operands whose location the caller does not check."""
    if not isinstance(tile, Tile):
        return tile
    loc = location_of(tile)
    if loc == Location.L0C and tracing_august():
        tile = copy(tile, None, location=Location.UB)
    elif loc != Location.UB and tracing_august() and what is not None:
        raise error(RuntimeError, f"{what} expects a tile in UB, got a tile in {loc.name}",
                    f"vector operations read UB tiles; an {loc.name} tile only feeds the cube: load the data "
                    "with @copy_in(..., @TensorLocation.UB) for this use", source=loc.name)
    if what is not None:
        require_location(tile, (Location.UB,), what)
    return tile


def resolve_auto_locations(fn):
    """Give every Auto ``copy_in`` of the traced function ``fn`` its location from its uses (see above)."""
    uses, block_of, loads = {}, {}, []

    def visit(block):
        for op in block.ops:
            block_of[op.id] = block
            for i, v in enumerate(op.operands):
                uses.setdefault(v.id, []).append((op, i))
            if op.name == "tile.load" and op.attrs.get("auto_location"):
                loads.append(op)
            for region in op.regions:
                visit(region)

    def replace(old, new):
        for user, i in uses.pop(old.id, []):
            user.operands[i] = new
            uses.setdefault(new.id, []).append((user, i))

    def remove(op):
        block_of[op.id].ops.remove(op)
        for i, v in enumerate(op.operands[1:], 1):  # the copy's offsets, constants nothing else reads
            const = v.owner
            if getattr(const, "name", None) == "scalar.const" and uses.get(v.id) == [(op, i)]:
                block_of[const.id].ops.remove(const)

    def unpad(load):
        """A UB load of an Auto ``copy_in`` without a pad value: its clipped part stays undefined."""
        pad = load.operands.pop(1 + len(load.result.type.shape))
        load.attrs["has_pad"] = False
        if getattr(pad.owner, "name", None) == "scalar.const" and len(uses.get(pad.id, [])) == 1:
            block_of[pad.owner.id].ops.remove(pad.owner)

    visit(fn.body)
    for load in loads:
        value = load.result
        direct = [u for u, _ in uses.get(value.id, [])]
        flips = [u for u in direct if u.name == "tile.cube_transpose"]   # `.T` of the loaded tile
        users = [u for u in direct if u not in flips] + [u for f in flips for u, _ in uses.get(f.result.id, [])]
        stages = [u for u in users if u.name == "tile.copy" and u.attrs.get("auto_stage")]
        if not stages or len(stages) != len(users) or load.attrs.get("has_real"):
            if load.attrs.pop("cube_pad", False):
                unpad(load)
            for f in flips:   # the tile stays in UB: a vector transpose
                f.name = "tile.transpose"
            continue  # read by a vector op or a store too (or never by the cube): it stays in UB
        if flips:   # only the cube reads it, transposed: loaded into L1, the L1 -> L0 load transposes
            load.attrs.pop("cube_pad", None)
            t = value.type
            value.type = type(t)(t.shape, t.dtype, Location.L1)
            for f in flips:
                f.results[0].type = type(t)(f.results[0].type.shape, t.dtype, Location.L1)
            for st in stages:
                replace(st.result, st.operands[0])
                remove(st)
            continue
        l0 = [u for s in stages for u, _ in uses.get(s.result.id, [])]
        targets = {u.results[0].type.location for u in l0}
        t = value.type
        whole = all(u.name == "tile.copy" and u.attrs.get("auto_whole") for u in l0)
        if whole and len(targets) == 1:
            value.type = type(t)(t.shape, t.dtype, targets.pop())
            for c in l0:
                replace(c.result, value)
                remove(c)
        else:
            value.type = type(t)(t.shape, t.dtype, Location.L1)
        if load.attrs.pop("cube_pad", False) and value.type.location not in CUBE_SIDE_LOADS:
            unpad(load)  # a bias row loaded straight into BT
        for s in stages:
            replace(s.result, value)
            remove(s)


# -- costs ---------------------------------------------------------------------------------------
def _load_cost(op, hw):
    t = op.results[0].type
    gm = ("MTE2", dma_ticks(hw, t, op.operands[0].type), hw.mte2_latency)
    if t.location in (Location.L0A, Location.L0B):  # split into GM -> L1 and L1 -> L0 (SplitCubeLoad)
        return [gm, ("MTE1", hw.l0_load_busy(t.nbytes))]
    return gm


def _store_cost(op, hw):
    t = op.operands[0].type
    if t.location == Location.L0C:
        return ("FIX", hw.fixpipe_busy(t.nbytes))
    return ("MTE3", dma_ticks(hw, t, op.operands[1].type, store=True), hw.mte3_latency)


_UB_WINDOW_COST = vector_cost()


def _copy_cost(op, hw):
    t = op.results[0].type
    if op.operands[0].type.location == Location.L0C:
        return ("FIX", hw.fixpipe_busy(t.nbytes))
    if op.operands[0].type.location == t.location == Location.UB:
        return _UB_WINDOW_COST(op, hw)   # a UB -> UB window is a vector copy
    return ("MTE1", hw.l0_load_busy(t.nbytes))


def _gm_cost(op, hw):
    return ("S", hw.scalar_gm)


# -- op definitions and costs (executed by asc.sim.ops) -----------------------------------
define("tile.load", cost=_load_cost, reads_gm=0, dma=True)
define("tile.store", cost=_store_cost, writes_gm=1, dma=True)
define("tensor.get_value", cost=_gm_cost, reads_gm=0)
define("tensor.set_value", cost=_gm_cost, writes_gm=0)
define("tile.copy", cost=_copy_cost)


# -- Tile.to in the August dialect ------------------------------------------------------------------
def _august_to(tile, args, kwargs):
    """pyasc-dev's overload dispatch of ``LocalTensor.to``: ``(dtype: DataType, round_mode: RoundMode =
    Default)``, then ``(location: TensorLocation | str)``; no match is an error listing both."""
    names = ("dtype", "round_mode")
    given = dict(zip(names, args))
    if len(args) <= 2 and set(kwargs) <= set(names) - set(given):
        given.update(kwargs)
        if isinstance(given.get("dtype"), dt.DataType) and isinstance(given.get("round_mode", RoundMode.Default),
                                                                      RoundMode):
            return cast(tile, given["dtype"], given.get("round_mode"))
    given = {**dict(zip(("location",), args)), **kwargs} if len(args) <= 1 and not (args and kwargs) else {}
    if set(given) == {"location"} and isinstance(given["location"], (Location, str)):
        location = as_location(given["location"])
        if location == location_of(tile):
            return tile
        return copy(tile, None, location=location)
    raise error(TypeError, f"Tile.to expects an asc dtype (e.g. asc.float32), got {args[0] if args else kwargs!r}",
                "pass a dtype (@float16, @float32, @int32, ...) with an optional rounding mode (@RoundMode.Floor, "
                "...), or a location such as @TensorLocation.UB", args=args, kwargs=kwargs)


def _tile_to(tile, *args, **kwargs):
    """``to(dtype, round_mode=None)``: ``cast``. In an August kernel, as pyasc-dev's ``LocalTensor.to``,
    also ``to(location)`` (a ``TensorLocation`` or its name): the tile copied there, itself when it is
    there already."""
    if tracing_august():
        return _august_to(tile, args, kwargs)
    return cast(tile, *args, **kwargs)


bind_tile_method("to", _tile_to)

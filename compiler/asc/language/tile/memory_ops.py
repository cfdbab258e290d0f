"""``load`` / ``store`` / ``copy``: moving tiles between global memory and on-chip buffers."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...ir.builder import current_builder
from ...ir.registry import define
from ...ir.types import Location, ScalarType
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import PlainValue, to_scalar
from ...sim.errors import OutOfBoundsError, RaceError
from ...sim.lanes import Shared, gather, per_lane, scalar_for_tile, windows_of
from ...sim.memory import (ATOMIC, Access, ClippedAccess, _fmt, check_overwrite_race, check_read_race, check_write_race,
                           tags_window, windows_overlap)
from .tensor import Tensor
from .tile import Tile, as_location, emit_tile, location_of, require_location
from .utils import check_data_alignment, verify_shape

_LOAD_LOCATIONS = (Location.UB, Location.L1, Location.L0A, Location.L0B, Location.BT)


def _check_tensor(t, what):
    if not isinstance(t, Tensor):
        raise error(TypeError, f"'{what}' expects an asc2.tensor as the global-memory argument, got {type(t)}",
                    "wrap the pointer first: x_gm = asc2.tensor(x_ptr, [size])")
    if t.rank > 2:
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
    for d, r in zip(shape, vals):
        if isinstance(r, (int, np.integer)) and not isinstance(r, bool) and not 0 <= int(r) <= d:
            raise error(RuntimeError, f"real_shape[{vals.index(r)}] (which is {vals}) exceeds tensor dimension "
                        f"#{d} (which is {list(shape)})", "each real_shape value must lie in 0..shape[i]")
    return [to_scalar(r, dt.int32).handle for r in vals]


def load(tensor, shape=None, *, tile_id=None, offsets=None, location=Location.UB, pad_value=0, real_shape=None):
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
        op = current_builder().create("tensor.get_value", [tensor.handle] + offs, [ScalarType(tensor.dtype)])
        return PlainValue(op.result)
    shape = verify_shape(shape)
    check_data_alignment(shape, tensor.dtype)
    if len(shape) != tensor.rank:
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    f"the tensor has {tensor.rank} dimension(s); give the tile shape as many")
    location = as_location(location)
    if location == Location.Auto:
        location = Location.UB
    if location not in _LOAD_LOCATIONS:
        raise error(RuntimeError, "invalid destination location of the tile",
                    "load into UB (vector ops), L1 (cube staging), L0A / L0B (matmul operands) or BT (a bias row)")
    if location == Location.BT and (len(shape) != 1 or not tensor.dtype.is_float()):
        raise error(RuntimeError, "a BT (bias table) tile holds one row of float16 / bfloat16 / float32 values",
                    "load the bias as a 1-D tile, e.g. shape [n]")
    offs = _offsets(tensor, shape, tile_id, offsets)
    real = _real_shape(real_shape, shape, "tile")
    if real and location in (Location.L1, Location.L0A, Location.L0B):
        raise error(RuntimeError, f"real_shape is not supported for loads into {location.name}",
                    "load the full tile into L1 / L0A / L0B, or load into UB with real_shape")
    operands = [tensor.handle] + offs
    has_pad = pad_value is not None
    if has_pad:
        operands.append(to_scalar(pad_value, tensor.dtype).handle)
    return emit_tile("tile.load", operands + real, shape, tensor.dtype, location, has_pad=has_pad,
                     has_real=bool(real))


def store(value, tensor, *, tile_id=None, offsets=None, real_shape=None):
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
        current_builder().create("tensor.set_value", [tensor.handle] + offs + operands, [])
        return None
    require_location(value, (Location.UB, Location.L0C), "store")
    shape = value.shape
    check_data_alignment(shape, value.dtype)
    offs = _offsets(tensor, shape, tile_id, offsets)
    if len(shape) != tensor.rank:
        raise error(RuntimeError, "rank of 'tensor_shape' must match rank of 'shape'",
                    f"the tensor has {tensor.rank} dimension(s) but the tile has {len(shape)}")
    if value.dtype != tensor.dtype:
        raise error(RuntimeError, "failed to verify that all of {base, value} have same element type",
                    f"cast the tile first: .to(asc.{tensor.dtype}) before storing it")
    real = _real_shape(real_shape, shape, "tile")
    current_builder().create("tile.store", [value.handle, tensor.handle] + offs + real, [], {"has_real": bool(real)})


_COPY_ROUTES = {(Location.L1, Location.L0A), (Location.L1, Location.L0B), (Location.L1, Location.BT),
                (Location.L0C, Location.L1), (Location.L0C, Location.UB)}


def copy(tile, shape=None, *, offsets=None, location=Location.UB):
    if not isinstance(tile, Tile):
        raise error(TypeError, f"'tile' argument must be Tile, got {type(tile)}",
                    "asc2.copy moves a tile between on-chip locations")
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
    if (src, location) not in _COPY_ROUTES:
        raise error(RuntimeError, "dst tile location is not supported",
                    f"asc2.copy moves L1 -> L0A/L0B and L0C -> L1/UB; {src.name} -> {location.name} has no lowering")
    if src == Location.L0C and tile.dtype == dt.float32:
        raise error(RuntimeError, "copy from L0C needs a float16 / bfloat16 tile (fixpipe quantises on the way)",
                    "cast first: asc2.copy(c.to(asc.float16), location=...)")
    offs = [to_scalar(o, dt.int32).handle for o in (offsets or [0] * len(shape))]
    for o, (a, b) in zip(offsets or [], zip(shape, tile.shape)):
        if isinstance(o, int) and o + a > b:
            raise error(RuntimeError, f"copy window at offset {o} with size {a} exceeds the source tile dimension {b}",
                        "keep offset + size within the source tile")
    return emit_tile("tile.copy", [tile.handle] + offs, shape, tile.dtype, location)


# -- costs ---------------------------------------------------------------------------------------
def _load_cost(op, hw):
    t = op.results[0].type
    ticks = hw.mte2_latency + t.nbytes / hw.mte2_bytes_per_tick
    if t.location in (Location.L0A, Location.L0B):
        ticks += hw.mte1_latency + t.nbytes / hw.mte1_bytes_per_tick
    return ("MTE2", ticks)


def _store_cost(op, hw):
    t = op.operands[0].type
    if t.location == Location.L0C:
        return ("FIX", hw.fix_latency + t.nbytes / hw.fix_bytes_per_tick)
    return ("MTE3", hw.mte3_latency + t.nbytes / hw.mte3_bytes_per_tick)


def _copy_cost(op, hw):
    t = op.results[0].type
    if op.operands[0].type.location == Location.L0C:
        return ("FIX", hw.fix_latency + t.nbytes / hw.fix_bytes_per_tick)
    return ("MTE1", hw.mte1_latency + t.nbytes / hw.mte1_bytes_per_tick)


def _gm_cost(op, hw):
    return ("S", hw.scalar_gm)


# -- simulator semantics -------------------------------------------------------------------------
@define("tile.load", cost=_load_cost)
def _exec_load(ex, op, t, *rest):
    rtype = op.results[0].type
    rank = len(t.dims)
    has_pad = op.attrs["has_pad"]
    offsets, pad = rest[:rank], (rest[rank] if has_pad else None)
    L = ex.lanes
    if op.attrs.get("has_real"):
        acc = ClippedAccess(t, offsets, rtype.shape, rest[rank + has_pad:], L, "load")
    else:
        acc = Access(t, offsets, rtype.shape, L, "load")
    buf = t.buffer
    data = buf.data
    sv = acc.gather_view(data, L)
    if sv is not None:
        view, inv, starts = sv
        buf.note_read(acc, L, ex.blocks, view if starts is None and inv is None else None)
        if buf.has_writes():
            tags = buf.writer_tags()
            tv = tags_window(tags, view, data) if starts is None else acc.sliding(tags)[starts]
            check_read_race(buf, tv if inv is None else tv[inv], ex.blocks, "load")
        # A buffer the kernel never writes can be read in place; others are copied (tiles are values).
        if starts is None and not buf.read_only:
            view = np.array(view)
        ex.count_bytes("in", L * view[0].nbytes)
        view = view.reshape((view.shape[0],) + rtype.shape)
        return view if inv is None else Shared(view, inv)
    idx, valid = acc.indices(L)
    safe = np.where(valid, idx, 0)
    out = data[safe]
    buf.note_read(acc, L, ex.blocks)
    if buf.has_writes():
        tags = buf.writer_tags()
        check_read_race(buf, np.where(valid, tags[safe], -1), ex.blocks.reshape(-1, 1, 1), "load")
    if pad is None:
        fill = np.nan if out.dtype.kind == "f" or str(out.dtype) == "bfloat16" else np.iinfo(out.dtype).min
        ex.note_poison(op, int(np.count_nonzero(~valid)))
    else:
        fill = scalar_for_tile(np.asarray(pad), 2)
    out = np.where(valid, out, np.asarray(fill).astype(out.dtype) if np.ndim(fill) == 0 else fill.astype(out.dtype))
    ex.count_bytes("in", out.size * out.itemsize)
    return out.reshape((out.shape[0],) + rtype.shape)


def _store_into(ex, buf, acc, vals, what, atomic=None):
    """Write ``vals`` (lanes, rows, cols) into the windows of ``acc``; ``atomic`` is an ufunc or None."""
    L = vals.shape[0]
    data = buf.data
    blocks = ex.blocks
    sv = acc.strided_view(data, L)
    if sv is not None and sv[1] is None and sv[0].shape[0] == 1 and L > 1:
        sv = None  # every lane writes the same window: resolve lane by lane below
    if sv is not None:
        view, order = sv
        step = view.strides[0] // data.itemsize if view.shape[0] > 1 else None
        extent = (acc.rows - 1) * int(acc.row_stride) + acc.cols
        if step is not None and step < extent and windows_overlap(step, L, acc.rows, acc.cols, int(acc.row_stride)):
            sv = None
    if sv is not None:
        view, order = sv
        lane_vals = vals if order is None else vals[order]
        lane_blocks = blocks if order is None else blocks[order]
        if buf.has_writes():
            check_write_race(buf, tags_window(buf.writer_tags(), view, data), lane_blocks, what, atomic is not None)
        if buf.has_reads() and not buf.only_read_by_the_same_lanes(view, lane_blocks):
            lo, hi = buf.reader_span()
            check_overwrite_race(buf, tags_window(lo, view, data), tags_window(hi, view, data), lane_blocks, what)
        w = as_strided(view, view.shape, view.strides, writeable=True) if not view.flags.writeable else view
        if atomic is None:
            w[...] = lane_vals
        else:
            w[...] = atomic(w, lane_vals)
        tag = ATOMIC if atomic is not None else lane_blocks.reshape(-1, 1, 1)

        def fill(tags, view=view, tag=tag):
            tw = tags_window(tags, view, data)
            as_strided(tw, tw.shape, tw.strides, writeable=True)[...] = tag
        buf.pending.append(fill)  # writer tags are only materialised if a later access needs them
    elif atomic is None and acc.full and np.ndim(acc.row_stride) == 0 and L <= _FEW_LANES:
        # Irregular windows (e.g. a 2-D grid of output tiles), few lanes: one fancy assignment over a
        # sliding-window view, collisions checked pairwise.
        starts = per_lane(acc.starts, L)
        if _blocks_collide(starts, blocks, acc.rows, acc.cols, int(acc.row_stride)):
            raise RaceError(f"{what} to '{buf.name}': two blocks write the same elements in one store",
                            "give every block a disjoint output region, or use asc2.atomic_add/max/min")
        if buf.has_writes():
            check_write_race(buf, acc.sliding(buf.writer_tags())[starts], blocks, what)
        if buf.has_reads():
            lo, hi = buf.reader_span()
            check_overwrite_race(buf, acc.sliding(lo)[starts], acc.sliding(hi)[starts], blocks, what)
        acc.sliding(data)[starts] = vals  # same-block overlaps: program order, the last lane wins

        def fill(tags, acc=acc, starts=starts, tag=blocks.reshape(-1, 1, 1)):
            acc.sliding(tags)[starts] = tag
        buf.pending.append(fill)
    else:
        idx, valid = acc.indices(L)
        if buf.has_reads():
            lo, hi = buf.reader_span()
            safe = np.where(valid, idx, 0)
            check_overwrite_race(buf, lo[safe], np.where(valid, hi[safe], -1), blocks, what)
        lane_blocks = np.broadcast_to(blocks.reshape(-1, 1, 1), idx.shape)[valid]
        flat = idx[valid]
        v = np.broadcast_to(vals, idx.shape)[valid]
        tags = buf.writer_tags()
        prev = tags[flat]
        if atomic is None:
            bad = (prev == ATOMIC) | ((prev >= 0) & (prev != lane_blocks))
        else:
            bad = prev >= 0
        if np.any(bad):
            other = int(prev[bad][0])
            raise RaceError(f"{what} to '{buf.name}' overlaps elements written by "
                            f"{'an atomic update' if other == ATOMIC else 'block %d' % other} in the same launch",
                            "give every block a disjoint output region, or use asc2.atomic_add/max/min")
        if atomic is None:
            uniq, first = np.unique(flat, return_index=True)
            if uniq.size != flat.size:
                order = np.argsort(flat, kind="stable")
                fs, bs = flat[order], lane_blocks[order]
                same = fs[1:] == fs[:-1]
                if np.any(same & (bs[1:] != bs[:-1])):
                    raise RaceError(f"{what} to '{buf.name}': two blocks write the same elements in one store",
                                    "give every block a disjoint output region, or use asc2.atomic_add/max/min")
            data[flat] = v  # duplicates within one block: program order, the last lane wins
            tags[flat] = lane_blocks
        else:
            atomic.at(data, flat, v)
            tags[flat] = ATOMIC
    buf.written = True
    ex.count_bytes("out", acc.valid_count(L) * data.itemsize)


_FEW_LANES = 256


def _blocks_collide(starts, blocks, rows, cols, row_stride):
    """Whether two lanes of different blocks write a common element: windows whose starts differ by d
    share one iff d = k * row_stride + e with |k| < rows and |e| < cols. Checking k = floor(d / row_stride)
    for both d and -d covers both candidates k and k + 1."""
    d = starts[None, :] - starts[:, None]
    k = np.clip(d // row_stride, -(rows - 1), rows - 1)
    hit = np.abs(d - k * row_stride) < cols
    return bool(np.any(hit & (blocks[None, :] != blocks[:, None])))


@define("tile.store", cost=_store_cost)
def _exec_store(ex, op, value, t, *offsets):
    vtype = op.operands[0].type
    L = ex.lanes
    if op.attrs.get("has_real"):
        rank = len(t.dims)
        acc = ClippedAccess(t, offsets[:rank], vtype.shape, offsets[rank:], L, "store")
        vals = per_lane(value, L, vtype.shape).reshape(L, acc.rows, acc.cols)
        _store_into(ex, t.buffer, acc, vals, "store")
        return
    acc = Access(t, offsets, vtype.shape, L, "store")
    vals = per_lane(value, L, vtype.shape).reshape(L, acc.rows, acc.cols)
    if not acc.full:
        if len(t.dims) == 2:
            msg = (f"{op.loc}: a 2-D store was clipped at the end of a row; pyasc's lowering clips by the "
                   "tensor's remaining elements instead, so on the real toolchain the tail would spill into "
                   "the next row")
            if msg not in ex.warnings:
                ex.warnings.append(msg)
        _store_clipped(ex, t.buffer, acc, vals, "store")
        return
    _store_into(ex, t.buffer, acc, vals, "store")


def _store_clipped(ex, buf, acc, vals, what, atomic=None):
    # Tail windows: only the columns inside the tensor are written (general path handles the mask).
    acc.full = False
    _store_into(ex, buf, acc, vals, what, atomic)


def _scalar_outside(what, t, acc, offsets, lanes):
    bad = np.nonzero(np.broadcast_to(acc.valid_cols == 0, (lanes,)))[0]
    offs = ", ".join(_fmt(gather(np.asarray(o), bad)) for o in offsets)
    dims = ", ".join(_fmt(d) for d in t.dims)
    return OutOfBoundsError(f"{what} to tensor '{t.name}' outside the tensor: offsets [{offs}], shape [{dims}]"
                            if what.endswith("store") else
                            f"{what} of tensor '{t.name}' outside the tensor: offsets [{offs}], shape [{dims}]",
                            "scalar accesses are not clipped: keep every offset below the tensor's dimension", bad)


@define("tensor.get_value", cost=_gm_cost)
def _exec_get_value(ex, op, t, *offsets):
    L = ex.lanes
    acc = Access(t, offsets, (1,) * len(t.dims), L, "scalar load")
    if not acc.full:
        raise _scalar_outside("scalar load", t, acc, offsets, L)
    starts = np.broadcast_to(acc.starts, (L,))
    buf = t.buffer
    buf.note_read(acc, L, ex.blocks)
    if buf.has_writes():
        check_read_race(buf, buf.writer_tags()[starts], ex.blocks, "scalar load")
    out = buf.data[starts]
    return out if not np.all(starts == starts[0]) else out[:1]


@define("tensor.set_value", cost=_gm_cost)
def _exec_set_value(ex, op, t, *rest):
    offsets, value = rest[:-1], rest[-1]
    L = ex.lanes
    acc = Access(t, offsets, (1,) * len(t.dims), L, "scalar store")
    if not acc.full:
        raise _scalar_outside("scalar store", t, acc, offsets, L)
    vals = np.broadcast_to(np.asarray(value).reshape(-1), (L,)).reshape(L, 1, 1)
    acc.full = False  # resolve lane by lane (general path)
    _store_into(ex, t.buffer, acc, vals.astype(t.buffer.data.dtype), "scalar store")


@define("tile.copy", cost=_copy_cost, shared_operands=True)
def _exec_copy(ex, op, tile, *offsets):
    shape = op.results[0].type.shape
    if all(np.ndim(o) == 0 for o in offsets):
        windows, index = windows_of(tile)  # lanes sharing source windows share the copies too
        sl = tuple(slice(int(o), int(o) + s) for o, s in zip(offsets, shape))
        out = windows[(slice(None),) + sl]
        if out.shape[1:] != shape:
            raise OutOfBoundsError(f"copy window {list(shape)} at offsets {[int(o) for o in offsets]} exceeds the "
                                   f"source tile {list(tile.shape[1:])}")
        out = cast_for_location(np.array(out), op)
        return out if index is None else Shared(out, index)
    tile = np.asarray(tile)
    lanes = max(np.shape(o)[0] if np.ndim(o) else 1 for o in offsets)
    src = np.broadcast_to(tile, (lanes,) + tile.shape[1:])
    res = np.empty((lanes,) + shape, dtype=tile.dtype)
    for l in range(lanes):
        sl = tuple(slice(int(np.broadcast_to(o, (lanes,))[l]), int(np.broadcast_to(o, (lanes,))[l]) + s)
                   for o, s in zip(offsets, shape))
        res[l] = src[(l,) + sl]
    return res


def cast_for_location(a, op):
    return a.astype(op.results[0].type.dtype.to_numpy(), copy=False)

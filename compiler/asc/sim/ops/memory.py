"""Global memory: tensors, tile loads and stores, atomics; with the bounds and race checks of every access.
Writing a store's values into the buffer, with its race checks, is in ``gm_store.py``; scalar accesses are in
``scalar_access.py``, on-chip copies in ``onchip_copy.py``."""
from __future__ import annotations

import numpy as np

from ...ir.kernel_warnings import PastEndWarning, UndefinedStoreWarning, UninitializedReadWarning
from ..checks import track_gm_access
from ..chunks import detached, gather_windows, window_parts
from ..errors import OutOfBoundsError, SimError
from ..lanes import Shared, gather, int64_const, per_lane, scalar_for_tile
from ..memory import TensorVal, tags_window
from ..nd_access import NdAccess
from ..races import NO_WRITER, check_read_race
from ..tile_access import Access, ClippedAccess, _fmt
from ..undefined import fix_text, poison, wrap
from . import impl
from .arith import FreshBinary
from .gm_store import _store_into


@impl("tensor.make")
def _exec_tensor(ex, op, ptr, *dyn):
    dyn = iter(dyn)
    dims = [int64_const(d) if d is not None else next(dyn) for d in op.results[0].type.shape]
    for d in dims:
        if d.ndim == 0 and int(d) >= 0:
            continue
        bad = np.nonzero(np.broadcast_to(d < 0, (ex.lanes,)))[0]
        if bad.size:
            raise SimError(f"tensor '{ptr.buffer.name}' has a negative dimension: shape "
                           f"[{', '.join(_fmt(gather(x, bad)) for x in dims)}]",
                           "a runtime length reached the kernel as a negative number (loops over it would silently "
                           "do nothing): check the size argument of the launch", bad)
    return TensorVal(ptr.buffer, ptr.off, dims, ptr.buffer.name)


@impl("tensor.dim")
def _exec_dim(ex, op, t):
    return t.dims[op.attrs["index"]].astype(np.int32)


@impl("block.idx")
def _exec_block_idx(ex, op):
    return ex.blocks.astype(np.int32)


@impl("block.num")
def _exec_block_num(ex, op):
    return np.asarray(ex.core_num, dtype=np.int32)


@impl("tile.load")
def _exec_load(ex, op, t, *rest):
    rtype = op.results[0].type
    rank = len(t.dims)
    has_pad = op.attrs["has_pad"]
    offsets, pad = rest[:rank], (rest[rank] if has_pad else None)
    L = ex.lanes
    clip = op.attrs.get("clip", False)
    if rank > 2:
        acc = NdAccess(t, offsets, rtype.shape, rest[rank + has_pad:] if op.attrs.get("has_real") else None, L, "load")
    elif op.attrs.get("has_real"):  # real_shape: only that part is read, the rest is padding
        acc = ClippedAccess(t, offsets, rtype.shape, rest[rank + has_pad:], L, "load", clip)
    elif clip and rank == 2 and (np.any(np.asarray(offsets[0]) + rtype.shape[0] > t.dims[0])
                                 or np.any(np.asarray(offsets[1]) >= t.dims[1])):
        # The August copy_in clamps its window to the tensor in both dimensions: what is missing is padding.
        acc = ClippedAccess(t, offsets, rtype.shape, rtype.shape, L, "load", True)
    else:
        acc = Access(t, offsets, rtype.shape, L, "load")
    note_short(ex, op, acc, rtype)
    buf = t.buffer
    data = buf.data
    checks = ex.checks and not buf.read_only
    if checks and ex.trackers:
        track_gm_access(ex, op, buf, acc, L, load=True, disjoint=_disjoint_lanes(acc, L))
    sv = acc.gather_view(data, L)
    if sv is not None:
        view, inv, starts = sv
        if checks:
            buf.note_read(acc, L, ex.blocks, view if starts is None and inv is None else None)
            if buf.has_writes():
                tags = buf.writer_tags()
                tv = tags_window(tags, view, data) if starts is None else acc.sliding(tags)[starts]
                tv = tv if inv is None else tv[inv]
                check_read_race(buf, tv, ex.blocks, "load")
                unset = int(np.count_nonzero(tv == NO_WRITER))
            else:
                unset = acc.valid_count(L)
            _note_unset(ex, op, buf, unset)
        # A buffer the kernel never writes can be read in place; others are copied (tiles are values).
        raw, copy = view, starts is None and not buf.read_only
        if copy:
            view = np.array(view)
        ex.count_bytes("in", L * view[0].nbytes)
        view = view.reshape((view.shape[0],) + rtype.shape)
        out = view if inv is None else Shared(view, inv)
        if ex.recorder is not None:
            ex.recorder.load(op, buf, data, raw, inv, starts, acc, copy, rtype.shape, out)
        return out
    fill = poison(data.dtype) if pad is None else scalar_for_tile(np.asarray(pad), 2)
    fill = np.asarray(fill).astype(data.dtype) if np.ndim(fill) == 0 else fill.astype(data.dtype)
    tags = buf.writer_tags() if checks and buf.has_writes() else None
    unset = [0]
    blocks = np.broadcast_to(ex.blocks, (L,))

    def check(lo, hi, idx, valid, safe):
        tv = np.where(valid, tags[safe], -1)
        check_read_race(buf, tv, blocks[lo:hi], "load")
        unset[0] += int(np.count_nonzero(valid & (tv == NO_WRITER)))
    # element by element, a chunk of lanes at a time (sim/chunks.py)
    out, undefined = gather_windows(data, acc, L, fill, pad is None, check if tags is not None else None)
    if checks:
        buf.note_read(acc, L, ex.blocks)
        _note_unset(ex, op, buf, unset[0] if tags is not None else acc.valid_count(L))
    ex.count_bytes("in", out.size * out.itemsize)
    out = out.reshape((out.shape[0],) + rtype.shape)
    # pad_value=None: the tail is undefined, followed to where it is used (sim/undefined.py)
    if undefined is not None:
        out = wrap(out, undefined.reshape(out.shape), op)
    elif pad is not None and op.attrs.get("pad_default") and getattr(acc, "outside", None) is not None:
        # no pad_value given and the window reads nothing: the tile is only padding, no data defined it
        mask = np.zeros(out.shape, bool)
        mask[acc.outside] = True
        out = wrap(out, mask, op)
        if ex.recorder is not None:
            ex.recorder.fail("a load reads nothing and no pad_value defines its tile")
    if ex.recorder is not None:
        ex.recorder.load_indexed(op, buf, detached(acc), L, fill, rtype.shape, out, pad is None)
    return out


def _note_unset(ex, op, buf, n):
    # Only where the argument plays the output role (``Buffer.output``, ``sim.checks.output_role``). A kernel
    # working in place on its only data, one updating an argument in place (passed before its inputs, or
    # named as data, like axpy's y), or the host passing one array as both input and output reads data the
    # host put there by design.
    if n and buf.output:
        ex.warn(op, f"load of '{buf.name}' reads {n} element(s) no block wrote in this launch, from an output "
                "argument (the kernel stores to it, it comes after the inputs and is named as a result): they "
                "hold whatever the host put there (undefined if it was created with np.empty / torch.empty); "
                "initialise it on the host, or store before loading (an argument updated in place goes before "
                "its inputs, as in kernel(x, y) for x += y)", UninitializedReadWarning)


def _disjoint_lanes(acc, L):
    """Whether no two lanes' windows share an element (windows at a constant distance of at least their
    extent): then per-element records can be updated with plain fancy assignments."""
    if L == 1:
        return True
    if not acc.full or np.ndim(acc.row_stride) != 0:
        return False
    step = acc._regular_step(L)
    return step is not None and step >= (acc.rows - 1) * int(acc.row_stride) + acc.cols


def _store_undefined(ex, op, masks, args, out, source):
    """A store warns when an undefined element lands inside the tensor (the clipped tail is not written)."""
    if masks[0] is None:   # an undefined offset / real_shape: a scalar op reported it
        return out
    value, t, *offsets = args
    L = ex.lanes
    shape = op.operands[0].type.shape
    acc = _store_window(op, t, offsets, shape, L)
    mask = np.asarray(masks[0])
    mask = mask[None] if mask.ndim == len(shape) else mask
    text = undefined_store_warning(op, t.name, window_parts(acc, L, mask.reshape((mask.shape[0], acc.rows, acc.cols))),
                                   ex.blocks, L, source)
    if text:
        ex.warn(op, text, UndefinedStoreWarning)
    return out


def undefined_store_warning(op, name, parts, blocks, lanes, source):
    """The text of a store writing undefined elements into a tensor (None when none lands inside), from
    ``parts``: per chunk of lanes ``(lo, inside, elems)``, ``inside`` marking the tile elements that are
    undefined and land inside the tensor, ``elems`` the buffer element each lands on; ``blocks`` the lanes'
    blocks. Names the first such block and its elements, and the op that left them undefined."""
    blocks = np.broadcast_to(blocks, (lanes,))
    total, first, hit = 0, None, set()
    for lo, inside, elems in parts:
        if not inside.any():
            continue
        elems = np.broadcast_to(elems, inside.shape).reshape(inside.shape[0], -1)
        inside = inside.reshape(inside.shape[0], -1)
        hit_lanes = np.nonzero(inside.any(axis=1))[0]
        total += int(np.count_nonzero(inside))
        hit.update(blocks[lo + hit_lanes].tolist())
        if first is None:
            lane = int(hit_lanes[0])
            first = (int(blocks[lo + lane]), elems[lane][inside[lane]])
    if not total:
        return None
    block, e = first
    more = f"; and in {len(hit) - 1} other block(s)" if len(hit) > 1 else ""
    return (f"{op.name.split('.')[-1]} to '{name}' writes {total} undefined element(s) "
            f"inside the tensor (block {block}: {e.size} element(s) in "
            f"[{int(e.min())}, {int(e.max()) + 1}) of '{name}'{more}): " + fix_text(source))


@impl("tile.store", stores=True, undefined=_store_undefined)
def _exec_store(ex, op, value, t, *offsets):
    vtype = op.operands[0].type
    L = ex.lanes
    # (for a recorded launch: the stored value as the environment held it, and the tile shape)
    source = (value if ex.recorder is None else ex.recorder.operands[0], vtype.shape)
    fresh = value if type(value) is FreshBinary else None   # the binary op before it, not yet computed
    if fresh is not None and op.attrs.get("has_real"):
        value, fresh = fresh.compute(), None   # the real_shape path takes computed values
    rank = len(t.dims)
    clip = op.attrs.get("clip", False)
    acc = _store_window(op, t, offsets, vtype.shape, L)
    if not clip:
        past_end_store(ex, op, t, acc, offsets[:rank], vtype.shape, vtype.nbytes / max(1, vtype.size))
    note_short(ex, op, acc, vtype)
    if type(acc) is NdAccess:
        vals = value.compute() if type(value) is FreshBinary else value
        _store_into(ex, t.buffer, acc, per_lane(vals, L, vtype.shape).reshape(L, acc.rows, acc.cols), "store",
                    op=op, source=source)
        return
    if op.attrs.get("has_real"):  # real_shape: only that part is written
        if rank == 2 and not clip:
            # real_shape limits the DMA; columns of it past the row still land in the next row (April; the
            # August copy_out clips them).
            rc, col_off = np.asarray(offsets[rank + 1]), np.asarray(offsets[1])
            spill = np.broadcast_to((acc.valid_rows > 0) & (rc > 0) & (col_off + np.minimum(rc, acc.cols) > t.dims[1]), (L,))
            if np.any(spill):
                bad = np.nonzero(spill)[0]
                raise OutOfBoundsError(
                    f"2-D store to tensor '{t.name}' (shape [{', '.join(_fmt(d) for d in t.dims)}]) at offsets "
                    f"[{_fmt(gather(np.asarray(offsets[0]), bad))}, {_fmt(gather(col_off, bad))}] with real_shape "
                    f"[{_fmt(gather(np.asarray(offsets[rank]), bad))}, {_fmt(gather(rc, bad))}] runs past the end of "
                    "the row: on the hardware the columns past the row land in the next row",
                    "limit real_shape's columns to the row's remaining elements", bad)
        _store_into(ex, t.buffer, acc, per_lane(value, L, vtype.shape).reshape(L, acc.rows, acc.cols), "store",
                    op=op, source=source)
        return
    if type(acc) is ClippedAccess:
        # The August copy_out writes only the part of the window inside the tensor, in every dimension.
        vals = value if fresh is None else fresh.compute()
        _store_into(ex, t.buffer, acc, per_lane(vals, L, vtype.shape).reshape(L, acc.rows, acc.cols), "store",
                    op=op, source=source)
        return
    vals = stored_values(value, L, vtype.shape, acc.rows, acc.cols, acc.full)
    if not acc.full:
        if rank == 2 and np.any(_spilling(acc, L)):
            raise _row_spill(t, acc, offsets, vtype.shape, L, "store")
        _store_clipped(ex, t.buffer, acc, vals, "store", op=op, source=source)
        return
    _store_into(ex, t.buffer, acc, vals, "store", op=op, source=source)


def _store_window(op, t, offsets, shape, L):
    """The window a tile store writes (``offsets``: the tensor offsets, then any real_shape values): rank
    3 and up ``NdAccess``; real_shape or a 2-D August ``copy_out`` not wholly inside the tensor
    ``ClippedAccess``; else ``Access``. The store and its undefined-element check both ask here."""
    rank = len(t.dims)
    real = offsets[rank:] if op.attrs.get("has_real") else None
    clip = op.attrs.get("clip", False)
    if rank > 2:
        return NdAccess(t, offsets[:rank], shape, real, L, "store")
    if real is not None:
        return ClippedAccess(t, offsets[:rank], shape, real, L, "store", clip)
    if clip and rank == 2 and any(np.any(np.asarray(o) + s > d) for o, s, d in zip(offsets, shape, t.dims)):
        return ClippedAccess(t, offsets, shape, shape, L, "store", True)
    return Access(t, offsets, shape, L, "store")


def note_short(ex, op, acc, ttype):
    """Record, per block, the bytes of a DMA's window that lie outside the tensor (``("short", op id)``):
    the DMA's length is clamped to what is inside, so the schedule charges only those bytes' bursts
    (``sim/schedule.py``); a window wholly past the end moves nothing and still pays its setup."""
    if type(acc) is NdAccess or getattr(acc, "full", False):
        return
    L = ex.lanes
    inside = np.broadcast_to(acc.valid_cols * getattr(acc, "valid_rows", acc.rows), (L,))
    short = acc.rows * acc.cols - inside
    if not np.any(short):
        return
    each = ttype.nbytes / max(1, ttype.size)
    ex._visit(("short", op.id), np.bincount(np.broadcast_to(ex.blocks, (L,)), weights=short * each,
                                            minlength=ex.core_num))


def past_end_store(ex, op, t, acc, offsets, shape, item):
    """A store whose window starts at or past the tensor's last element (``acc.outside``): pyasc's lowering
    gives its DMA the length ``numel - offset``, negative here. On C310 the CANN simulator then loses the
    launch's output (an error; a warning with ``ASC_CHECKS=off``); on C220 the launch runs and nothing of
    that tile is written (a warning). Either way nothing is written here; the schedule charges the DMA
    the bytes its wrapped length moves (``_note_wrapped``). ``item``: bytes per element."""
    bad = acc.outside
    if bad is None:
        return
    blocks = np.broadcast_to(ex.blocks, (ex.lanes,))
    lane_offs = [np.broadcast_to(np.asarray(o), (ex.lanes,)) for o in offsets]
    where = "; ".join(f"[{', '.join(str(int(o[l])) for o in lane_offs)}] in block {int(blocks[l])}" for l in bad[:3])
    where += f"; and {bad.size - 3} more" if bad.size > 3 else ""
    c310 = ex.hw.arch.value == "c310"
    text = (f"store of a {list(shape)} tile to tensor '{t.name}' (shape [{', '.join(_fmt(d) for d in t.dims)}]) "
            f"at offsets {where} lies wholly past the end of the tensor: pyasc's "
            "lowering gives this DMA a negative length, "
            + ("and on this platform the CANN simulator then loses the launch's output" if c310 else
               "which writes nothing on this platform (on Ascend950 / C310 the launch's output is lost); its DMA "
               "still runs, for ~2 MiB when its length wraps (the launch's ticks include it)"))
    hint = ("stop the tile loop at asc.ceildiv(size, tile) (e.g. range(start, min(start + per_block, num_tiles))) "
            "or guard the store with `if offset < size:`")
    if c310 and ex.checks:
        raise OutOfBoundsError(text, hint, bad)
    ex.warn(op, f"{text}; {hint}", PastEndWarning)
    _note_wrapped(ex, op, t, lane_offs, bad, blocks, item)


def _note_wrapped(ex, op, t, lane_offs, bad, blocks, item):
    """Record, per block, the bytes the past-the-end stores' DMAs move (``("wrapped", op id)``, and their
    count ``("wrapped_n", op id)``): the length field keeps the negative length ``numel - offset`` modulo
    its width (``dma_length_modulus``), so a store starting past the end writes about that much past the
    tensor; one starting exactly at the end has length 0 and moves nothing."""
    modulus = ex.hw.dma_length_modulus
    if not modulus:
        return
    linear, numel = lane_offs[0], t.dims[0]
    for o, d in zip(lane_offs[1:], t.dims[1:]):
        linear, numel = linear * d + o, numel * d
    over = (np.broadcast_to(linear - numel, (ex.lanes,))[bad] * item).astype(np.int64)
    neg = over > 0
    if not np.any(neg):
        return
    where = blocks[bad][neg]
    ex._visit(("wrapped", op.id), np.bincount(where, weights=modulus - over[neg] % modulus, minlength=ex.core_num))
    ex._visit(("wrapped_n", op.id), np.bincount(where, minlength=ex.core_num).astype(np.float64))


def stored_values(value, lanes, shape, rows, cols, whole):
    """The values a tile store writes, as (lanes, rows, cols) windows. A ``FreshBinary`` stays deferred
    when the windows are whole (the write may compute it straight into them); otherwise it is computed."""
    vals = value.reshaped(lanes, rows, cols) if whole and type(value) is FreshBinary else None
    if vals is None:
        vals = per_lane(value.compute() if type(value) is FreshBinary else value, lanes, shape).reshape(lanes, rows, cols)
    return vals


def _spilling(acc, L):
    """Lanes of a 2-D window that start inside the tensor and whose columns run past the row."""
    spill = np.broadcast_to(acc.valid_cols < acc.cols, (L,))
    if getattr(acc, "outside", None) is not None:
        spill = spill.copy()
        spill[acc.outside] = False
    return spill


def _row_spill(t, acc, offsets, shape, L, what):
    bad = np.nonzero(_spilling(acc, L))[0]
    offs = ", ".join(_fmt(gather(np.asarray(o), bad)) for o in offsets)
    return OutOfBoundsError(
        f"2-D {what} of a {list(shape)} tile to tensor '{t.name}' (shape [{', '.join(_fmt(d) for d in t.dims)}]) at "
        f"offsets [{offs}] runs past the end of the row: pyasc's lowering clips by the tensor's remaining "
        "elements, so on the hardware the columns past the row land in the next row",
        "keep offset + tile columns within the row (a tile width that divides the row length), or store "
        "a narrower tile for the last columns", bad)


def _store_clipped(ex, buf, acc, vals, what, atomic=None, op=None, source=None):
    # Tail windows: only the columns inside the tensor are written (general path handles the mask).
    acc.full = False
    _store_into(ex, buf, acc, vals, what, atomic, op=op, source=source)


def _access(t, offsets, shape, lanes, what):
    """The window of a scalar access or an atomic: ``Access`` up to rank 2, ``NdAccess`` above."""
    return NdAccess(t, offsets, shape, None, lanes, what) if len(t.dims) > 2 else Access(t, offsets, shape, lanes, what)


_UFUNC = {"add": np.add, "max": np.maximum, "min": np.minimum}


@impl("tile.atomic", stores=True, undefined=_store_undefined)
def _exec_atomic(ex, op, value, t, *offsets):
    vtype = op.operands[0].type
    L = ex.lanes
    if op.attrs.get("clip"):   # August: clamped to the tensor in every dimension, as its copy_out
        acc = _store_window(op, t, offsets, vtype.shape, L)
    else:
        acc = _access(t, offsets, vtype.shape, L, f"atomic_{op.attrs['kind']}")
        past_end_store(ex, op, t, acc, offsets, vtype.shape, vtype.nbytes / max(1, vtype.size))
        if not acc.full and len(t.dims) == 2 and np.any(_spilling(acc, L)):
            raise _row_spill(t, acc, offsets, vtype.shape, L, f"atomic_{op.attrs['kind']}")
    vals = np.broadcast_to(value, (L,) + vtype.shape).reshape(L, acc.rows, acc.cols)
    acc.full = False  # resolve element by element so overlapping lanes accumulate
    _store_into(ex, t.buffer, acc, vals, f"atomic_{op.attrs['kind']}", atomic=_UFUNC[op.attrs["kind"]], op=op)

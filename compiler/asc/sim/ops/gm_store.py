"""Writing a tile store's values into a global-memory buffer (``_store_into``): the race checks against
earlier writers and readers and between the blocks of one store, the deferred writer tags, the windows
recorded for the launch's coverage check, and the recording of the store for replay; the strided, few-lane
and element-by-element paths, and the unchecked one (``ASC_CHECKS=off``). The store and atomic ops that
call it, with their bounds and clipping, are in ``memory.py``."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..checks import track_gm_access
from ..chunks import detached, lane_chunks, lane_part, lanes_from, scatter_windows
from ..errors import RaceError
from ..lanes import per_lane
from ..memory import tags_window, windows_overlap
from ..races import (ATOMIC, check_overwrite_race, check_write_race, same_bits, tags_after_atomic, write_conflicts,
                     writer_text)
from .arith import FreshBinary


def _note_cover(buf, acc, L):
    """Remember the windows a store wrote (for the launch's coverage check): one interval when the lanes'
    windows tile a contiguous range (rows or tiles handed out in order), else the windows themselves."""
    if getattr(acc, "nd", False):
        buf.log.cover.append(acc.cover_entry(buf.off))
        return
    if acc.full and np.ndim(acc.row_stride) == 0:
        rs = int(acc.row_stride)
        length = acc.cols if acc.rows == 1 else (acc.rows * rs if acc.cols == rs else 0)
        if length and acc._regular_step(L) in (length, 0):
            step = length if acc.start_hi > acc.start_lo else 0
            buf.log.cover.append((buf.off + acc.start_lo, buf.off + acc.start_lo + (L - 1) * step + length))
            return
    buf.log.cover.append((buf.off, per_lane(acc.starts, L).copy(), acc.rows, int(np.max(acc.row_stride)),
                          acc.valid_cols if np.ndim(acc.valid_cols) == 0 else np.array(acc.valid_cols),
                          getattr(acc, "valid_rows", None)))


def _store_into(ex, buf, acc, vals, what, atomic=None, op=None, source=None):
    """Write ``vals`` (lanes, rows, cols) into the windows of ``acc``; ``atomic`` is an ufunc or None.
    ``source``: (the stored value as the op got it, the tile shape), for a recorded launch."""
    L = vals.shape[0]
    data = buf.data
    blocks = ex.blocks
    if not ex.checks:
        _store_unchecked(ex, buf, acc, vals, atomic, op, source)
        return
    if ex.trackers and op is not None:
        track_gm_access(ex, op, buf, acc, L, load=False)
    _note_cover(buf, acc, L)
    # Atomic updates resolve element by element (lanes may share elements): never the strided path.
    sv = acc.strided_view(data, L) if atomic is None else None
    if sv is not None and sv[1] is None and sv[0].shape[0] == 1 and L > 1:
        sv = None  # every lane writes the same window: resolve lane by lane below
    if sv is not None:
        view, order = sv
        step = view.strides[0] // data.itemsize if view.shape[0] > 1 else None
        extent = (acc.rows - 1) * int(acc.row_stride) + acc.cols
        if step is not None and step < extent and windows_overlap(step, L, acc.rows, acc.cols, int(acc.row_stride)):
            sv = None
    if type(vals) is FreshBinary and (sv is None or sv[1] is not None):
        vals = vals.compute()   # computed into the destination only where lanes map onto it in order
    if sv is not None:
        view, order = sv
        lane_vals = vals if order is None else vals[order]
        lane_blocks = blocks if order is None else blocks[order]
        if buf.has_writes() and check_write_race(
                buf, tags_window(buf.writer_tags(), view, data), lane_blocks, what,
                new=lambda: lane_vals.compute() if type(lane_vals) is FreshBinary else lane_vals, old=view):
            _values_decided(ex)
        if buf.has_reads() and not buf.only_read_by_the_same_lanes(view, lane_blocks):
            lo, hi = buf.reader_span()
            check_overwrite_race(buf, tags_window(lo, view, data), tags_window(hi, view, data), lane_blocks, what)
        w = as_strided(view, view.shape, view.strides, writeable=True) if not view.flags.writeable else view
        _write(w, lane_vals)
        if ex.recorder is not None:
            ex.recorder.store(op, buf, source, L, ex.blocks, view=view, data=data, order=order)
        tag = lane_blocks.reshape(-1, 1, 1)

        def fill(tags, view=view, tag=tag):
            tw = tags_window(tags, view, data)
            as_strided(tw, tw.shape, tw.strides, writeable=True)[...] = tag
        buf.defer_write(fill)  # writer tags are only materialised if a later access needs them
    elif (atomic is None and acc.full and np.ndim(acc.row_stride) == 0 and L <= _FEW_LANES
          and not _blocks_collide(per_lane(acc.starts, L), blocks, acc.rows, acc.cols, int(acc.row_stride))):
        # Irregular windows (e.g. a 2-D grid of output tiles), few lanes, no two blocks' windows meeting
        # (else the general path compares their values): one fancy assignment over a sliding-window view.
        starts = per_lane(acc.starts, L)
        if buf.has_writes() and check_write_race(buf, acc.sliding(buf.writer_tags())[starts], blocks, what,
                                                 new=vals, old=acc.sliding(data)[starts]):
            _values_decided(ex)
        if buf.has_reads():
            lo, hi = buf.reader_span()
            check_overwrite_race(buf, acc.sliding(lo)[starts], acc.sliding(hi)[starts], blocks, what)
        acc.sliding(data)[starts] = vals  # same-block overlaps: program order, the last lane wins
        if ex.recorder is not None:
            ex.recorder.store(op, buf, source, L, ex.blocks, windows=(acc.rows, acc.cols, int(acc.row_stride), starts))

        def fill(tags, acc=acc, starts=starts, tag=blocks.reshape(-1, 1, 1)):
            acc.sliding(tags)[starts] = tag
        buf.defer_write(fill)
    else:
        # Element by element, a chunk of lanes at a time (sim/chunks.py): a chunk meets the writes of the
        # earlier ones through the writer tags, as it meets earlier stores'.
        span = buf.reader_span() if buf.has_reads() else None
        tags = buf.writer_tags()
        lanes_blocks = np.broadcast_to(blocks, (L,))
        for lo, hi in lane_chunks(L, acc.rows * acc.cols):
            idx, valid = acc.indices(L, lo, hi)
            chunk_blocks = lanes_blocks[lo:hi]
            if span is not None:
                safe = np.where(valid, idx, 0)
                with lanes_from(lo):
                    check_overwrite_race(buf, span[0][safe], np.where(valid, span[1][safe], -1), chunk_blocks, what)
            lane_blocks = np.broadcast_to(chunk_blocks.reshape(-1, 1, 1), idx.shape)[valid]
            flat = idx[valid]
            v = np.broadcast_to(lane_part(vals, L, lo, hi), idx.shape)[valid]
            _store_elements(ex, buf, data, tags, flat, v, lane_blocks, what, atomic)
        if atomic is None and ex.recorder is not None:
            ex.recorder.store(op, buf, source, L, ex.blocks, indexed=(detached(acc), acc.rows, acc.cols))
    buf.written = True
    ex.count_bytes("out", acc.valid_count(L) * data.itemsize)


def _store_elements(ex, buf, data, tags, flat, v, lane_blocks, what, atomic):
    """Write ``v`` at the elements ``flat`` for the blocks ``lane_blocks`` (atomically with the ufunc
    ``atomic``), after the race checks against earlier writers and between the blocks of this store
    (bit-identical values over another block's plain store are no race)."""
    prev = tags[flat]
    bad = write_conflicts(prev, lane_blocks, atomic is not None)
    if atomic is None and np.any(bad & (prev >= 0)):
        bad[bad] = ~(same_bits(data[flat[bad]], v[bad]) & (prev[bad] >= 0))
        _values_decided(ex)
    if np.any(bad):
        raise RaceError(f"{what} to '{buf.name}' overlaps elements written by {writer_text(prev[bad][0])} "
                        "in the same launch",
                        "give every block a disjoint output region, or use @atomic_add/max/min")
    if atomic is None:
        # an element written twice: by one block (program order) or two (lanes in order are usually
        # increasing already: a stable sort meets its runs in linear time)
        fs = flat if flat.size < 2 or bool(np.all(flat[1:] > flat[:-1])) else np.sort(flat, kind="stable")
        if np.any(fs[1:] == fs[:-1]):
            order = np.argsort(flat, kind="stable")
            fs, bs, vs = flat[order], lane_blocks[order], v[order]
            same = (fs[1:] == fs[:-1]) & (bs[1:] != bs[:-1])
            if np.any(same):
                _values_decided(ex)
            if np.any(same & ~same_bits(vs[1:], vs[:-1])):
                raise RaceError(f"{what} to '{buf.name}': two blocks write the same elements in one store",
                                "give every block a disjoint output region, or use @atomic_add/max/min")
        data[flat] = v  # duplicates within one block: program order, the last lane wins
        tags[flat] = lane_blocks
        return
    atomic.at(data, flat, v)
    tags[flat] = tags_after_atomic(prev, lane_blocks)
    if lane_blocks.size and lane_blocks.min() != lane_blocks.max():
        # elements several blocks updated in this one op: atomic updates of several blocks
        order = np.argsort(flat, kind="stable")
        fs, bs = flat[order], lane_blocks[order]
        shared = (fs[1:] == fs[:-1]) & (bs[1:] != bs[:-1])
        tags[fs[1:][shared]] = ATOMIC


_FEW_LANES = 256


def _values_decided(ex):
    """Blocks wrote over each other with identical values: another launch's data could make it a race,
    so this launch is not recorded for replay (a replay checks no values)."""
    if ex.recorder is not None:
        ex.recorder.fail("blocks store identical values over each other")


def _write(w, vals):
    """``w[...] = vals``; a ``FreshBinary`` is computed into ``w`` when that is exact, else computed and copied."""
    if type(vals) is FreshBinary:
        if vals.into(w):
            return
        vals = vals.compute()
    w[...] = vals


def _store_unchecked(ex, buf, acc, vals, atomic, op=None, source=None):
    """A store without race bookkeeping (``ASC_CHECKS=off``); bounds are still enforced."""
    L = vals.shape[0]
    data = buf.data
    sv = acc.strided_view(data, L) if atomic is None else None
    if sv is not None and not (sv[0].shape[0] == 1 and L > 1):
        view, order = sv
        step = view.strides[0] // data.itemsize if view.shape[0] > 1 else None
        if step is None or not windows_overlap(step, L, acc.rows, acc.cols, int(acc.row_stride)):
            w = as_strided(view, view.shape, view.strides, writeable=True) if not view.flags.writeable else view
            if order is None:
                _write(w, vals)
            else:
                w[...] = (vals.compute() if type(vals) is FreshBinary else vals)[order]
            if ex.recorder is not None:
                ex.recorder.store(op, buf, source, L, ex.blocks, view=view, data=data, order=order)
            buf.written = True
            ex.count_bytes("out", acc.valid_count(L) * data.itemsize)
            return
    if type(vals) is FreshBinary:
        vals = vals.compute()
    if atomic is None:
        scatter_windows(data, acc, L, vals)
        if ex.recorder is not None:
            ex.recorder.store(op, buf, source, L, ex.blocks, indexed=(detached(acc), acc.rows, acc.cols))
    else:
        for lo, hi in lane_chunks(L, acc.rows * acc.cols):
            idx, valid = acc.indices(L, lo, hi)
            atomic.at(data, idx[valid], np.broadcast_to(lane_part(vals, L, lo, hi), idx.shape)[valid])
    buf.written = True
    ex.count_bytes("out", acc.valid_count(L) * data.itemsize)


def _blocks_collide(starts, blocks, rows, cols, row_stride):
    """Whether two lanes of different blocks write a common element: windows whose starts differ by d
    share one iff d = k * row_stride + e with |k| < rows and |e| < cols. Checking k = floor(d / row_stride)
    for both d and -d covers both candidates k and k + 1."""
    d = starts[None, :] - starts[:, None]
    k = np.clip(d // row_stride, -(rows - 1), rows - 1)
    hit = np.abs(d - k * row_stride) < cols
    return bool(np.any(hit & (blocks[None, :] != blocks[:, None])))

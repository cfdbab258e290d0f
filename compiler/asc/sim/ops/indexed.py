"""``gather`` / ``scatter`` (``asc.language.tile.indexed_ops`` states the semantics), with the bounds and
race checks of every global-memory access."""
from __future__ import annotations

import numpy as np

from ...ir.kernel_warnings import UndefinedStoreWarning
from ..checks import track_gm_access
from ..errors import OutOfBoundsError, RaceError
from ..lanes import per_lane
from ..races import NO_WRITER, check_overwrite_race, check_read_race, write_conflicts, writer_text
from ..undefined import fix_text, poison, warn_read, wrap
from . import impl


class _Rows:
    """The elements an indexed access touches, as the access logs expect them: per lane, one row of
    ``cols`` elements per index (``indices`` -> (lanes, rows, cols) linear indices and a validity mask)."""

    full = False  # not a regular window per lane

    def __init__(self, idx, valid):
        self.idx, self.valid = idx, valid
        self.rows, self.cols = idx.shape[1:]

    def indices(self, lanes, lo=0, hi=None):
        return self.idx[lo:hi], np.broadcast_to(self.valid, self.idx.shape)[lo:hi]


def _rows(ex, op, t, index, offsets, num, tail, what):
    """Linear start index of every (lane, i) row, the mask of rows to process, and the mask of rows
    whose index lies inside the tensor."""
    L = ex.lanes
    dim = op.attrs["dim"]
    dims = [per_lane(d, L) for d in t.dims]
    offs = [per_lane(np.asarray(o, dtype=np.int64), L) for o in offsets]
    for k in range(dim):  # the fixed leading offsets must lie inside the tensor
        bad = np.nonzero((offs[k] < 0) | (offs[k] >= dims[k]))[0]
        if bad.size:
            raise OutOfBoundsError(f"{what} of tensor '{t.name}': offset {int(offs[k][bad[0]])} of dimension {k} "
                                   f"is outside its {int(dims[k][bad[0]])} elements",
                                   "the offsets before 'dim' select one position of each leading dimension", bad)
    strides = [np.ones(L, np.int64)]
    for d in reversed(dims[1:]):
        strides.insert(0, strides[0] * d)
    idx = np.asarray(index).astype(np.int64)
    idx = np.broadcast_to(idx.reshape(-1, idx.shape[-1]), (L, idx.shape[-1]))
    n = idx.shape[1]
    pos = offs[dim].reshape(L, 1) + idx
    inside = (pos >= 0) & (pos < dims[dim].reshape(L, 1))
    count = n if num is None else per_lane(np.asarray(num, dtype=np.int64), L).reshape(L, 1)
    active = np.broadcast_to(np.arange(n).reshape(1, n) < count, (L, n))
    if not op.attrs["check_bounds"]:
        bad = active & ~inside
        if np.any(bad):
            lanes = np.nonzero(bad.any(axis=1))[0]
            i = int(np.nonzero(bad[lanes[0]])[0][0])
            raise OutOfBoundsError(f"{what} of tensor '{t.name}' with check_bounds=False: index {int(idx[lanes[0], i])} "
                                   f"(position {int(pos[lanes[0], i])} of dimension {dim}, which has "
                                   f"{int(dims[dim][lanes[0]])} elements) is outside the tensor",
                                   "pass check_bounds=True to pad (gather) or skip (scatter) such indices, or "
                                   "keep the indices inside the tensor", lanes)
    base = per_lane(np.asarray(t.base, dtype=np.int64), L).reshape(L, 1)
    for k in range(dim):
        base = base + (offs[k] * strides[k]).reshape(L, 1)
    starts = base + pos * strides[dim].reshape(L, 1)
    return starts, active & inside, active


def _active_rows(op, num):
    """(lanes or 1, n): which entries of the index an indexed access processes (the first ``num_indices``)."""
    n = op.operands[1].type.shape[0]
    if num is None:
        return np.ones((1, n), bool)
    return np.arange(n).reshape(1, n) < np.asarray(num, dtype=np.int64).reshape(-1, 1)


def _undefined_index(ex, op, masks, num, source, what):
    """Warn, and return True, when an undefined element of the index is among the entries processed."""
    if masks[1] is None:
        return False
    bad = masks[1] & _active_rows(op, num)
    if not bad.any():
        return False
    warn_read(ex, op, source, int(np.count_nonzero(bad)), what)
    return True


def _gather_undefined(ex, op, masks, args, out, source):
    """An undefined index among the processed ones reads an unknown row (warns); the gathered rows past
    ``num_indices`` are undefined whatever the index holds there."""
    dim = op.attrs["dim"]
    _undefined_index(ex, op, masks, args[2 + dim + 1] if op.attrs["has_num"] else None, source, "gather (index)")
    return out


def _scatter_undefined(ex, op, masks, args, out, source):
    """A scatter warns when an undefined element reaches the tensor: an undefined index among the processed
    ones (an unknown destination), or an undefined element of a row it writes (rows past ``num_indices``,
    and those whose index is outside the tensor under check_bounds, are not written)."""
    src, index, t, *rest = args
    dim = op.attrs["dim"]
    offsets, rest = rest[:dim + 1], rest[dim + 1:]
    num = rest[0] if op.attrs["has_num"] else None
    if _undefined_index(ex, op, masks, num, source, "scatter (index)") or masks[0] is None:
        return out
    tail = [int(d) for d in t.dims[dim + 1:]]
    _, take, _ = _rows(ex, op, t, index, offsets, num, tail, "scatter")
    L, n = take.shape
    m = np.broadcast_to(masks[0], (L,) + masks[0].shape[1:])
    m = m[(slice(None), slice(0, n)) + tuple(slice(0, d) for d in tail)].reshape(L, n, -1)
    k = int(np.count_nonzero(m & take.reshape(L, n, 1)))
    if k:
        ex.warn(op, f"scatter to '{t.name}' writes {k} undefined element(s) inside the tensor: " + fix_text(source),
                UndefinedStoreWarning)
    return out


@impl("tile.gather", undefined=_gather_undefined)
def _exec_gather(ex, op, t, index, *rest):
    rtype = op.results[0].type
    dim = op.attrs["dim"]
    offsets, rest = rest[:dim + 1], rest[dim + 1:]
    num = rest[0] if op.attrs["has_num"] else None
    pad = rest[-1] if op.attrs["has_pad"] else 0
    tail = [int(d) for d in t.dims[dim + 1:]]
    inner = int(np.prod(tail))
    starts, take, active = _rows(ex, op, t, index, offsets, num, tail, "gather")
    L, n = starts.shape
    buf = t.buffer
    data = buf.data
    idx = starts.reshape(L, n, 1) + np.arange(inner).reshape(1, 1, inner)
    valid = np.broadcast_to(take.reshape(L, n, 1), idx.shape)
    if np.any(valid & ((idx < 0) | (idx >= data.shape[0]))):
        raise OutOfBoundsError(f"gather of tensor '{t.name}' touches elements beyond the buffer of "
                               f"{data.shape[0]} elements",
                               "the tensor's shape is larger than the array passed for it: check the size arguments")
    safe = np.where(valid, idx, 0)
    if ex.checks and not buf.read_only:
        blocks = ex.blocks
        if ex.trackers:  # inside loops without a barrier: what another iteration stores is a hazard
            track_gm_access(ex, op, buf, _Rows(idx, valid), L, load=True)
        if buf.has_writes():
            tags = buf.writer_tags()
            check_read_race(buf, np.where(valid, tags[safe], NO_WRITER), blocks, "gather")
        buf.note_read(_Rows(idx, valid), L, blocks)
    npd = rtype.dtype.to_numpy()
    fill = np.asarray(per_lane(np.asarray(pad), L)).astype(npd).reshape(L, 1, 1)
    rows = np.where(valid, data[safe], fill)                      # (L, n, inner): the tail dimensions flattened
    rows = rows.reshape((L, n) + tuple(tail))
    out = np.broadcast_to(fill.reshape((L,) + (1,) * len(rtype.shape)), (L,) + rtype.shape).copy()
    out[(slice(None), slice(None)) + tuple(slice(0, d) for d in tail)] = rows
    out[~active] = poison(npd)                                   # rows past num_indices: undefined
    ex.count_bytes("in", int(np.count_nonzero(valid)) * data.itemsize)
    if num is None:
        return out
    rank = len(rtype.shape)
    return wrap(out, np.broadcast_to((~active).reshape((L, n) + (1,) * (rank - 1)), out.shape), op)


@impl("tile.scatter", stores=True, undefined=_scatter_undefined)
def _exec_scatter(ex, op, src, index, t, *rest):
    dim = op.attrs["dim"]
    offsets, rest = rest[:dim + 1], rest[dim + 1:]
    num = rest[0] if op.attrs["has_num"] else None
    tail = [int(d) for d in t.dims[dim + 1:]]
    inner = int(np.prod(tail))
    starts, take, _ = _rows(ex, op, t, index, offsets, num, tail, "scatter")
    L, n = starts.shape
    buf = t.buffer
    data = buf.data
    src = np.asarray(src)
    src = np.broadcast_to(src, (L,) + src.shape[1:])
    vals = src[(slice(None), slice(0, n)) + tuple(slice(0, d) for d in tail)].reshape(L, n, inner)
    idx = starts.reshape(L, n, 1) + np.arange(inner).reshape(1, 1, inner)
    valid = np.broadcast_to(take.reshape(L, n, 1), idx.shape)
    if np.any(valid & ((idx < 0) | (idx >= data.shape[0]))):
        raise OutOfBoundsError(f"scatter to tensor '{t.name}' touches elements beyond the buffer of "
                               f"{data.shape[0]} elements",
                               "the tensor's shape is larger than the array passed for it: check the size arguments")
    flat, v = idx[valid], vals[valid].astype(data.dtype)
    lane_blocks = np.broadcast_to(ex.blocks.reshape(-1, 1, 1), idx.shape)[valid]
    if ex.checks:
        if ex.trackers:
            track_gm_access(ex, op, buf, _Rows(idx, valid), L, load=False)
        if buf.has_reads():
            lo, hi = buf.reader_span()
            safe = np.where(valid, idx, 0)
            check_overwrite_race(buf, lo[safe], np.where(valid, hi[safe], -1), ex.blocks, "scatter")
        tags = buf.writer_tags()
        prev = tags[flat]
        bad = write_conflicts(prev, lane_blocks, atomic=False)
        if np.any(bad):
            raise RaceError(f"scatter to '{buf.name}' overlaps elements written by "
                            f"{writer_text(prev[bad][0])} in the same launch",
                            "give every block disjoint indices, or split the work into two launches")
        order = np.argsort(flat, kind="stable")
        fs, bs = flat[order], lane_blocks[order]
        if np.any((fs[1:] == fs[:-1]) & (bs[1:] != bs[:-1])):
            raise RaceError(f"scatter to '{buf.name}': two blocks write the same elements in one scatter",
                            "give every block disjoint indices, or split the work into two launches")
        tags[flat] = lane_blocks
        # A scatter updates chosen rows of a tensor in place: the rows it leaves alone are kept on purpose,
        # so the buffer counts as covered (no "never written" warning, as for a load-modify-store).
        buf.log.cover.append((buf.off, buf.off + buf.n))
    data[flat] = v  # an element written twice by one block: index order, the last write wins
    buf.written = True
    ex.count_bytes("out", flat.size * data.itemsize)
    return None

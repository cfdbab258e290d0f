"""Global memory of one launch: the caller's buffers (``Buffer``, bound by ``bind_buffers``), pointers and
tensor views over them (``PtrVal``, ``TensorVal``), and the per-element records of who wrote and read them.
Stores remember which block wrote each element and loads which blocks read it, so two blocks writing
the same element, one reading what another wrote, or one overwriting what another read in the same
launch is reported as a race (``races.py``); atomic updates may share elements with each other. The
windows a tile access touches, and their bounds checks, are in ``tile_access.py``.
"""
from __future__ import annotations

import numpy as np

from .chunks import lane_chunks
from .lanes import gather
from .races import NO_WRITER
from .views import strided


class AccessLog:
    """Who wrote and who read each element of a region of memory during one launch. Arguments whose
    memory overlaps (the same array passed twice, or two slices of one array) share one log over the
    union of their elements; each buffer sees its part through ``Buffer.off``."""

    def __init__(self, n):
        self.n = n
        self.tags = None          # per-element writer block, materialised when a second access needs it
        self.pending = []         # (off, fill) tag writes of stores, replayed on demand
        self.readers = None       # per-element (lowest, highest) reading block, for write-after-read races
        self.read_marks = []      # (off, mark) reader updates of loads, replayed when a store needs them
        self.cover = []           # (off, starts, rows, row_stride, valid_cols) windows some store wrote


class Buffer:
    def __init__(self, name, data: np.ndarray, read_only=False, log=None, off=0):
        self.name = name
        self.data = data          # 1-d view of the caller's memory
        self.read_only = read_only  # the kernel never writes it: loads may alias it without copying
        self.log = log or AccessLog(data.shape[0])
        self.off = off            # index of data[0] in the log's elements
        self.n = data.shape[0]
        self.written = False
        self.stored = not read_only  # the kernel stores through this argument (set by the launcher)
        self.output = False       # the argument plays the output role (set by the launcher)
        self.narrow = []          # (op, element indices, blocks) of scalar stores (32-byte DMA blocks)

    def defer_write(self, fill):
        """Record the writer tags of a store (``fill(tags)`` over this buffer's elements), applied when a
        later access needs them."""
        self.log.pending.append((self.off, fill))

    def writer_tags(self):
        """The per-element writer tags of this buffer, with every deferred write applied."""
        log = self.log
        if log.tags is None:
            log.tags = np.full(log.n, NO_WRITER, dtype=np.int32)
        if log.pending:
            for off, fill in log.pending:
                fill(log.tags[off:])
            log.pending = []
        return log.tags[self.off:self.off + self.n]

    def has_writes(self):
        return self.log.tags is not None or bool(self.log.pending)

    def reader_span(self):
        """(lo, hi): the lowest and highest block that read each element (hi < 0: nobody)."""
        log = self.log
        if log.readers is None:
            log.readers = (np.full(log.n, np.iinfo(np.int32).max, dtype=np.int32), np.full(log.n, -1, dtype=np.int32))
        lo, hi = log.readers
        if log.read_marks:
            for off, mark in log.read_marks:
                mark(lo[off:], hi[off:])
            log.read_marks = []
        s = slice(self.off, self.off + self.n)
        return lo[s], hi[s]

    def has_reads(self):
        return self.log.readers is not None or bool(self.log.read_marks)

    def only_read_by_the_same_lanes(self, view, blocks):
        """Whether every read so far covered exactly these disjoint windows, each by the block that now
        writes it (a load-modify-store in place): then no other block read what this store writes."""
        log = self.log
        if log.readers is not None:
            return False
        key = _geometry(view)
        for _, mark in log.read_marks:
            seen = getattr(mark, "windows", None)
            if seen is None or seen[0] != key or not np.array_equal(seen[1], blocks):
                return False
        return True

    def note_read(self, acc, lanes, blocks, view=None):
        """Remember which blocks read the windows of ``acc`` (``view``: the windows as a view of ``data``,
        one per lane, when the load had one)."""
        if self.read_only:
            return  # never written in this launch: reading it cannot race
        blocks = blocks.copy()
        if view is not None and view.shape[0] == 1:
            lo_b, hi_b = int(blocks.min()), int(blocks.max())

            def mark(lo, hi):
                for arr, b, fn in ((lo, lo_b, np.minimum), (hi, hi_b, np.maximum)):
                    w = tags_window(arr, view, self.data)
                    fn(w, b, out=w)
        elif view is not None and not _lanes_overlap(view, acc, self.data.itemsize):
            b = blocks.reshape(-1, 1, 1)

            def mark(lo, hi):
                for arr, fn in ((lo, np.minimum), (hi, np.maximum)):
                    w = tags_window(arr, view, self.data)
                    fn(w, b, out=w)
            mark.windows = (_geometry(view), blocks)
        else:
            blocks = np.broadcast_to(blocks, (lanes,))

            def mark(lo, hi):
                for c0, c1 in lane_chunks(lanes, acc.rows * acc.cols):
                    idx, valid = acc.indices(lanes, c0, c1)
                    b = blocks[c0:c1]
                    # Lanes ordered so that, among lanes reading one element, the extreme block comes last
                    # (a later chunk meets the earlier chunks' marks through ``fn``).
                    for arr, order, fn in ((lo, np.argsort(-b, kind="stable"), np.minimum),
                                           (hi, np.argsort(b, kind="stable"), np.maximum)):
                        v = valid[order]
                        flat = idx[order][v]
                        arr[flat] = fn(arr[flat], np.broadcast_to(b[order].reshape(-1, 1, 1), v.shape)[v])
        self.log.read_marks.append((self.off, mark))


def _overlap(a, na, b, nb):
    """Whether the byte ranges [a, a + na) and [b, b + nb) share a byte."""
    return na and nb and a < b + nb and b < a + na


def any_overlap(views):
    """Whether two of the 1-d views share memory (``bind_buffers`` says the same, without making buffers).
    For contiguous 1-d views the memory bounds numpy compares are their byte ranges."""
    return any(np.may_share_memory(a, b) for i, a in enumerate(views) for b in views[:i])


def bind_buffers(args, overlap=None):
    """Buffers for ``args`` (name, 1-d view, whether the kernel stores through it), and whether any two
    of them overlap in memory. Views that overlap share one access log over the union of their elements,
    so races are found on the memory itself, whichever argument reached it. Overlapping views of
    different element sizes, or offset by a fraction of an element, keep separate logs (their elements
    do not line up). A buffer is read-only (loads may alias it without copying) when the kernel never
    stores through it and it overlaps none that it stores through. ``overlap``: ``any_overlap`` of the
    views, when the caller asked already."""
    if overlap is None:
        overlap = any_overlap([v for _, v, _ in args])
    if not overlap:   # the common case: every argument its own memory
        return {name: Buffer(name, view, read_only=not written) for name, view, written in args}, False
    spans = [(v.ctypes.data, v.nbytes, v.itemsize) for _, v, _ in args]
    group = list(range(len(args)))
    read_only = [not written for _, _, written in args]
    aliased = False

    def root(i):
        while group[i] != i:
            i = group[i]
        return i
    for i, (a, na, ia) in enumerate(spans):
        for j in range(i):
            b, nb, ib = spans[j]
            if _overlap(a, na, b, nb):
                aliased = True
                if args[i][2] or args[j][2]:
                    read_only[i] = read_only[j] = False
                if ia == ib and (a - b) % ia == 0:
                    group[root(i)] = root(j)
    logs = {}
    for i, (a, na, ia) in enumerate(spans):
        r = root(i)
        lo, hi = logs.get(r, (a, a + na))[:2]
        logs[r] = (min(lo, a), max(hi, a + na))
    out = {}
    shared = {}
    for i, (name, view, _) in enumerate(args):
        r = root(i)
        lo, hi = logs[r]
        itemsize = spans[i][2]
        if r not in shared:
            shared[r] = AccessLog((hi - lo) // itemsize)
        out[name] = Buffer(name, view, read_only=read_only[i], log=shared[r], off=(spans[i][0] - lo) // itemsize)
    return out, aliased


class PtrVal:
    def __init__(self, buffer, off):
        self.buffer = buffer
        self.off = off

    def offset_by(self, off):
        return PtrVal(self.buffer, self.off + np.asarray(off, dtype=np.int64))

    def gather(self, idx):
        return PtrVal(self.buffer, gather(self.off, idx))


class TensorVal:
    def __init__(self, buffer, base, dims, name):
        self.buffer = buffer
        self.base = np.asarray(base, dtype=np.int64)
        self.dims = [np.asarray(d, dtype=np.int64) for d in dims]
        self.name = name

    def gather(self, idx):
        if self.base.ndim == 0 and all(d.ndim == 0 for d in self.dims):
            return self  # the same tensor in every lane
        return TensorVal(self.buffer, gather(self.base, idx), [gather(d, idx) for d in self.dims], self.name)


def tags_window(tags, view_like, data):
    """The window of a per-element array (writer tags, reader spans) matching a strided view of data."""
    es, ts = data.itemsize, tags.itemsize
    start = (view_like.__array_interface__["data"][0] - data.__array_interface__["data"][0]) // es
    return strided(tags, start, view_like.shape, tuple(s // es * ts for s in view_like.strides))


def _geometry(view):
    return view.__array_interface__["data"][0], view.shape, view.strides


def _lanes_overlap(view, acc, itemsize):
    """Whether the per-lane windows of a strided view share elements."""
    step = view.strides[0] // itemsize
    rs = int(acc.row_stride)
    return step < (acc.rows - 1) * rs + acc.cols and windows_overlap(step, view.shape[0], acc.rows, acc.cols, rs)


def windows_overlap(step, lanes, rows, cols, row_stride):
    """Whether windows of rows x cols (rows row_stride apart) placed every ``step`` elements overlap."""
    m = 1
    reach = (rows - 1) * row_stride + cols - 1
    while m < lanes and m * step <= reach:
        d = m * step
        k = min(rows - 1, d // row_stride) if row_stride else 0
        for kk in (k, k + 1):
            if kk <= rows - 1 and abs(d - kk * row_stride) <= cols - 1:
                return True
        m += 1
    return False


def sliding_windows(arr, rows, cols, row_stride):
    """A view of the 1-d ``arr`` whose entry ``s`` is the rows x cols window (rows ``row_stride`` apart)
    starting at element s."""
    es = arr.itemsize
    extent = (rows - 1) * row_stride + cols
    return strided(arr, 0, (arr.shape[0] - extent + 1, rows, cols), (es, row_stride * es, es))

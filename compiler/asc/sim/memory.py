"""Global memory of one launch: the caller's buffers, tensor views over them, bounds and race checks.

Loads and stores clip exactly where pyasc does (the last-dimension tail of a tile, and 1-D tails); any
other access outside a tensor or its buffer is an error, and nothing is written outside a buffer.
Stores remember which block wrote each element, so two blocks writing (or one reading what another
wrote in the same launch) is reported as a race; atomic updates are exempt.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .errors import OutOfBoundsError, RaceError
from .lanes import gather, per_lane

NO_WRITER = -1
ATOMIC = -2


class Buffer:
    def __init__(self, name, data: np.ndarray, read_only=False):
        self.name = name
        self.data = data          # 1-d view of the caller's memory
        self.read_only = read_only  # the kernel never writes it: loads may alias it without copying
        self.tags = None          # per-element writer block, materialised when a second access needs it
        self.pending = []         # tag writes of the first store, replayed on demand
        self.written = False

    def writer_tags(self):
        """The per-element writer tags, with every deferred write applied."""
        if self.tags is None:
            self.tags = np.full(self.data.shape[0], NO_WRITER, dtype=np.int32)
        for fill in self.pending:
            fill(self.tags)
        self.pending = []
        return self.tags

    def has_writes(self):
        return self.tags is not None or bool(self.pending)


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


_UNKNOWN = object()
_ZERO = np.asarray(0, dtype=np.int64)
_ONE = np.asarray(1, dtype=np.int64)


def _span(v):
    """(min, max) of a lane value as Python ints."""
    if v.ndim == 0:
        x = int(v)
        return x, x
    return int(v.min()), int(v.max())


def _fmt(v):
    v = np.asarray(v)
    return str(v.item()) if v.size == 1 else str(v.tolist()[:4])[:-1] + (", ...]" if v.size > 4 else "]")


class Access:
    """The elements a batched tile load/store touches: per lane a (rows x cols) window.

    For 1-d tensors the window is one row. ``starts`` are linear element indices of the window's first
    element, ``row_stride`` the tensor's row length, ``valid_cols`` how many columns lie inside the
    tensor (the clipped tail; the rest is padding on load and skipped on store).
    """

    def __init__(self, tensor: TensorVal, offsets, shape, lanes, what):
        self.tensor = tensor
        self.shape = shape
        rank = len(tensor.dims)
        buf = tensor.buffer
        offs = [np.asarray(o, dtype=np.int64) for o in offsets]
        if rank == 1:
            (n,), (o,) = tensor.dims, offs
            rows, cols = 1, shape[0]
            row_off, col_off, row_dim, col_dim = _ZERO, o, _ONE, n
        else:
            (m, n), (r, c) = tensor.dims, offs
            rows, cols = shape
            row_off, col_off, row_dim, col_dim = r, c, m, n
        row_stride = n
        self.rows, self.cols = rows, cols
        # Checks on (min, max) spans: one reduction per lane array instead of one pass per condition.
        c_lo, c_hi = _span(col_off)
        r_lo, r_hi = _span(row_off)
        if c_lo < 0 or r_lo < 0:
            raise OutOfBoundsError(f"{what} of tensor '{tensor.name}' at negative offsets "
                                   f"[{', '.join(_fmt(x) for x in offs)}]", "offsets are element indices and must be >= 0")
        if r_hi + rows > (int(row_dim) if row_dim.ndim == 0 else -1) and np.any(row_off + rows > row_dim):
            bad = np.nonzero(np.broadcast_to(row_off + rows > row_dim, (lanes,)))[0]
            raise OutOfBoundsError(
                f"{what} of tensor '{tensor.name}' (shape [{_fmt(row_dim)}, {_fmt(col_dim)}]) at offsets "
                f"[{_fmt(gather(row_off, bad))}, {_fmt(gather(col_off, bad))}] with tile shape {list(shape)} "
                f"reads rows beyond the tensor's {_fmt(row_dim)} rows",
                "only the last dimension is clipped; make the row loop stop at the tensor's row count", bad)
        if col_dim.ndim == 0 and int(col_dim) - c_hi >= cols:
            self.valid_cols, self.full = cols, True
        else:
            self.valid_cols = np.clip(col_dim - col_off, 0, cols)
            self.full = bool(np.all(self.valid_cols == cols))
        self.starts = tensor.base + row_off * row_stride + col_off if r_hi or row_stride.ndim else tensor.base + col_off
        self.row_stride = row_stride
        self.start_lo, self.start_hi = _span(self.starts)
        self._step = _UNKNOWN
        # Bounds of the buffer itself (a tensor may claim more elements than its buffer holds).
        size = buf.data.shape[0]
        if self.full and row_stride.ndim == 0:
            ok = self.start_lo >= 0 and self.start_hi + (rows - 1) * int(row_stride) + cols <= size
        else:
            ok = False
        if not ok:
            last = self.starts + (rows - 1) * row_stride + np.maximum(self.valid_cols, 1) - 1
            has_any = self.valid_cols > 0
            if np.any(has_any & ((last >= size) | (self.starts < 0))):
                bad = np.nonzero(np.broadcast_to(has_any & ((last >= size) | (self.starts < 0)), (lanes,)))[0]
                raise OutOfBoundsError(
                    f"{what} of tensor '{tensor.name}' at offsets [{', '.join(_fmt(gather(x, bad)) for x in offs)}] "
                    f"touches element {_fmt(gather(last, bad))} of a buffer of {size} elements",
                    "the tensor's shape is larger than the array passed for it: check the size arguments", bad)

    def valid_count(self, lanes):
        """Elements inside the tensor over all lanes."""
        if self.full:
            return lanes * self.rows * self.cols
        return int(np.sum(np.broadcast_to(self.valid_cols, (lanes,)))) * self.rows

    # -- fast path: every lane's window fully inside, windows at a constant stride ----------------
    def _regular_step(self, starts, lanes):
        """The constant distance between consecutive lanes' windows, or None."""
        if self._step is not _UNKNOWN:
            return self._step
        self._step = self._find_step(starts, lanes)
        return self._step

    def _find_step(self, starts, lanes):
        if lanes == 1 or self.start_lo == self.start_hi:
            return 0
        span = self.start_hi - self.start_lo
        if span % (lanes - 1):
            return None
        step = span // (lanes - 1)
        if starts[0] != self.start_lo:
            return None
        d = starts[1:] - starts[:-1]
        return step if d.min() == step and d.max() == step else None

    def strided_view(self, data, lanes):
        """(view, order) with view[k] the window of lane order[k]; None when windows are irregular."""
        if not self.full or np.ndim(self.row_stride) != 0:
            return None
        starts = per_lane(self.starts, lanes)
        rs = int(self.row_stride)
        es = data.itemsize
        step = self._regular_step(starts, lanes)
        if step == 0:
            v = as_strided(data[self.start_lo:], shape=(1, self.rows, self.cols), strides=(0, rs * es, es))
            return v, None
        order = None
        if step is None:
            order = np.argsort(starts, kind="stable")
            starts = starts[order]
            d = np.diff(starts)
            step = int(d[0])
            if step <= 0 or np.any(d != step):
                return None
        v = as_strided(data[self.start_lo:], shape=(lanes, self.rows, self.cols), strides=(step * es, rs * es, es))
        return v, order

    def sliding(self, arr):
        """A view of ``arr`` (data or writer tags) whose entry ``s`` is the window starting at element s."""
        rs, es = int(self.row_stride), arr.itemsize
        extent = (self.rows - 1) * rs + self.cols
        return as_strided(arr, shape=(arr.shape[0] - extent + 1, self.rows, self.cols), strides=(es, rs * es, es))

    def gather_view(self, data, lanes):
        """(windows, index, starts): the window of lane l is windows[index[l]] (index None: windows[l],
        or the only window); lanes may share windows (e.g. every block loading the same operand).
        ``starts`` is None when ``windows`` is a view of ``data``, else the windows' first elements
        (they were copied). None when some window is not fully inside the tensor."""
        if not self.full or np.ndim(self.row_stride) != 0:
            return None
        starts = per_lane(self.starts, lanes)
        step = self._regular_step(starts, lanes)
        if step is not None:
            return self.strided_view(data, lanes)[0], None, None
        u, inv = np.unique(starts, return_inverse=True)
        inv = inv.reshape(-1)
        d = np.diff(u)
        if d.min() == d.max():
            es, rs = data.itemsize, int(self.row_stride)
            v = as_strided(data[int(u[0]):], shape=(u.size, self.rows, self.cols), strides=(int(d[0]) * es, rs * es, es))
            return v, inv, None
        return self.sliding(data)[u], inv, u

    def indices(self, lanes):
        """Linear indices (lanes, rows, cols) and the in-tensor mask, for the general path."""
        starts = np.broadcast_to(self.starts, (lanes,)).reshape(lanes, 1, 1)
        rs = np.broadcast_to(self.row_stride, (lanes,)).reshape(lanes, 1, 1) if np.ndim(self.row_stride) else self.row_stride
        idx = starts + np.arange(self.rows).reshape(1, -1, 1) * rs + np.arange(self.cols).reshape(1, 1, -1)
        valid = np.arange(self.cols).reshape(1, 1, -1) < np.broadcast_to(self.valid_cols, (lanes,)).reshape(lanes, 1, 1)
        return idx, np.broadcast_to(valid, idx.shape)


def check_read_race(buf: Buffer, tags_window, blocks, what):
    """A block reading elements another block wrote in this launch is a race."""
    conflict = (tags_window >= 0) & (tags_window != blocks.reshape((-1,) + (1,) * (tags_window.ndim - 1)))
    if np.any(conflict):
        lane = np.nonzero(conflict.reshape(conflict.shape[0], -1).any(axis=1))[0]
        raise RaceError(f"{what} of '{buf.name}' reads data written by block "
                        f"{int(tags_window[conflict].flat[0])} in the same launch",
                        "blocks run concurrently: a block may only read what it wrote itself "
                        "(split the work into two kernel launches)", lane)


def check_write_race(buf: Buffer, tags_window, blocks, what, atomic=False):
    b = blocks.reshape((-1,) + (1,) * (tags_window.ndim - 1))
    if atomic:
        conflict = (tags_window >= 0)
    else:
        conflict = (tags_window == ATOMIC) | ((tags_window >= 0) & (tags_window != b))
    if np.any(conflict):
        lane = np.nonzero(conflict.reshape(conflict.shape[0], -1).any(axis=1))[0]
        other = int(tags_window[conflict].flat[0])
        who = "an atomic update" if other == ATOMIC else f"block {other}"
        raise RaceError(f"{what} to '{buf.name}' overlaps elements written by {who} in the same launch",
                        "give every block a disjoint output region, or use asc2.atomic_add/max/min", lane)

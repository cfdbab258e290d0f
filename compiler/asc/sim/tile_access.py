"""The elements a tile load or store touches in a tensor (``Access``; ``ClippedAccess`` for windows
clamped to the tensor in every dimension): per lane a rows x cols window of the tensor's buffer, its bounds
checked where the access is made. Loads and stores clip exactly where pyasc does (the last-dimension tail
of a tile, and 1-D tails); any other access outside a tensor or its buffer is an error (the messages are
``negative_offsets``, ``real_shape_too_large``, ``outside_buffer``), and nothing is written outside a
buffer. The buffers and tensors themselves, and the window geometry shared with their race records, are
in ``memory.py``.
"""
from __future__ import annotations

import numpy as np

from . import lane_facts
from .chunks import lane_chunks
from .errors import OutOfBoundsError
from .lanes import gather, per_lane
from .memory import TensorVal, sliding_windows
from .views import strided

_UNKNOWN = object()
_ZERO = np.asarray(0, dtype=np.int64)
_ONE = np.asarray(1, dtype=np.int64)


def _span(v):
    """(min, max) of a lane value as Python ints."""
    if v.ndim == 0:
        x = int(v)
        return x, x
    return int(v.min()), int(v.max())


def _lanes(v, lanes, lo, hi):
    """Lanes ``lo:hi`` of a per-lane (or shared) value."""
    return np.broadcast_to(v, (lanes,))[lo:hi]


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
        if self._inside(tensor, offsets, shape, what):
            return
        rank = len(tensor.dims)
        buf = tensor.buffer
        # (offsets stay as the lanes hold them, int32 mostly: what is computed from them with the int64
        # dimensions and base is int64; the checks' spans are Python ints)
        offs = [o if type(o) is np.ndarray and o.dtype.kind == "i" else np.asarray(o, dtype=np.int64) for o in offsets]
        if rank == 1:
            (n,), (o,) = tensor.dims, offs
            rows, cols = 1, shape[0]
            row_off, col_off, row_dim, col_dim = _ZERO, o, _ONE, n
            raw_row, raw_col = _ZERO, offsets[0]
        else:
            (m, n), (r, c) = tensor.dims, offs
            rows, cols = shape
            row_off, col_off, row_dim, col_dim = r, c, m, n
            raw_row, raw_col = offsets
        row_stride = n
        self.rows, self.cols = rows, cols
        # Checks on (min, max) spans: one reduction per lane array instead of one pass per condition, and
        # per offset array rather than per access (``lane_facts``: a tile's loads and store share theirs).
        c_lo, c_hi = lane_facts.span(raw_col)
        r_lo, r_hi = lane_facts.span(raw_row)
        if c_lo < 0 or r_lo < 0:
            raise negative_offsets(what, tensor, offs)
        # Lanes whose window starts at or past the tensor's last element (``outside``): pyasc's lowering clamps
        # such a load's length at zero (the tile is padding) and gives such a store a negative length; the
        # caller decides what that means (``sim.ops.memory.past_end_store``).
        tile_access = not what.startswith("scalar")
        past = None
        if tile_access and rank == 2 and r_hi >= (int(row_dim) if row_dim.ndim == 0 else -1):
            past = row_off >= row_dim
        elif tile_access and rank == 1 and not (col_dim.ndim == 0 and c_hi < int(col_dim)):
            past = col_off >= col_dim
        self.outside = None if past is None or not np.any(past) else np.nonzero(np.broadcast_to(past, (lanes,)))[0]
        beyond = None
        if r_hi + rows > (int(row_dim) if row_dim.ndim == 0 else -1):   # (only then can a window reach past it)
            beyond = row_off.astype(np.int64) + rows > row_dim
            if past is not None and rank == 2:
                beyond = beyond & ~past
        if beyond is not None and np.any(beyond):
            bad = np.nonzero(np.broadcast_to(beyond, (lanes,)))[0]
            raise OutOfBoundsError(
                f"{what} of tensor '{tensor.name}' (shape [{_fmt(row_dim)}, {_fmt(col_dim)}]) at offsets "
                f"[{_fmt(gather(row_off, bad))}, {_fmt(gather(col_off, bad))}] with tile shape {list(shape)} "
                f"{'reads' if 'load' in what else 'writes'} rows beyond the tensor's {_fmt(row_dim)} rows",
                "only the last dimension is clipped; make the row loop stop at the tensor's row count", bad)
        if col_dim.ndim == 0 and int(col_dim) - c_hi >= cols and self.outside is None:
            self.valid_cols, self.full = cols, True
        else:
            self.valid_cols = np.clip(col_dim - col_off, 0, cols)
            if self.outside is not None:
                self.valid_cols = np.where(np.broadcast_to(past, (lanes,)), 0, np.broadcast_to(self.valid_cols, (lanes,)))
            self.full = bool(np.all(self.valid_cols == cols))
            empty = np.broadcast_to(self.valid_cols == 0, (lanes,))
            if self.outside is not None:
                empty = empty & ~np.broadcast_to(past, (lanes,))
            if not self.full and tile_access and np.any(empty):
                bad = np.nonzero(empty)[0]
                raise OutOfBoundsError(
                    f"{what} of tensor '{tensor.name}' (shape [{', '.join(_fmt(d) for d in tensor.dims)}]) at offsets "
                    f"[{', '.join(_fmt(gather(x, bad)) for x in offs)}] with tile shape {list(shape)} starts past "
                    "the end of the tensor: no element of the window is inside it, so on the hardware this DMA "
                    "touches memory outside the tensor",
                    "only a tile that starts inside the tensor has its tail clipped: stop the loop at "
                    "asc.ceildiv(size, tile) or guard the access with an if", bad)
        self.starts = tensor.base + row_off * row_stride + col_off if r_hi or row_stride.ndim else tensor.base + col_off
        self.row_stride = row_stride
        # start = base + row * row_stride + col: with one of row / col the same in every lane, the starts'
        # span and spacing are those of the other, scaled (no pass over the starts themselves).
        self._varying = None
        if tensor.base.ndim == 0 and row_stride.ndim == 0 and int(row_stride) >= 0 and \
                (np.ndim(raw_row) == 0 or np.ndim(raw_col) == 0):
            b, rs = int(tensor.base), int(row_stride)
            self.start_lo, self.start_hi = b + r_lo * rs + c_lo, b + r_hi * rs + c_hi
            if np.ndim(raw_col):
                self._varying = (raw_col, 1)
            elif np.ndim(raw_row):
                self._varying = (raw_row, rs)
        else:
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

    def _inside(self, tensor, offsets, shape, what):
        """The common case, decided from the offsets' spans alone: a tile access of a 1-d or 2-d tensor of
        fixed shape whose every window lies wholly inside the tensor and its buffer (then nothing is clipped
        and nothing is an error). Sets what the general path would; False: take the general path."""
        dims, base = tensor.dims, tensor.base
        if base.ndim or len(dims) > 2 or what.startswith("scalar"):
            return False
        if len(dims) == 1:
            (n,), (col,), row = dims, offsets, None
            rows, cols, r_lo = 1, shape[0], 0
        else:
            (m, n), (row, col) = dims, offsets
            rows, cols = shape
            if m.ndim or type(row) is not np.ndarray or row.dtype.kind != "i":
                return False
            r_lo, r_hi = lane_facts.span(row)
            if r_lo < 0 or r_hi + rows > int(m):
                return False
        if n.ndim or type(col) is not np.ndarray or col.dtype.kind != "i":
            return False
        c_lo, c_hi = lane_facts.span(col)
        rs, b = int(n), int(base)
        if c_lo < 0 or rs - c_hi < cols:
            return False
        if row is None or not row.ndim or not col.ndim:
            r_hi = r_lo if row is None else r_hi
            start_lo, start_hi = b + r_lo * rs + c_lo, b + r_hi * rs + c_hi
            varying = (col, 1) if col.ndim else (row, rs) if row is not None and row.ndim else None
            starts = base + col if row is None else base + row * n + col
        else:
            starts = base + row * n + col
            start_lo, start_hi = _span(starts)
            varying = None
        if start_lo < 0 or start_hi + (rows - 1) * rs + cols > tensor.buffer.data.shape[0]:
            return False
        self.rows, self.cols, self.outside = rows, cols, None
        self.valid_cols, self.full = cols, True
        self.starts, self.row_stride = starts, n
        self.start_lo, self.start_hi, self._varying, self._step = start_lo, start_hi, varying, _UNKNOWN
        return True

    def valid_count(self, lanes):
        """Elements inside the tensor over all lanes."""
        if self.full:
            return lanes * self.rows * self.cols
        return int(np.sum(np.broadcast_to(self.valid_cols, (lanes,)))) * self.rows

    # -- fast path: every lane's window fully inside, windows at a constant stride ----------------
    def _regular_step(self, lanes):
        """The constant distance between consecutive lanes' windows, or None."""
        if self._step is _UNKNOWN:
            self._step = self._find_step(lanes)
        return self._step

    def _find_step(self, lanes):
        if lanes == 1 or self.start_lo == self.start_hi:
            return 0
        if self._varying is not None:
            v, scale = self._varying
            step = lane_facts.step(v, lanes)
            return None if step is None else step * scale
        starts = per_lane(self.starts, lanes)
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
        if not self.full or self.row_stride.ndim != 0:
            return None
        rs = int(self.row_stride)
        es = data.itemsize
        step = self._regular_step(lanes)
        if step == 0:
            v = strided(data, self.start_lo, (1, self.rows, self.cols), (0, rs * es, es))
            return v, None
        order = None
        if step is None:
            starts = per_lane(self.starts, lanes)
            order = np.argsort(starts, kind="stable")
            starts = starts[order]
            d = np.diff(starts)
            step = int(d[0])
            if step <= 0 or np.any(d != step):
                return None
        v = strided(data, self.start_lo, (lanes, self.rows, self.cols), (step * es, rs * es, es))
        return v, order

    def sliding(self, arr):
        """A view of ``arr`` (data or writer tags) whose entry ``s`` is the window starting at element s."""
        return sliding_windows(arr, self.rows, self.cols, int(self.row_stride))

    def gather_view(self, data, lanes):
        """(windows, index, starts): the window of lane l is windows[index[l]] (index None: windows[l],
        or the only window); lanes may share windows (e.g. every block loading the same operand).
        ``starts`` is None when ``windows`` is a view of ``data``, else the windows' first elements
        (they were copied). None when some window is not fully inside the tensor."""
        if not self.full or self.row_stride.ndim != 0:
            return None
        if self._regular_step(lanes) is not None:
            return self.strided_view(data, lanes)[0], None, None
        u, inv = np.unique(per_lane(self.starts, lanes), return_inverse=True)
        inv = inv.reshape(-1)
        d = np.diff(u)
        if d.min() == d.max():
            es, rs = data.itemsize, int(self.row_stride)
            v = strided(data, int(u[0]), (u.size, self.rows, self.cols), (int(d[0]) * es, rs * es, es))
            return v, inv, None
        return self.sliding(data)[u], inv, u

    def indices(self, lanes, lo=0, hi=None):
        """Linear indices (lanes, rows, cols) and the in-tensor mask, for the general path (lanes ``lo:hi``
        of ``lanes``: ``sim/chunks.py``)."""
        hi = lanes if hi is None else hi
        n = hi - lo
        starts = _lanes(self.starts, lanes, lo, hi).reshape(n, 1, 1)
        rs = _lanes(self.row_stride, lanes, lo, hi).reshape(n, 1, 1) if np.ndim(self.row_stride) else self.row_stride
        idx = starts + np.arange(self.rows).reshape(1, -1, 1) * rs + np.arange(self.cols).reshape(1, 1, -1)
        valid = np.arange(self.cols).reshape(1, 1, -1) < _lanes(self.valid_cols, lanes, lo, hi).reshape(n, 1, 1)
        return idx, np.broadcast_to(valid, idx.shape)


def negative_offsets(what, tensor, offs):
    return OutOfBoundsError(f"{what} of tensor '{tensor.name}' at negative offsets "
                            f"[{', '.join(_fmt(x) for x in offs)}]", "offsets are element indices and must be >= 0")


def real_shape_too_large(what, tensor, real, shape, bad):
    return OutOfBoundsError(
        f"{what} of tensor '{tensor.name}' with real_shape [{', '.join(_fmt(gather(x, bad)) for x in real)}] "
        f"larger than the tile shape {list(shape)}: the DMA would move more elements than the tile holds",
        "keep each real_shape value within the tile's dimension (clamp it for the last tile)", bad)


def outside_buffer(acc, lanes, what, tensor):
    """An element of the windows outside the tensor's buffer (the tensor claims more than the array
    holds) is an error."""
    size = tensor.buffer.data.shape[0]
    for lo, hi in lane_chunks(lanes, acc.rows * acc.cols):
        idx, valid = acc.indices(lanes, lo, hi)
        badmask = valid & ((idx >= size) | (idx < 0))
        if np.any(badmask):
            bad = lo + np.nonzero(badmask.reshape(hi - lo, -1).any(axis=1))[0]
            raise OutOfBoundsError(f"{what} of tensor '{tensor.name}' reaches past the end of a buffer of {size} "
                                   "elements", "the tensor's shape is larger than the array passed for it: check "
                                   "the size arguments", bad)


class ClippedAccess:
    """A load / store limited to ``real`` elements per dimension (``real_shape`` of copy_in / copy_out):
    only the elements inside both the real window and the tensor's last dimension are read or written.
    With ``clip`` (the August ``copy_in`` / ``copy_out``, clamped to the tensor in every dimension as
    pyasc-dev's interpreter clamps them) what lies outside is padding on a load and not written on a
    store, and a window wholly outside touches nothing. Without it (April) rows of the real window past
    the tensor's rows are an error, and so is a window that starts outside the tensor. Always takes the
    general (indexed) path."""

    full = False

    def __init__(self, tensor: TensorVal, offsets, shape, real, lanes, what, clip=False):
        self.tensor = tensor
        self.shape = shape
        offs = [np.asarray(o, dtype=np.int64) for o in offsets]
        real = [np.asarray(r, dtype=np.int64) for r in real]
        if len(tensor.dims) == 1:
            (n,), (o,), (rc,) = tensor.dims, offs, real
            self.rows, self.cols = 1, shape[0]
            row_off, col_off, row_dim, col_dim, real_rows = _ZERO, o, _ONE, n, _ONE
        else:
            (m, n), (row_off, col_off), (real_rows, rc) = tensor.dims, offs, real
            self.rows, self.cols = shape
            row_dim, col_dim = m, n
        if np.any(row_off < 0) or np.any(col_off < 0):
            raise negative_offsets(what, tensor, offs)
        over = np.broadcast_to((real_rows > self.rows) | (rc > self.cols), (lanes,))
        if np.any(over):
            raise real_shape_too_large(what, tensor, real, shape, np.nonzero(over)[0])
        some = (real_rows > 0) & (rc > 0)
        # A window starting at or past the tensor's last element: nothing of it is inside (see Access.outside).
        past = (row_off >= row_dim) if len(tensor.dims) == 2 else (col_off >= col_dim)
        if (clip or what == "load") and len(tensor.dims) == 2:   # every dimension's length clamped at zero
            past = past | (col_off >= col_dim)
        self.outside = np.nonzero(np.broadcast_to(past, (lanes,)))[0] if np.any(past) else None
        if self.outside is not None:
            real_rows = np.where(past, 0, real_rows)
            some = some & ~past
        outside = np.broadcast_to(some & ((row_off >= row_dim) | (col_off >= col_dim)), (lanes,))
        if np.any(outside):
            bad = np.nonzero(outside)[0]
            raise OutOfBoundsError(
                f"{what} of tensor '{tensor.name}' (shape [{', '.join(_fmt(d) for d in tensor.dims)}]) at offsets "
                f"[{', '.join(_fmt(gather(x, bad)) for x in offs)}] with tile shape {list(shape)} starts past "
                "the end of the tensor: no element of the window is inside it, so on the hardware this DMA "
                "touches memory outside the tensor",
                "only a tile that starts inside the tensor has its tail clipped: stop the loop at "
                "asc.ceildiv(size, tile) or guard the access with an if", bad)
        if clip:
            real_rows = np.minimum(real_rows, row_dim - row_off)
        beyond = np.broadcast_to((real_rows > 0) & (row_off + real_rows > row_dim), (lanes,))
        if np.any(beyond):
            bad = np.nonzero(beyond)[0]
            raise OutOfBoundsError(
                f"{what} of tensor '{tensor.name}' at offsets [{', '.join(_fmt(gather(x, bad)) for x in offs)}] "
                f"with real_shape [{', '.join(_fmt(gather(x, bad)) for x in real)}] reaches rows beyond the "
                f"tensor's {_fmt(row_dim)} rows", "keep offset + real_shape within the tensor", bad)
        self.row_stride = n
        self.starts = tensor.base + row_off * n + col_off
        self.valid_rows = np.minimum(real_rows, self.rows)
        self.valid_cols = np.clip(np.minimum(rc, col_dim - col_off), 0, self.cols)
        outside_buffer(self, lanes, what, tensor)

    def indices(self, lanes, lo=0, hi=None):
        hi = lanes if hi is None else hi
        n = hi - lo
        starts = _lanes(self.starts, lanes, lo, hi).reshape(n, 1, 1)
        rs = _lanes(self.row_stride, lanes, lo, hi).reshape(n, 1, 1)
        r = np.arange(self.rows).reshape(1, -1, 1)
        c = np.arange(self.cols).reshape(1, 1, -1)
        idx = starts + r * rs + c
        valid = (r < _lanes(self.valid_rows, lanes, lo, hi).reshape(n, 1, 1)) & \
            (c < _lanes(self.valid_cols, lanes, lo, hi).reshape(n, 1, 1))
        return idx, valid

    def valid_count(self, lanes):
        return int(np.sum(np.broadcast_to(self.valid_rows * self.valid_cols, (lanes,))))

    def strided_view(self, data, lanes):
        return None

    def gather_view(self, data, lanes):
        return None

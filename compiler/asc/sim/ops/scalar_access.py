"""Scalar accesses of global memory (``copy_in(t, offsets)`` / ``copy_out(v, t, offsets)``, April's
``load`` / ``store`` of one element): the bounds and race checks of ``memory.py`` and ``gm_store.py``,
element by element, and the August rule for offsets outside the tensor."""
from __future__ import annotations

import numpy as np

from ...ir.kernel_warnings import PastEndWarning
from ..checks import track_gm_access
from ..errors import OutOfBoundsError
from ..lanes import gather
from ..races import NO_WRITER, check_read_race
from ..tile_access import _fmt
from . import impl
from .gm_store import _store_into
from .memory import _access, _disjoint_lanes, _note_unset


def _scalar_outside(what, t, acc, offsets, lanes):
    bad = np.nonzero(np.broadcast_to(acc.valid_cols == 0, (lanes,)))[0]
    offs = ", ".join(_fmt(gather(np.asarray(o), bad)) for o in offsets)
    dims = ", ".join(_fmt(d) for d in t.dims)
    return OutOfBoundsError(f"{what} to tensor '{t.name}' outside the tensor: offsets [{offs}], shape [{dims}]"
                            if what.endswith("store") else
                            f"{what} of tensor '{t.name}' outside the tensor: offsets [{offs}], shape [{dims}]",
                            "scalar accesses are not clipped: keep every offset below the tensor's dimension", bad)


def _outside_lanes(ex, op, t, offsets, what):
    """August scalar accesses outside the tensor (``clip``): the lanes whose offsets lie past a dimension,
    or None. On the device a scalar GM access has no bounds (it reads or writes whatever lies there);
    pyasc-dev's interpreter clips windows to the tensor: here such a read gives 0 and such a write lands
    nowhere, and each is a warning at the user's line."""
    if not op.attrs.get("clip"):
        return None
    L = ex.lanes
    out = np.zeros(L, bool)
    for o, d in zip(offsets, t.dims):
        out |= np.broadcast_to(np.asarray(o) >= d, (L,))
    if not out.any():
        return None
    bad = np.nonzero(out)[0]
    blocks = np.broadcast_to(ex.blocks, (L,))
    lane_offs = [np.broadcast_to(np.asarray(o), (L,)) for o in offsets]
    where = "; ".join(f"[{', '.join(str(int(o[l])) for o in lane_offs)}] in block {int(blocks[l])}" for l in bad[:3])
    where += f"; and {bad.size - 3} more" if bad.size > 3 else ""
    dims = ", ".join(_fmt(d) for d in t.dims)
    effect = ("reads 0 here (on the device: whatever lies past the tensor)" if what == "load" else
              "writes nothing here (on the device it writes past the tensor's end)")
    ex.warn(op, f"past-the-end scalar {what} of tensor '{t.name}' (shape [{dims}]) at offsets {where}: it lies "
            f"outside the tensor and {effect}; guard the access with `if i < size:` or stop the loop at the "
            "tensor's size", PastEndWarning)
    return out


def _on_lanes(ex, sel, run):
    """``run()`` with the executor's lanes narrowed to ``sel`` (an August scalar access's lanes inside)."""
    saved, counts = ex.blocks, ex._counts
    ex._set_lanes(saved[sel])
    try:
        return run()
    finally:
        ex._set_lanes(saved, counts)


@impl("tensor.get_value")
def _exec_get_value(ex, op, t, *offsets):
    outside = _outside_lanes(ex, op, t, offsets, "load")
    if outside is None:
        return _get_value(ex, op, t, offsets)
    sel = np.nonzero(~outside)[0]
    out = np.zeros(ex.lanes, dtype=t.buffer.data.dtype)
    if sel.size:
        out[sel] = _on_lanes(ex, sel, lambda: _get_value(ex, op, t, [gather(np.asarray(o), sel) for o in offsets]))
    return out


def _get_value(ex, op, t, offsets):
    L = ex.lanes
    acc = _access(t, offsets, (1,) * len(t.dims), L, "scalar load")
    if not acc.full and not getattr(acc, "all_inside", False):
        raise _scalar_outside("scalar load", t, acc, offsets, L)
    starts = np.broadcast_to(acc.starts, (L,))
    buf = t.buffer
    if ex.checks and not buf.read_only:
        if ex.trackers:
            track_gm_access(ex, op, buf, acc, L, load=True, disjoint=_disjoint_lanes(acc, L))
        buf.note_read(acc, L, ex.blocks)
        if buf.has_writes():
            tags = buf.writer_tags()[starts]
            check_read_race(buf, tags, ex.blocks, "scalar load")
            _note_unset(ex, op, buf, int(np.count_nonzero(tags == NO_WRITER)))
        else:
            _note_unset(ex, op, buf, L)
    out = buf.data[starts]
    return out if not np.all(starts == starts[0]) else out[:1]


@impl("tensor.set_value", stores=True)
def _exec_set_value(ex, op, t, *rest):
    offsets, value = rest[:-1], rest[-1]
    outside = _outside_lanes(ex, op, t, offsets, "store")
    if outside is None:
        return _set_value(ex, op, t, offsets, value)
    sel = np.nonzero(~outside)[0]
    if sel.size:
        _on_lanes(ex, sel, lambda: _set_value(ex, op, t, [gather(np.asarray(o), sel) for o in offsets],
                                              gather(np.asarray(value), sel)))


def _set_value(ex, op, t, offsets, value):
    L = ex.lanes
    acc = _access(t, offsets, (1,) * len(t.dims), L, "scalar store")
    if not acc.full and not getattr(acc, "all_inside", False):
        raise _scalar_outside("scalar store", t, acc, offsets, L)
    vals = np.broadcast_to(np.asarray(value).reshape(-1), (L,)).reshape(L, 1, 1)
    acc.full = False  # resolve lane by lane (general path)
    if ex.checks:
        t.buffer.narrow.append((op, np.broadcast_to(acc.starts, (L,)).copy(), ex.blocks.copy()))
    _store_into(ex, t.buffer, acc, vals.astype(t.buffer.data.dtype), "scalar store", op=op)

"""On-chip copies between tiles (``copy``): a window of the source, cast for its destination; an August
window past its source is clipped and its tail undefined."""
from __future__ import annotations

import numpy as np

from ..errors import OutOfBoundsError
from ..lanes import Shared, windows_of
from ..undefined import poison, wrap
from . import impl


@impl("tile.copy", shared_operands=True, undefined="map")
def _exec_copy(ex, op, tile, *offsets):
    shape = op.results[0].type.shape
    if op.attrs.get("clip") and _copy_leaves_source(tile, offsets, shape):
        return _clipped_copy(op, np.asarray(tile), offsets, shape)
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


def _copy_leaves_source(tile, offsets, shape):
    src = np.shape(tile)[1:]
    return any(np.any(np.asarray(o) + n > d) for o, n, d in zip(offsets, shape, src))


def _clipped_copy(op, tile, offsets, shape):
    """An August ``copy`` whose window runs past its source tile: clipped per dimension, as pyasc-dev's
    interpreter clips it; the elements past the source are undefined (``sim.undefined``)."""
    lanes = max([tile.shape[0]] + [np.shape(o)[0] for o in offsets if np.ndim(o)])
    src = np.broadcast_to(tile, (lanes,) + tile.shape[1:])
    res = np.full((lanes,) + shape, poison(tile.dtype), dtype=tile.dtype)
    undefined = np.ones((lanes,) + shape, bool)
    for l in range(lanes):
        offs = [int(np.broadcast_to(o, (lanes,))[l]) for o in offsets]
        counts = [max(0, min(n, d - o)) for o, n, d in zip(offs, shape, tile.shape[1:])]
        head = (l,) + tuple(slice(0, c) for c in counts)
        res[head] = src[(l,) + tuple(slice(o, o + c) for o, c in zip(offs, counts))]
        undefined[head] = False
    return wrap(cast_for_location(res, op), undefined, op)


def cast_for_location(a, op):
    return a.astype(op.results[0].type.dtype.to_numpy(), copy=False)

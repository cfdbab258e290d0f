"""The lanes of a batched loop: every trip of every lane as one batch of lanes.

``batch_lanes`` lays out a batched loop's lanes (parent lane, trip, induction value, block per lane), trip by
trip for grid-stride loops (``_interleaved``) so the lanes' windows follow each other in memory; for the
launch's blocks in natural order (``natural_blocks``, known by identity) the arrays are the same for every
launch of one shape and are kept, read-only, for a few shapes.
"""
from __future__ import annotations

import numpy as np

from .lanes import per_lane


_NATURAL = {}


def natural_blocks(core_num):
    """The block ids 0 .. core_num - 1 in order, one read-only array per count (the launch's lanes before any
    loop; ``batch_lanes`` knows them by identity)."""
    a = _NATURAL.get(core_num)
    if a is None:
        if len(_NATURAL) >= 64:
            _NATURAL.clear()
        a = _NATURAL[core_num] = np.arange(core_num, dtype=np.int64)
        a.flags.writeable = False
    return a


_BATCHES = {}   # (lanes, trips, starts, step) -> a batched loop's lane arrays, for the natural block order
_BATCHES_MAX, _BATCH_MAX_LANES = 16, 1 << 14   # (at most 16 x 16K lanes x 28 bytes are kept: 7 MB)


def batch_lanes(lanes, trips, lb, step, blocks):
    """The lanes of a batched loop: (parent lane, trip, induction value (int32), block) per lane of the
    batch and the most trips of a lane; None when no lane runs a trip. ``trips``, ``lb``: per lane (or one
    for all), ``step``. The same for every launch of one shape, so for the lanes of a launch's blocks in
    natural order they are made once (read-only, as every lane value is), for a few shapes of up to 16K
    lanes."""
    total = int(trips[0]) * lanes if lanes and trips.strides[0] == 0 else int(trips.sum())
    if total == 0:
        return None
    key = None
    if total <= _BATCH_MAX_LANES and blocks is natural_blocks(lanes):
        key = (lanes, int(trips[0]) if trips.strides[0] == 0 else trips.tobytes(),
               int(lb) if lb.ndim == 0 else lb.tobytes(), int(step) if step.ndim == 0 else step.tobytes())
        hit = _BATCHES.get(key)
        if hit is not None:
            return hit
    out = _batch_lanes(lanes, total, trips, lb, step, blocks)
    if key is not None:
        for a in out[:4]:
            a.flags.writeable = False
        if len(_BATCHES) >= _BATCHES_MAX:
            _BATCHES.clear()
        _BATCHES[key] = out
    return out


def _batch_lanes(L, total, trips, lb, step, blocks):
    if _interleaved(lb, step, trips):
        # Lanes that start a stride apart (a grid-stride loop: range(block_idx, n, block_num)): the
        # batch goes trip by trip, so the induction values ascend and the lanes' windows follow each
        # other in memory (views instead of gathers). Each lane's own trips stay in order.
        if trips.min() == trips.max():
            local, parent = np.divmod(np.arange(int(trips[0]) * L), L)   # trip by trip, lanes in turn
        else:
            local = np.arange(int(trips.max())).repeat(L).reshape(-1, L)
            parent = np.broadcast_to(np.arange(L), local.shape)
            keep = local < trips
            parent, local = parent[keep], local[keep]
    elif trips.strides[0] == 0:   # one trip count broadcast to every lane (a uniform loop)
        t = int(trips[0])
        parent, local = np.divmod(np.arange(L * t), t)   # (np.repeat / np.tile of the aranges)
    else:
        parent = np.repeat(np.arange(L), trips)
        first = np.repeat(np.cumsum(trips) - trips, trips)
        local = np.arange(total) - first
    if lb.ndim == 0 and step.ndim == 0:
        iv = (local * int(step) + int(lb)).astype(np.int32)
    else:
        iv = (per_lane(lb, L)[parent] + local * per_lane(step, L)[parent]).astype(np.int32)
    return parent, local, iv, blocks[parent], int(trips.max())


def _interleaved(lb, step, trips):
    """Whether the lanes' loops start within one step of each other with a common positive step (a
    grid-stride loop), so that taking the trips in turn orders the induction values."""
    if lb.ndim == 0 or lb.shape[0] < 2 or np.ndim(step) != 0:
        return False
    st = int(step)
    lo, hi = int(np.minimum.reduce(lb)), int(np.maximum.reduce(lb))
    return st > 0 and lo != hi and hi - lo < st and bool(np.logical_and.reduce(lb[1:] > lb[:-1]))

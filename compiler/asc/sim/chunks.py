"""The general (indexed) path of loads and stores, a bounded number of elements at a time.

A batched access whose windows are not plain strided views (a clipped tail tile, ``real_shape``, rank-3+
windows, scalar accesses, atomics) works element by element: an int64 index and a mask per element, plus
the race records it reads. Made for every lane at once, those temporaries are several times the data the
access moves (a 32M-element add with one clipped tail tile peaked at 7.7x its GM bytes). Here the lanes
are taken in chunks of about ``CHUNK_ELEMS`` elements, so the temporaries stay a fixed size whatever the
launch; the result and every check are the same, the chunks running in lane order.
"""
from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np

from .errors import SimError

CHUNK_ELEMS = 1 << 20


def lane_chunks(lanes, per_lane):
    """``(lo, hi)`` lane ranges of about ``CHUNK_ELEMS`` elements each (at least one lane), in order."""
    step = max(1, CHUNK_ELEMS // max(1, per_lane))
    return [(lo, min(lanes, lo + step)) for lo in range(0, lanes, step)]


def lane_part(v, lanes, lo, hi):
    """Lanes ``lo:hi`` of a per-lane value (one shared by every lane, a scalar or leading 1, stays as is)."""
    if np.ndim(v) == 0 or np.shape(v)[0] == 1:
        return v
    return np.broadcast_to(v, (lanes,) + np.shape(v)[1:])[lo:hi]


@contextmanager
def lanes_from(lo):
    """A fault raised for lanes of a chunk names them as lanes of the whole access."""
    try:
        yield
    except SimError as e:
        if lo and e.blocks is not None:
            e.blocks = np.asarray(e.blocks) + lo
        raise


def gather_windows(data, windows, lanes, fill, undefined, each=None):
    """The (lanes, rows, cols) elements of ``windows`` (``indices(lanes, lo, hi)``) read from ``data``,
    ``fill`` (per lane or shared) where a window is outside the tensor; and, when ``undefined``, the mask of
    those elements (None when there are none). ``each(lo, hi, idx, valid, safe)`` runs per chunk (checks)."""
    out = np.empty((lanes, windows.rows, windows.cols), dtype=data.dtype)
    mask = fault = None
    for lo, hi in lane_chunks(lanes, windows.rows * windows.cols):
        idx, valid = windows.indices(lanes, lo, hi)
        safe = np.where(valid, idx, 0)
        out[lo:hi] = np.where(valid, data[safe], lane_part(fill, lanes, lo, hi))
        if each is not None:
            try:
                with lanes_from(lo):
                    each(lo, hi, idx, valid, safe)
            except SimError as e:   # the first fault, naming the faulty lanes of every chunk
                if fault is None or fault.blocks is None or e.blocks is None:
                    fault = fault or e
                else:
                    fault.blocks = np.concatenate([np.asarray(fault.blocks), np.asarray(e.blocks)])
        if undefined and not valid.all():
            if mask is None:
                mask = np.zeros(out.shape, dtype=bool)
            mask[lo:hi] = ~valid
    if fault is not None:
        raise fault
    return out, mask


def scatter_windows(data, windows, lanes, vals):
    """Write the (lanes, rows, cols) ``vals`` into the elements of ``windows`` inside the tensor (lanes in
    order: where windows of one block share elements, the last lane wins, as in program order)."""
    for lo, hi in lane_chunks(lanes, windows.rows * windows.cols):
        idx, valid = windows.indices(lanes, lo, hi)
        data[idx[valid]] = np.broadcast_to(lane_part(vals, lanes, lo, hi), idx.shape)[valid]


def window_parts(windows, lanes, mask):
    """Per chunk of lanes ``(lo, inside, elems)``: which elements of ``mask`` (lanes, rows, cols; or shared)
    fall inside the windows, and the buffer element each window element is."""
    for lo, hi in lane_chunks(lanes, windows.rows * windows.cols):
        idx, valid = windows.indices(lanes, lo, hi)
        yield lo, valid & np.broadcast_to(lane_part(mask, lanes, lo, hi), valid.shape), np.broadcast_to(idx, valid.shape)


def detached(acc):
    """The window geometry of an access without its tensor (a recorded launch keeps this, not the
    caller's buffer)."""
    w = object.__new__(type(acc))
    w.__dict__.update(acc.__dict__)
    w.tensor = None
    return w

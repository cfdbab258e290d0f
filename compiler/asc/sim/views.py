"""Strided views of a launch's 1-d buffers (data, writer tags, reader spans), and broadcasts of lane values.

``numpy.lib.stride_tricks.as_strided`` builds each view through a Python wrapper object and the array
interface, ~10 us; a launch takes several per access. The ndarray constructor over the buffer gives the
same view in well under a microsecond and also checks that the view stays inside the buffer. So does
``broadcast`` for ``np.broadcast_to`` (a few microseconds through its iterator), which a launch calls for
each value spread over its lanes.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided


def strided(arr, start, shape, strides):
    """The view of the 1-d array ``arr`` starting at element ``start`` with ``shape`` and byte
    ``strides`` (writeable when ``arr`` is)."""
    try:
        return np.ndarray(shape, arr.dtype, arr, start * arr.itemsize, strides)
    except (TypeError, ValueError):   # not a contiguous buffer, or a view numpy's check rejects
        return as_strided(arr[start:], shape=shape, strides=strides)



def broadcast(arr, shape):
    """``np.broadcast_to(arr, shape)``: a read-only view of the ndarray ``arr`` (numpy's own call, and its
    error, wherever the constructor cannot take ``arr``'s memory as it is)."""
    pad = len(shape) - arr.ndim
    if pad < 0:
        return np.broadcast_to(arr, shape)
    strides = [0] * pad
    for m, st, n in zip(arr.shape, arr.strides, shape[pad:]):
        if m == n:
            strides.append(st)
        elif m == 1:
            strides.append(0)
        else:
            return np.broadcast_to(arr, shape)
    try:
        out = np.ndarray(shape, arr.dtype, arr, 0, tuple(strides))
    except (TypeError, ValueError):   # not one contiguous buffer (a strided or reversed view), or empty
        return np.broadcast_to(arr, shape)
    out.flags.writeable = False
    return out

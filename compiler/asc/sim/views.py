"""Strided views of a launch's 1-d buffers (data, writer tags, reader spans).

``numpy.lib.stride_tricks.as_strided`` builds each view through a Python wrapper object and the array
interface, ~10 us; a launch takes several per access. The ndarray constructor over the buffer gives the
same view in well under a microsecond and also checks that the view stays inside the buffer.
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


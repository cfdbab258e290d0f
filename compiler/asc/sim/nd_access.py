"""Windows of tensors of rank 3 and more (the August front end's ``copy_in`` / ``copy_out`` of any rank).

A rank-N window is handled as (rows x cols) like the 1-D / 2-D ``memory.Access``: its rows are the
prod(shape[:-1]) innermost lines, its columns the last dimension. Rows are not evenly strided, so these
accesses always take the general (indexed) path of the load / store / atomic ops. Only August kernels
have such windows, and they are clamped to the tensor in every dimension as pyasc-dev's interpreter
clamps them: what is outside is padding on a load and not written on a store.
"""
from __future__ import annotations

from functools import reduce
from math import prod

import numpy as np

from .tile_access import negative_offsets, outside_buffer, real_shape_too_large


class NdAccess:
    full = False
    nd = True

    def __init__(self, tensor, offsets, shape, real, lanes, what):
        self.tensor = tensor
        self.shape = tuple(shape)
        rank = len(tensor.dims)
        dims = [np.asarray(d, dtype=np.int64) for d in tensor.dims]
        offs = [np.asarray(o, dtype=np.int64) for o in offsets]
        self.rows, self.cols = prod(self.shape[:-1]), self.shape[-1]
        if any(np.any(o < 0) for o in offs):
            raise negative_offsets(what, tensor, offs)
        strides = [prod(dims[j + 1:], start=np.int64(1)) for j in range(rank)]
        limits = [np.minimum(s, np.maximum(d - o, 0)) for s, d, o in zip(self.shape, dims, offs)]
        if real is not None:
            reals = [np.asarray(r, dtype=np.int64) for r in real]
            over = np.broadcast_to(reduce(np.logical_or, [r > s for r, s in zip(reals, self.shape)]), (lanes,))
            if np.any(over):
                raise real_shape_too_large(what, tensor, reals, shape, np.nonzero(over)[0])
            limits = [np.minimum(lim, np.maximum(r, 0)) for lim, r in zip(limits, reals)]
        start = tensor.base + sum(o * s for o, s in zip(offs, strides))
        # A window with nothing inside the tensor touches nothing (every dimension's length clamped at zero).
        past = np.broadcast_to(reduce(np.logical_or, [o >= d for o, d in zip(offs, dims)]), (lanes,))
        self.outside = np.nonzero(past)[0] if np.any(past) else None
        # Per lane and dimension, the multi-index of each row; the linear index of every element.
        grids = np.indices(self.shape[:-1]).reshape(rank - 1, -1)   # (rank >= 3 here)
        row_start = np.broadcast_to(start, (lanes,)).reshape(lanes, 1) + sum(
            grids[j].reshape(1, -1) * np.broadcast_to(strides[j], (lanes,)).reshape(lanes, 1) for j in range(rank - 1))
        row_ok = ~past.reshape(lanes, 1)
        for j in range(rank - 1):
            row_ok = row_ok & (grids[j].reshape(1, -1) < np.broadcast_to(limits[j], (lanes,)).reshape(lanes, 1))
        last = np.broadcast_to(limits[-1], (lanes,)).reshape(lanes, 1)
        self.row_starts = row_start
        self.row_cols = np.where(row_ok, last, 0)
        outside_buffer(self, lanes, what, tensor)
        self.starts = row_start[:, 0]
        self.valid_cols = self.row_cols.min(axis=1)
        self.all_inside = bool(np.all(self.row_cols == self.cols))

    def indices(self, lanes, lo=0, hi=None):
        hi = lanes if hi is None else hi
        c = np.arange(self.cols).reshape(1, 1, -1)
        idx = self.row_starts.reshape(lanes, self.rows, 1)[lo:hi] + c
        valid = c < self.row_cols.reshape(lanes, self.rows, 1)[lo:hi]
        return idx, valid

    def valid_count(self, lanes):
        return int(self.row_cols.sum())

    def cover_entry(self, off):
        """The rows written, for the launch's coverage check (``sim.checks.coverage_warnings``)."""
        return off, self.row_starts.reshape(-1).copy(), 1, 1, self.row_cols.reshape(-1).copy(), None

    def strided_view(self, data, lanes):
        return None

    def gather_view(self, data, lanes):
        return None

"""Batched runtime values.

The executor runs every op once for a whole batch of *lanes* (block x parallel-iteration instances).
A scalar is a 0-d array (the same in every lane) or a 1-d array with one entry per lane; a tile is an
array of shape ``(1, *tile_shape)`` (the same in every lane) or ``(lanes, *tile_shape)``.
"""
from __future__ import annotations

import numpy as np


def is_uniform(v) -> bool:
    return v.ndim == 0 or v.shape[0] == 1


def scalar_for_tile(s, rank: int):
    """Reshape a lane scalar so it broadcasts against ``(lanes, *tile_shape)``."""
    s = np.asarray(s)
    if s.ndim == 0:
        return s
    return s.reshape((s.shape[0],) + (1,) * rank)


def gather(v, idx):
    """Select lanes ``idx`` of a batched value (uniform values are shared)."""
    if isinstance(v, np.ndarray):
        if v.ndim == 0 or v.shape[0] == 1:
            return v
        return v[idx]
    if hasattr(v, "gather"):
        return v.gather(idx)
    return v


def per_lane(v, lanes: int, tail=()):
    """``v`` as an array of shape ``(lanes, *tail)`` (a view when it is uniform)."""
    v = np.asarray(v)
    shape = (lanes,) + tuple(tail)
    return v if v.shape == shape else np.broadcast_to(v, shape)


def lane_count(v) -> int:
    return 1 if (v.ndim == 0) else v.shape[0]

"""Cost helpers shared by op definitions (ticks per executed instance, from the platform table)."""
from __future__ import annotations

import math

from ...ir.types import TileType


def _bytes(op):
    best = 0
    for v in list(op.results) + list(op.operands):
        if isinstance(v.type, TileType):
            best = max(best, v.type.nbytes)
    return best


def vector_cost(weight=1.0):
    """A vector API call: weight * (issue latency + one tick per 256-byte repeat)."""
    def cost(op, hw):
        repeats = max(1, math.ceil(_bytes(op) / hw.vector_bytes))
        return ("V", weight * (hw.vector_issue + repeats * hw.vector_repeat))
    return cost

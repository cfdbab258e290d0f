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


def vector_cost(kind=None):
    """A vector API call: weight * (issue latency + one tick per 256-byte repeat), the weight of ``kind``
    (a name, or a function of the op giving one) from the platform table (1: a simple call)."""
    def cost(op, hw):
        repeats = max(1, math.ceil(_bytes(op) / hw.vector_bytes))
        w = hw.vector_weight(kind(op) if callable(kind) else kind)
        return ("V", w * (hw.vector_issue + repeats * hw.vector_repeat))
    return cost

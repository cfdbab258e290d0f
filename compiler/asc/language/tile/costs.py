"""Cost helpers shared by op definitions (ticks per executed instance, from the platform table)."""
from __future__ import annotations

import math

from ...ir.types import TileType, dma_runs


def _bytes(op):
    best = 0
    for v in list(op.results) + list(op.operands):
        if isinstance(v.type, TileType):
            best = max(best, v.type.nbytes)
    return best


def vector_cost(kind=None):
    """A vector API call over the op's largest tile: ``Hardware.vector_busy`` with the weight of ``kind``
    (a name, or a function of the op giving one). Where the platform fuses adjacent vector calls into one
    vector function (C310), the schedule drops the issue overhead of every call but the first of a run."""
    def cost(op, hw):
        repeats = math.ceil(_bytes(op) / hw.vector_bytes)
        return ("V", hw.vector_busy(repeats, kind(op) if callable(kind) else kind))
    return cost


def reduce_cost(op, hw):
    """A reduction: ``reduce`` weight passes over the data (one tick per 256-byte repeat each), then a
    tree over the lanes of one repeat (log2(lanes) dependent steps of the op latency)."""
    t = op.operands[0].type
    repeats = max(1, math.ceil(t.nbytes / hw.vector_bytes))
    lanes = max(2, hw.vector_bytes // max(1, t.dtype.sizeof()))
    return ("V", hw.vector_issue + hw.vector_op * (1 + math.log2(lanes))
            + hw.vector_weight("reduce") * repeats * hw.vector_repeat)


def dma_ticks(hw, tile, gm=None, store=False, runs=None):
    """Engine occupancy of one DMA between global memory and a tile: the engine's setup, plus whole bursts
    (``dma_burst`` bytes, the memory system's access granularity) of each contiguous run at the engine's
    rate; a store that covers part of a burst first reads it back (read-modify-write, ``store_partial``).
    One strided DMA instruction moves every row of a window; ``runs`` counts separate DMAs (one per index
    of a gather or scatter), each with its own setup."""
    n, each = dma_runs(tile, gm) if runs is None else (runs, tile.nbytes // max(1, runs))
    return hw.dma_busy(n, max(1, each), store, 1 if runs is None else runs)

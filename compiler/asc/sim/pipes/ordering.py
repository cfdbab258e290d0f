"""The pipe-level race detector of one block.

Every instruction gets the block's next op index; ``seen[P][Q]`` is the latest op of pipe Q whose effects pipe
P has observed (vector clocks over op indices, which grow along each pipe). Flags carry the setter's view
to the waiter, ``pipe_barrier(PIPE_ALL)`` shares every view, the queue protocol is flags. Each memory
granule (32 bytes) remembers the latest op of each pipe that wrote and read it; an access by pipe P
conflicts with an earlier access by pipe Q (one of them a write) that P has not observed.
"""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import GRANULE, QUEUE_PIPES
from ...ir.registry import PIPES

NPIPES = len(PIPES)


_MAX_RANGES = 32     # past this many ranges a lookup loops longer than the array's one reduction takes


class Tracker:
    """Latest writer / reader op per pipe of each granule of one on-chip memory.

    Kept as granule ranges, ``[(first granule, end, kind, pipe, op)]`` (kind 0: write, 1: read), while every
    access is contiguous: an access replaces what the ranges of its pipe and kind said of its granules (the
    last access recorded wins, as in the array: an op held behind a wait records after later ones), so the
    ranges of one pipe and kind never overlap, a block's few buffers keep the list short and a lookup is a
    short loop. The first strided access (explicit granules) turns it into the array ``wr[kind, pipe,
    granule]`` (one reduction gives both kinds); either form answers every lookup alike."""

    def __init__(self, nbytes):
        self.g = -(-nbytes // GRANULE)
        self.ranges = []
        self.wr = None

    def _array(self):
        wr = self.wr = np.full((2, NPIPES, self.g), -1, dtype=np.int64)
        for lo, hi, kind, p, n in self.ranges:      # disjoint per pipe and kind
            wr[kind, p, lo:hi] = n
        self.ranges = None
        return wr

    @staticmethod
    def where(region):
        if region.granules is not None:
            return region.granules
        return slice(region.lo // GRANULE, -(-region.hi // GRANULE))

    def latest(self, region, write):
        """(latest writes, latest reads or None) per pipe over the region's granules, as lists (the checks
        compare a handful of pipes: Python beats numpy's per-call cost there)."""
        if self.wr is None and region.granules is None:
            glo, ghi = region.lo // GRANULE, -(-region.hi // GRANULE)
            lw, lr = [-1] * NPIPES, [-1] * NPIPES
            for lo, hi, kind, p, n in (self.ranges if glo < ghi else ()):
                if lo < ghi and glo < hi:
                    out = lr if kind else lw
                    if n > out[p]:
                        out[p] = n
            return lw, (lr if write else None)
        wr = self.wr if self.wr is not None else self._array()
        sel = wr[:, :, self.where(region)]
        if not sel.shape[2]:
            return [-1] * NPIPES, ([-1] * NPIPES if write else None)
        lw, lr = sel.max(axis=2).tolist()
        return lw, (lr if write else None)

    def record(self, region, pipe, n, write):
        kind = 0 if write else 1
        if self.wr is None and region.granules is None:
            glo, ghi = region.lo // GRANULE, -(-region.hi // GRANULE)
            if glo < ghi:
                kept = []
                for x in self.ranges:
                    lo, hi, k, p, m = x
                    if k != kind or p != pipe or hi <= glo or ghi <= lo:
                        kept.append(x)
                        continue
                    if lo < glo:                # what this access leaves of an earlier range
                        kept.append((lo, glo, k, p, m))
                    if ghi < hi:
                        kept.append((ghi, hi, k, p, m))
                kept.append((glo, ghi, kind, pipe, n))
                self.ranges = kept
                if len(kept) > _MAX_RANGES:     # many scattered accesses (the rows of a strided copy): the array
                    self._array()
            return
        wr = self.wr if self.wr is not None else self._array()
        wr[kind, pipe, self.where(region)] = n


class GmTracker:
    """GM accesses of one block as intervals (a block touches GM with few, large copies), looked up per
    argument."""

    def __init__(self):
        self.items = []   # (buf, lo, hi, pipe, op index, write)
        self.by_buf = {}  # buf -> its items' (lo, hi, pipe, op index, write)

    def latest(self, region, write):
        lw = [-1] * NPIPES
        lr = [-1] * NPIPES if write else None
        rlo, rhi = region.lo, region.hi
        for lo, hi, p, n, w in self.by_buf.get(region.buf, ()):
            if lo < rhi and rlo < hi:
                if w:
                    if n > lw[p]:
                        lw[p] = n
                elif write and n > lr[p]:
                    lr[p] = n
        return lw, lr

    def record(self, region, pipe, n, write):
        self.items.append((region.buf, region.lo, region.hi, pipe, n, write))
        self.by_buf.setdefault(region.buf, []).append((region.lo, region.hi, pipe, n, write))


def conflicts(seen_row, pipe, lw, lr):
    """[(kind, other pipe, other op)] the access by ``pipe`` has with unobserved earlier accesses (``seen_row``,
    ``lw``, ``lr``: lists, ``Tracker.latest``)."""
    seen = seen_row
    out = []
    for q in range(NPIPES):
        if q == pipe:
            continue
        if lw[q] > seen[q]:
            out.append(("RAW" if lr is None else "WAW", q, lw[q]))
        if lr is not None and lr[q] > seen[q]:
            out.append(("WAR", q, lr[q]))
    return out


_KINDS = {"RAW": "read-after-write", "WAR": "write-after-read", "WAW": "write-after-write"}
_EVENTS = ("MTE2_MTE1 MTE1_MTE2 MTE1_M M_MTE1 MTE2_V V_MTE2 MTE3_V V_MTE3 M_V V_M V_V MTE3_MTE1 MTE1_MTE3 MTE1_V "
           "MTE2_M M_MTE2 V_MTE1 M_FIX FIX_M MTE3_MTE2 MTE2_MTE3 S_V V_S S_MTE2 MTE2_S S_MTE3 MTE3_S MTE2_FIX "
           "FIX_MTE2 FIX_S M_S FIX_MTE3 MTE1_FIX FIX_MTE1 FIX_FIX").split()


def race_message(kind, region, first, second):
    """The report of a race between op ``first`` (earlier) and op ``second`` (a later op of another pipe):
    (message, hint). ``first`` / ``second`` are (name, pipe, file, line)."""
    n1, p1, f1, l1 = first
    n2, p2, f2, l2 = second
    if region.space == "GM":
        what = f"GM '{region.buf}' bytes [{region.lo}, {region.hi})"
    else:
        what = f"{region.space} ({region.position}, {region.owner}) bytes [{region.lo}, {region.hi})"
    verb1 = "writes" if kind in ("RAW", "WAW") else "reads"
    verb2 = "reads" if kind == "RAW" else "writes"
    msg = (f"{_KINDS[kind]} race on {what} between pipes {p1} and {p2}: {n2} on {p2} (line {l2}) {verb2} what "
           f"{n1} on {p1} (line {l1}) {verb1}, and no flag, barrier or queue operation orders them")
    event = f"{p1}_{p2}"
    if n1 == "get_tensor_c" and kind == "RAW":
        hint = (f"get_tensor_c(..., sync=False) at line {l1} returns before the block is delivered: call it with "
                "sync=True (the default) before an instruction reads the block")
    elif "TQue(" in region.owner and region.space != "GM" and \
            set(QUEUE_PIPES.get(region.position, ())) == {p1, p2}:     # the queue's own pipes
        call = ("enque after line %d and deque before line %d" if kind == "RAW" else
                "free_tensor after line %d and alloc_tensor (of the next use) before line %d") % (l1, l2)
        hint = f"the queue protocol is broken: {call} order the two pipes"
    elif event in _EVENTS:
        hint = (f"add asc.set_flag(asc.HardEvent.{event}, id) after line {l1} and "
                f"asc.wait_flag(asc.HardEvent.{event}, id) before line {l2}")
    else:
        hint = f"add asc.pipe_barrier(asc.PipeID.PIPE_ALL) between line {l1} and line {l2}"
    return msg, hint

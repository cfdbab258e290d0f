"""Which bytes of one on-chip memory a block's instructions wrote (initcheck: reading the others is a warning).

A block writes its few buffers whole, so the written bytes are kept as sorted, disjoint ranges while every
write is contiguous: no per-launch array of the memory's size to allocate and fill. The first strided or
masked write (or more than 32 ranges) turns them into the byte array; either form answers alike."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import GRANULE

_MAX_RANGES = 32
_NONE = np.zeros(0, dtype=np.int64)


class WrittenBytes:
    def __init__(self, nbytes):
        self.nbytes = nbytes
        self.ranges = []     # [(lo, hi)] sorted, disjoint and not touching
        self.bits = None     # the byte array, once needed

    def mark(self, r):
        """Region ``r`` was written (a mask form: its active lanes' bytes; a strided form: whole 32-byte
        blocks)."""
        if r.exact is not None:
            self.array()[r.exact] = True
        elif r.granules is not None:
            self.array().reshape(-1, GRANULE)[r.granules] = True
        else:
            self.add(r.lo, r.hi)

    def unwritten(self, r):
        """The addresses of the bytes region ``r`` reads that nothing marked (empty: all were written)."""
        if r.exact is None and r.granules is None:
            if self.covers(r.lo, r.hi):
                return _NONE
            return r.lo + np.flatnonzero(~self.array()[r.lo:r.hi])
        d = self.array()
        if r.exact is not None:
            return r.exact[np.flatnonzero(~d[r.exact])]
        holes = np.flatnonzero(~d.reshape(-1, GRANULE)[r.granules].reshape(-1))
        return np.asarray(r.granules)[holes // GRANULE] * GRANULE + holes % GRANULE

    def add(self, lo, hi):
        """Bytes [lo, hi) were written."""
        if self.bits is not None:
            self.bits[lo:hi] = True
            return
        if hi <= lo:
            return
        out, placed = [], False
        for a, b in self.ranges:
            if b < lo:
                out.append((a, b))
            elif hi < a:
                if not placed:
                    out.append((lo, hi))
                    placed = True
                out.append((a, b))
            else:                      # meets or touches the new range: one range
                lo, hi = min(a, lo), max(b, hi)
        if not placed:
            out.append((lo, hi))
        self.ranges = out
        if len(out) > _MAX_RANGES:
            self.array()

    def covers(self, lo, hi):
        """Whether every byte of [lo, hi) was written."""
        if hi <= lo:
            return True
        if self.bits is not None:
            return bool(self.bits[lo:hi].all())
        return any(a <= lo and hi <= b for a, b in self.ranges)

    def array(self):
        """The written bytes as a bool array (kept from now on)."""
        if self.bits is None:
            bits = self.bits = np.zeros(self.nbytes, dtype=bool)
            for a, b in self.ranges:
                bits[a:b] = True
            self.ranges = None
        return self.bits

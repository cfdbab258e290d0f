"""Global memory across the blocks of a v1 launch: the tile engine's per-element access logs
(``sim.memory.Buffer``: writer tags, reader spans) and its cross-block race checks (``sim.races``), applied
to each instruction's GM bytes as the blocks run.

Blocks run one after another, so an access of block b meets the complete record of blocks 0..b-1 and the
earlier accesses of b itself, which is what the tile engine sees of concurrent lanes. One difference, as
pyasc's own tests require: blocks writing the same GM elements with identical values are allowed (the
values are compared once the write has happened: ``check_values``)."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import GRANULE
from .. import races
from ..checks import coverage_warnings
from ..memory import Buffer


class GmRaces:
    def __init__(self, gm):
        self.gm = gm
        self.buffers = {}
        self.pending = []     # (buffer, element index, other block's values, its tag, op name, op): compared once written
        self.sites = {}       # GM argument -> [(lo, hi, block, write, line)] of the launch's accesses
        self.read_before = set()  # arguments read before a barrier (sync_all)
        self.apart = False        # set when no two blocks can touch the same GM bytes: log for coverage only

    def _buffer(self, name):
        b = self.buffers.get(name)
        if b is None:
            b = self.buffers[name] = Buffer(name, self.gm[name])   # GM views are 1-d
        return b

    @staticmethod
    def elements(region, itemsize):
        """The elements of a GM region: a slice, or (strided forms) the indices inside its granules."""
        lo, hi = region.lo // itemsize, -(-region.hi // itemsize)
        if region.granules is None:
            return slice(lo, hi)
        g = np.asarray(region.granules, dtype=np.int64)
        idx = ((g[:, None] * GRANULE + np.arange(0, GRANULE, itemsize)[None, :]) // itemsize).reshape(-1)
        return idx[(idx >= lo) & (idx < hi)]

    def _site(self, buf, region, block, write, line):
        """Remember who touched which bytes (named in a race report)."""
        self.sites.setdefault(buf, []).append((region.lo, region.hi, block, write, line))

    def _other(self, buf, region, block, write):
        """The line of another block's access meeting ``region`` (a write, or a read), for the report."""
        for lo, hi, b, w, line in self.sites.get(buf, ()):
            if b != block and w == write and lo < region.hi and region.lo < hi:
                return f"block {b}'s {'write' if w else 'read'} at line {line}"
        return None

    def read(self, region, block, what, line=None):
        """Block ``block`` reads ``region``: a race if another block wrote any of it in this launch."""
        buf = self._buffer(region.buf)
        if self.apart:
            if not buf.log.read_marks:
                buf.log.read_marks.append((0, _no_mark))     # read: coverage leaves it alone
            return
        el = self.elements(region, buf.data.itemsize)
        blocks = np.array([block])
        if buf.has_writes():
            try:
                races.check_read_race(buf, buf.writer_tags()[el], blocks, what)
            except races.RaceError as e:
                e.other = self._other(region.buf, region, block, True)
                raise
        self._site(region.buf, region, block, False, line)

        def mark(lo, hi):    # applied when a write needs the readers (never, for an argument only read)
            lo[el] = np.minimum(lo[el], block)
            hi[el] = np.maximum(hi[el], block)
        buf.log.read_marks.append((0, mark))

    def write(self, region, block, what, atomic=False, who=None):
        """Block ``block`` writes ``region``: a race if another block read any of it; over elements another
        block wrote, the values must agree (checked after the write, ``check_values``) unless atomic. ``who``:
        the instruction, handed back with the verdict."""
        buf = self._buffer(region.buf)
        if self.apart:
            self.cover_blocks(region, 0, 0, 1)
            buf.written = True
            return
        el = self.elements(region, buf.data.itemsize)
        blocks = np.array([block])
        if buf.has_reads():
            lo, hi = buf.reader_span()
            try:
                races.check_overwrite_race(buf, lo[el], hi[el], blocks, what)
            except races.RaceError as e:
                e.other = self._other(region.buf, region, block, False)
                raise
        buf.written = True
        self._site(region.buf, region, block, True, who.loc[1] if who is not None and who.loc else None)
        buf.log.cover.append((el.start, min(el.stop, buf.n)) if isinstance(el, slice) else (0, el, 1, 1, 1, None))
        tags = buf.writer_tags()
        window = tags[el]
        if atomic:
            races.check_write_race(buf, window, blocks, what, atomic=True)
            tags[el] = races.tags_after_atomic(window, block)
            return
        other = races.write_conflicts(window, block, False)
        if other.any():
            idx = np.arange(buf.n)[el][other]
            self.pending.append((buf, idx, buf.data[idx].copy(), int(window[other][0]), what, who))
        tags[el] = block

    def cover_blocks(self, region, stride, first, nblk):
        """Blocks ``first``.. wrote ``region`` moved by ``stride`` bytes a block (blocks run as lanes, no two
        touching the same bytes): what the coverage warnings count of them."""
        buf = self._buffer(region.buf)
        el = self.elements(region, buf.data.itemsize)
        step = stride // buf.data.itemsize
        cover = buf.log.cover
        for b in range(first, nblk):
            if isinstance(el, slice):
                cover.append((el.start + b * step, min(el.stop + b * step, buf.n)))
            else:
                cover.append((0, el + b * step, 1, 1, 1, None))

    def check_values(self, block):
        """[(who, message, hint)] for pending writes whose values differ from the other block's."""
        out = []
        pending, self.pending = self.pending, []
        for buf, idx, before, tag, what, who in pending:
            if np.any(buf.data[idx].view(np.uint8) != before.view(np.uint8)):    # bits: identical NaNs agree
                out.append((who, f"{what} writes elements of GM '{buf.name}' that {races.writer_text(tag)} also wrote, "
                            f"with different values (block {block} vs {races.writer_text(tag)})",
                            "blocks run concurrently: give every block a disjoint output range"))
        return out

    def barrier(self):
        """Every block passed a barrier (sync_all): what any block did before it is ordered before what any
        block does after it, so the cross-block checks start afresh (what was written stays covered)."""
        for b in self.buffers.values():
            if b.has_reads():
                self.read_before.add(b.name)
            log = b.log
            log.tags, log.pending, log.readers, log.read_marks = None, [], None, []
        self.sites = {}

    def coverage(self):
        """The tile engine's coverage warnings: arguments the kernel writes (and never reads) with elements no
        block wrote."""
        return coverage_warnings([b for b in self.buffers.values() if b.name not in self.read_before])


def _no_mark(lo, hi):
    """The reader marks of a launch whose blocks stay apart: nothing (no write ever asks who read)."""

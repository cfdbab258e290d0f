"""Global memory across the blocks of a v1 launch: the tile engine's per-element access logs
(``sim.memory.Buffer``: writer tags, reader spans) and its cross-block race checks (``sim.races``), applied
to each instruction's GM bytes as the blocks run.

Blocks run one after another, so an access of block b meets the complete record of blocks 0..b-1 and the
earlier accesses of b itself, which is what the tile engine sees of concurrent lanes. One difference, as
pyasc's own tests require: blocks writing the same GM elements with identical values are allowed (the
values are compared once the write has happened: ``check_values``).

Blocks may order themselves (``ib_set`` / ``ib_wait``, ``notify_next_block`` / ``wait_pre_block``): each
block's accesses are numbered by the segment they fall in (a segment ends at each of the block's sets),
and a wait makes the waiting block observe the setter's segments up to that set, with everything the
setter had observed (vector clocks, ``BlockClocks``). An access meeting another block's is a race only
when that access is not ordered before it."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import GRANULE
from .. import races
from ..checks import coverage_warnings
from ..memory import Buffer


_FIX = ("; or order the two blocks: a flag set after the first block's access and waited for before the other's "
        "(ib_set / ib_wait, notify_next_block / wait_pre_block, cross_core_set_flag / cross_core_wait_flag)")


class BlockClocks:
    """Happens-before between blocks: ``seg[b]`` counts block b's sets, ``seen[b][a]`` is the last segment of
    block a that block b has observed."""

    def __init__(self):
        self.seg, self.seen = {}, {}

    def now(self, b):
        return self.seg.get(b, 0)

    def release(self, b):
        """Block b sets a flag: what it has done and observed so far (a token), and a new segment."""
        token = dict(self.seen.get(b, {}))
        token[b] = self.now(b)
        self.seg[b] = self.now(b) + 1
        return token

    def acquire(self, b, token):
        """Block b waited for a flag set with ``token``: it observes what the setter had."""
        seen = self.seen.setdefault(b, {})
        for a, s in token.items():
            if a != b and s > seen.get(a, -1):
                seen[a] = s

    def ordered(self, a, seg, b):
        """Whether block a's access in segment ``seg`` happens before block b's next access."""
        return a == b or seg <= self.seen.get(b, {}).get(a, -1)


class GmRaces:
    def __init__(self, gm):
        self.gm = gm
        self.buffers = {}
        self.pending = []     # (buffer, element index, other block's values, its tag, op name, op): compared once written
        self.sites = {}       # GM argument -> [(lo, hi, block, segment, write, line)] of the launch's accesses
        self.clocks = BlockClocks()
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
        """Remember who touched which bytes, in which segment (ordering, and the race report)."""
        self.sites.setdefault(buf, []).append((region.lo, region.hi, block, self.clocks.now(block), write, line))

    def _other(self, buf, region, block, write):
        """Another block's access meeting ``region`` (a write, or a read) not ordered before ``block``'s: the
        text naming it, or None when every such access is ordered before it."""
        for lo, hi, b, seg, w, line in self.sites.get(buf, ()):
            if w == write and lo < region.hi and region.lo < hi and not self.clocks.ordered(b, seg, block):
                return f"block {b}'s {'write' if w else 'read'} at line {line}"
        return None

    def _race(self, e, buf, region, block, write):
        """A conflict the element records found: raised unless every access it meets is ordered before."""
        e.other = self._other(buf, region, block, write)
        if e.other is not None:
            e.hint = (e.hint or "") + _FIX
            raise e

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
                self._race(e, region.buf, region, block, True)
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
                self._race(e, region.buf, region, block, False)
        buf.written = True
        self._site(region.buf, region, block, True, who.loc[1] if who is not None and who.loc else None)
        buf.log.cover.append((el.start, min(el.stop, buf.n)) if isinstance(el, slice) else (0, el, 1, 1, 1, None))
        tags = buf.writer_tags()
        window = tags[el]
        if atomic:
            try:
                races.check_write_race(buf, window, blocks, what, atomic=True)
            except races.RaceError as e:
                self._race(e, region.buf, region, block, True)
            tags[el] = races.tags_after_atomic(window, block)
            return
        other = races.write_conflicts(window, block, False)
        if other.any() and self._other(region.buf, region, block, True) is not None:
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

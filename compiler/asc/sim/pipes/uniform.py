"""Blocks that issue block 0's instructions again: the first launch of a v1 kernel runs block 0 in full
(checks, numerics, schedule) and, for each other block, only the kernel's Python body, collecting the
instructions it issues (``TraceEngine``). When every block issued block 0's stream again, differing only
by a per-block offset into each GM argument, and no two blocks touch the same GM bytes, the on-chip
checks (pipe ordering, bounds, initcheck), the warnings and the schedule of every block are block 0's: the
other blocks need only their GM checks (bounds, the launch's access logs) and their data, run across the
blocks as a replay runs it. Anything else (a value read back with ``get_value``, a Matmul, an instruction
of another form, different streams, blocks sharing GM bytes) runs every block in full, as before.
"""
from __future__ import annotations

import numpy as np

from .engine import _SYNC, BlockEngine
from .lane_steps import ELEMENTWISE
from .replay import _across, _gm_spans, build_tape, freeze

_DATA = ELEMENTWISE | {"data_copy"}


class Diverged(Exception):
    """The block cannot be run as block 0's stream (an instruction this path does not take)."""


class TraceEngine(BlockEngine):
    """A block whose instructions are collected, not run (its allocations and queues are kept as usual)."""

    def __init__(self, launch, block_idx):
        super().__init__(launch, block_idx)
        self.trace = []

    def issue(self, op):
        if op.name not in _SYNC and (op.name not in _DATA or op.attrs.get("atomic")):
            raise Diverged(op.name)
        self.n += 1
        self.ops.append(None)
        self.ends.append(0.0)
        self.trace.append(op if op.name in _SYNC else freeze(op))
        return None

    def finish(self):
        pass


def _gm_offsets(op0, op):
    """Per GM argument, the byte offset of ``op``'s accesses from ``op0``'s, or None when the two ops differ
    otherwise (name, pipe, line, on-chip bytes, sizes, attributes)."""
    if op.name != op0.name or op.pipe != op0.pipe or op.loc != op0.loc:
        return None
    if op.name in _SYNC:
        return {} if op.attrs == op0.attrs else None
    out = {}
    for r0s, rs in ((op0.reads, op.reads), (op0.writes, op.writes)):
        if len(r0s) != len(rs):
            return None
        for r0, r in zip(r0s, rs):
            if r.space != r0.space or r.hi - r.lo != r0.hi - r0.lo:
                return None
            if r.space != "GM":
                if r.lo != r0.lo or r.buf != r0.buf or not _same_granules(r0, r):
                    return None
            elif r.buf != r0.buf or out.setdefault(r.buf, r.lo - r0.lo) != r.lo - r0.lo or \
                    (r.granules is None) != (r0.granules is None):
                return None
    a0, a = op0.attrs, op.attrs
    if any(a0.get(k) != a.get(k) for k in ("count", "scalar", "segments", "repeats", "form")):
        return None
    i0, i = a0.get("idx"), a.get("idx")
    if (i0 is None) != (i is None) or (i0 is not None and not all(np.array_equal(x, y) for x, y in zip(i0, i))):
        return None
    return out


def _same_granules(r0, r):
    return (r0.granules is None and r.granules is None) or (
        r0.granules is not None and r.granules is not None and np.array_equal(r0.granules, r.granules))


def same_stream(ops0, ops):
    """Whether ``ops`` is ``ops0`` with each GM argument's accesses at one constant offset."""
    if len(ops) != len(ops0):
        return False
    offsets = {}
    for op0, op in zip(ops0, ops):
        off = _gm_offsets(op0, op)
        if off is None:
            return False
        for buf, d in off.items():
            if offsets.setdefault(buf, d) != d:
                return False
    return True


def run_as_block0(launch, eng0, traces):
    """Blocks 1.. (``traces``: the ops each issued) run as block 0 ran: their GM checks in block order, then
    their data across the blocks. Returns their data ops, or None when they must run in full (blocks sharing
    GM bytes); ``launch.tape``: the replay tape of every block's data ops, when one could be built."""
    streams = [eng0.trace] + traces
    data = [[op for op in ops if op.name not in _SYNC] for ops in streams]
    if any(_past_the_end(launch.gm, ops) for ops in data):
        return None      # a DMA past an argument's end runs on a widened copy of it, one block at a time
    reads, writes = _gm_spans(data)
    if any(_across(w, w) for w in writes.values()) or \
            any(_across(reads.get(buf, []), w) for buf, w in writes.items()):
        return None
    for b, ops in enumerate(data[1:], start=1):
        checker = BlockEngine.__new__(BlockEngine)      # the GM checks of a block, nothing else
        checker.launch, checker.block_idx = launch, b
        for i, op in enumerate(ops):
            try:
                for regions, write in ((op.reads, False), (op.writes, True)):
                    for r in regions:
                        if r.space == "GM":
                            checker._bounds(op, r, write)
            except Exception:
                # as in turn: the blocks before the failing one have run, and this one up to the failing op
                _run_each(launch, data[1:b] + [ops[:i]])
                raise
    # the tape of every block (a later launch of this structure replays it), run here for blocks 1..
    launch.tape = build_tape(data, BlockEngine.capacities(launch.hw), None)
    if launch.tape is not None:
        launch.tape.replay(launch.gm, first=1)
    else:
        _run_each(launch, data[1:])
    return data[1:]


def _past_the_end(gm, ops):
    return any(r.space == "GM" and r.hi > gm[r.buf].nbytes for op in ops for r in op.reads + op.writes)


def _run_each(launch, block_ops):
    """The blocks' data ops one block after another (each on its own fresh on-chip memory)."""
    from .instructions import IMPLS
    from .replay import _BlockMemory
    cap = BlockEngine.capacities(launch.hw)
    for ops in block_ops:
        spaces = {r.space for op in ops for r in op.reads + op.writes if r.space != "GM"}
        mem = _BlockMemory(launch.gm, {s: np.full((1, cap[s]), 0xFF, np.uint8) for s in spaces}, 0)
        with np.errstate(all="ignore"):
            for op in ops:
                IMPLS[op.name](mem, op)

"""A loop's trips in block 0's engine, checked and scheduled once their state repeats.

A traced stream (``tracer.py``) often is a loop: after a prologue, the same instructions period after
period (a trip, or two of a double-buffered loop), each GM argument's addresses moved by one shift a period
and on-chip addresses the same. Block 0 runs every check and the schedule for each instruction; here it
runs the periods in full until the engine's state at the start of a period is the state at the start of
the one before, moved on: op indices by the period's length, ticks by the period's ticks (those below the
scalar unit's issue point, which no later instruction can see, left out), GM addresses by their shift.
The engine being a function of its state and its instructions, every later period then does what the last
one did, moved on: no check fails and none warns (the last one neither raised nor warned), and each adds
the same busy ticks and bytes. So those periods are not run: their effect is added in one step (op records,
GM access records, coverage, ticks, bytes) and the instructions after the loop run in full on that state.

What the state holds (``_state``): the pipes' views (vector clocks), the flags set, each on-chip memory's
latest accesses and written bytes, the schedule's pipe times, waits, last vector call and fetched code.
GM accesses are records that only grow; a period's GM accesses do not meet another period's when each
written argument's accesses of one period fit in its shift (checked), so they need not be compared.
Anything this does not cover (a strided or masked access, a held pipe, a timeline, insert-sync, an
instruction outside copies, elementwise math and flags) runs in full as before.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter

import numpy as np

from ...ir.registry import PIPES
from .lane_steps import ELEMENTWISE

_SYNC = ("set_flag", "wait_flag", "pipe_barrier")
S = PIPES.index("S")
_PIPE = {p: i for i, p in enumerate(PIPES)}
STATS = Counter()     # "loops", "periods added": what block 0 did not run
_MAX_PERIOD = 512      # ops of one period looked for
_MARKS = 8            # periods compared before the loop is left to run in full
_DIGITS = 6            # ticks compared to a millionth: costs are not binary fractions


def _key(op, gm, written):
    """What the engine sees of ``op`` apart from its GM addresses (None: an op this does not cover); its GM
    accesses' (buffer, first byte) go to ``gm``, the GM buffers it writes to ``written``."""
    name, a = op.name, op.attrs
    if name in _SYNC:
        return (name, op.pipe, op.loc, a.get("key"), a.get("target"))
    if name == "data_copy":
        if a.get("atomic"):
            return None
        extra = tuple(a["segments"])
    elif name in ELEMENTWISE:
        if a.get("idx") is not None:
            return None
        extra = (a.get("count"), a.get("repeats"), a.get("scalar"))
    else:
        return None
    regions = []
    for r in op.reads:
        if r.granules is not None or r.exact is not None:
            return None
        if r.space == "GM":
            gm.append((r.buf, r.lo))
            regions.append((r.buf, r.hi - r.lo))
        else:
            regions.append((r.space, r.lo, r.hi))
    regions.append(None)
    for r in op.writes:
        if r.granules is not None or r.exact is not None:
            return None
        if r.space == "GM":
            gm.append((r.buf, r.lo))
            regions.append((r.buf, r.hi - r.lo))
            written.add(r.buf)
        else:
            regions.append((r.space, r.lo, r.hi))
    return (name, op.pipe, op.loc, tuple(regions), extra)


class Loop:
    """Ops ``[start, start + count * length)`` of a stream: ``count`` periods of ``length`` ops alike but
    for their GM addresses, each GM buffer's moved by ``shift[buf]`` bytes a period."""

    def __init__(self, start, length, count, shift, written):
        self.start, self.length, self.count, self.shift = start, length, count, shift
        self.written = written      # the GM buffers an op of the stream writes


def find_loop(ops, calls):
    """The longest loop of ``ops`` (block 0's concrete ops), or None. ``calls``: op index -> scalar-side
    calls made before it (a period must have none: they would be part of its state). The period is the
    distance most ops have from the last op like them."""
    n = len(ops)
    if n < 8:
        return None
    ids, table, gms, last, written, dist = [], {}, [], {}, set(), {}
    for i, op in enumerate(ops):
        gm = []
        k = _key(op, gm, written)
        if k is None:
            written.update(r.buf for r in op.writes if r.space == "GM")
        try:
            k = -1 - i if k is None else table.setdefault(k, len(table))     # None: like no other op
        except TypeError:       # an attribute that cannot be compared cheaply
            k = -1 - i
        ids.append(k)
        gms.append(gm)
        j = last.get(k)
        if j is not None:
            dist[i - j] = dist.get(i - j, 0) + 1
        last[k] = i
    if not dist:
        return None
    length = max(dist, key=dist.get)
    if length > min(_MAX_PERIOD, n // 4):
        return None
    # the longest run of ops like the op one period before
    best, run = (0, 0), 0
    for i, same in enumerate([a == b for a, b in zip(ids, ids[length:])]):
        run = run + 1 if same else 0
        if run > best[1]:
            best = (i + 1 - run, run)
    start, count = best[0], best[1] // length + 1
    if count < 4:
        return None
    end = start + count * length
    if any(start < i < end for i in calls):
        return None
    shift = {}
    for a, b in zip(gms[start: end - length], gms[start + length: end]):
        for (buf, x), (_, y) in zip(a, b):
            if shift.setdefault(buf, y - x) != y - x:
                return None
    return Loop(start, length, count, shift, written)


def _rel(x, base):
    return None if x < 0 else x - base


def _when(t, base):
    """A tick relative to ``base`` (the earliest a pipe of the loop is free); None below it: no instruction
    of those pipes starts before ``base``, and every use of such a tick takes its max with the pipe's own
    (a flag's set tick, a wait, a barrier, the vector drain, the block's end), so it is never seen again."""
    return None if t < base else round(t - base, _DIGITS)


def _state(eng, base_n, pipes):
    """The engine's state at op index ``base_n``, relative to it and to the earliest tick a pipe of
    ``pipes`` (the loop's) is free (None: a state this does not cover). The scalar unit's issue tick, when
    no op of the loop runs on S, is left out: ``_skip`` checks it stays below that tick."""
    if eng.held or eng.lost or eng.reordered:
        return None
    tm = eng.timing
    if tm.events is not None or tm.ready or tm.read:
        return None
    base_t = min(tm.free[p] for p in pipes)
    trackers = []
    for space, tr in sorted(eng.trackers.items()):
        if tr.wr is not None:
            return None
        trackers.append((space, frozenset((lo, hi, k, p, n - base_n) for lo, hi, k, p, n in tr.ranges)))
    written = []
    for space, w in sorted(eng.written.items()):
        written.append((space, tuple(w.ranges) if w.bits is None else np.packbits(w.bits).tobytes()))
    # a flag's set tick is kept as it is (a later wait of a pipe outside the loop may see it)
    flags = frozenset((k, tuple(_rel(x, base_n) for x in snap), round(fired - base_t, _DIGITS), op.loc, op.pipe)
                      for k, (snap, fired, _, op) in eng.flags.items())
    lv = tm.last_vector
    if lv is not None:
        writes, ready, _ = lv
        lv = None if ready + eng.hw.vector_chain <= base_t else \
            (tuple((r.space, r.buf, r.lo, r.hi) for r in writes), round(ready - base_t, _DIGITS))
    waited = tuple(None if w is None or w[0] < base_t else (round(w[0] - base_t, _DIGITS), w[1])
                   for w in tm.waited)
    free = [_when(t, base_t) for t in tm.free]
    if S not in pipes:
        free[S] = None
    return (tuple(tuple(_rel(x, base_n) for x in row) for row in eng.seen),
            tuple(_rel(x, base_n) for x in eng.done_seen), flags, tuple(trackers), tuple(written),
            tuple(free), tuple(_when(t, base_t) for t in tm.pipe_done),
            _when(tm.done, base_t), waited, lv, tm.scalar_run, frozenset(tm.fetched),
            len(eng.launch.warnings), len(eng.launch.uninit_sites), tuple(sorted(eng.launch.peak.items())),
            bool(eng.launch.gm_races.pending))


class _Mark:
    """A period's start: its op index, the earliest tick a pipe of the loop is free, the scalar unit's issue
    tick, what is added up over a period (busy ticks, bytes) and the state."""

    def __init__(self, eng, n, pipes, compared=True):
        tm = eng.timing
        self.n, self.t, self.s = n, min(tm.free[p] for p in pipes), tm.free[S]
        self.busy, self.macs = list(tm.busy), tm.macs
        self.bytes = dict(eng.launch.bytes)
        self.state = _state(eng, n, pipes) if compared else None


def run_stream(eng, ops, calls, loop):
    """``eng`` issues ``ops`` with the scalar-side ``calls`` where the body made them (``tracer.Stream``),
    the periods of ``loop`` after the state repeats added in one step."""
    start, length, count = loop.start, loop.length, loop.count
    pipes = sorted({PIPES.index(op.pipe) for op in ops[start: start + length]})
    marks = []
    i, n = 0, len(ops)
    while i < n:
        for loc in calls.get(i, ()):
            eng.scalar_call(loc)
        if start <= i < start + count * length and (i - start) % length == 0 and len(marks) < _MARKS:
            j = (i - start) // length
            # the first period rarely starts from a state a later one repeats (the loop's code is fetched,
            # its buffers first written): not compared
            marks.append(_Mark(eng, eng.n + 1, pipes, j >= 1))
            if j >= 1 and marks[-1].state is not None and marks[-1].state == marks[-2].state and \
                    _skip(eng, ops, loop, j, marks[-2], marks[-1], S in pipes):
                i = start + count * length
                continue
        eng.issue(ops[i])
        i += 1
    for loc in calls.get(n, ()):
        eng.scalar_call(loc)


def _skip(eng, ops, loop, j, before, now, on_s):
    """Periods ``j``.. of ``loop`` added in one step (their state repeating period ``j - 1``'s); False when
    the scalar unit's issue tick may matter to them, or their GM accesses could meet others' or leave their
    arguments (then they run in full)."""
    start, length, count, shift = loop.start, loop.length, loop.count, loop.shift
    m = count - j                                 # periods not run
    if not eng.launch.gm_races.apart:
        return False
    # no op of the loop on S: the scalar unit issues ahead of the pipes, its tick (growing by its issue
    # costs) below every tick the loop's ops start from, in period j - 1 and in those not run
    if not on_s and not (now.s <= before.t and now.s + m * (now.s - before.s) <= now.t):
        return False
    first = start + (j - 1) * length             # period j - 1: what each of them repeats
    period = ops[first: first + length]
    gm, written = eng.launch.gm, loop.written
    hulls = {}
    for op in period:
        for r in op.reads + op.writes:
            if r.space != "GM":
                continue
            d = shift.get(r.buf, 0)
            last_lo, last_hi = r.lo + m * d, r.hi + m * d
            if min(r.lo, last_lo) < 0 or max(r.hi, last_hi) > gm[r.buf].nbytes:
                return False
            h = hulls.get(r.buf)
            hulls[r.buf] = (r.lo, r.hi) if h is None else (min(h[0], r.lo), max(h[1], r.hi))
    for buf, (lo, hi) in hulls.items():
        if buf not in written:
            continue                              # only read: no GM access of it ever conflicts
        d = shift.get(buf, 0)
        if d == 0 or hi - lo > abs(d):
            return False
        # period j - 1 and those not run, as one span: nothing before the loop may meet it
        span = (lo, hi + m * d) if d > 0 else (lo + m * d, hi)
        for a, b, _, k, _ in eng.gm_tracker.by_buf.get(buf, ()):
            if k < start and a < span[1] and span[0] < b:
                return False
    _add_periods(eng, ops, first + length, m, shift, before, now, on_s)
    STATS["loops"] += 1
    STATS["periods added"] += m
    return True


def _add_periods(eng, ops, first, m, shift, before, now, on_s):
    """The effect of the ``m`` periods of ``ops`` from index ``first`` on, each like the one from mark
    ``before`` to mark ``now``: their records as the engine keeps them (names and sites, data ready ticks,
    accesses, GM accesses and what the coverage warning counts, the data ops for a block run in full), then
    the state moved on."""
    dn, dt = now.n - before.n, now.t - before.t
    tm, launch = eng.timing, eng.launch
    base_t = now.t
    skipped = ops[first: first + m * dn]
    # the records of period j - 1, moved on: the ops' names and sites repeat, the rest moves
    names, ends = eng.ops[before.n: now.n], eng.ends[before.n: now.n]
    by_pipe = [q[bisect_left(q, before.n):] for q in eng.by_pipe]
    for q in range(1, m + 1):
        eng.ops.extend(names)
        eng.ends.extend([e + q * dt if e else e for e in ends])
        for mine, pipe in zip(by_pipe, eng.by_pipe):
            pipe.extend([x + q * dn for x in mine])
    eng.accesses.extend([(op.reads, op.writes) for op in skipped])
    # GM accesses: the records the checks of later ops look up, and what the coverage warning counts
    tr = eng.gm_tracker
    for i, op in enumerate(skipped):
        if op.name in _SYNC:
            continue
        n, pipe = now.n + i, _PIPE[op.pipe]
        for r in op.reads:
            if r.space == "GM":
                tr.record(r, pipe, n, False)
        for r in op.writes:
            if r.space == "GM":
                tr.record(r, pipe, n, True)
    if launch.checks:     # what the coverage warning counts (blocks apart: nothing else is logged)
        for op in ops[first - dn: first]:
            for r in op.writes:
                if r.space == "GM":
                    launch.gm_races.cover_blocks(r, shift.get(r.buf, 0), 1, m + 1)
    if eng.deferred is not None:
        eng.deferred.extend([op for op in skipped if op.name not in _SYNC])
    eng.n += m * dn
    steps, ticks = m * dn, m * dt

    def idx(x):
        return x + steps

    def tick(t):
        return t + ticks if t >= base_t else t

    eng.seen = [[x if x < 0 else idx(x) for x in row] for row in eng.seen]
    eng.done_seen = [x if x < 0 else idx(x) for x in eng.done_seen]
    eng.flags = {k: ([x if x < 0 else idx(x) for x in snap], fired + ticks, ev, op)
                 for k, (snap, fired, ev, op) in eng.flags.items()}
    for tr in eng.trackers.values():
        tr.ranges = [(lo, hi, k, p, idx(x)) for lo, hi, k, p, x in tr.ranges]
    tm.free = [tick(t) for t in tm.free]
    if not on_s:
        tm.free[S] = now.s + m * (now.s - before.s)
    tm.pipe_done = [tick(t) for t in tm.pipe_done]
    tm.done = tick(tm.done)
    tm.waited = [None if w is None else (tick(w[0]),) + tuple(w[1:]) for w in tm.waited]
    if tm.last_vector is not None:
        writes, ready, ev = tm.last_vector
        if ready + eng.hw.vector_chain > base_t:       # as ``_state`` tells it apart
            tm.last_vector = (writes, ready + ticks, ev)
    tm.busy = [b + m * (b - b0) for b, b0 in zip(tm.busy, before.busy)]
    tm.macs += m * (tm.macs - before.macs)
    for key in launch.bytes:
        launch.bytes[key] += m * (launch.bytes[key] - before.bytes[key])

"""One block of a v1 kernel: its on-chip memories, the instructions it issues (run at once, in program order,
so a correctly synchronised kernel computes the device's result), their ordering checks and their ticks."""
from __future__ import annotations

import numpy as np

from ...ir.pipe_ops import GRANULE, Region
from ...ir.registry import PIPES
from ..errors import SimError
from ...ir.faults import KernelRuntimeError, PipeHangError, located
from ...ir.pipe_ops import user_loc
from ...ir.kernel_warnings import DmaOrderWarning, FlagWarning, KernelWarning, PastEndWarning, UninitializedReadWarning
from ...ir.kernel_warnings import located as warning_at
from . import ordering
from .instructions import IMPLS
from .block_events import Alone
from .gm import GmRaces
from .cube import SCHEDULES as CUBE_SCHEDULES
from .replay import MemoryViews, freeze, replayable
from .timing import PipeSchedule
from .written import WrittenBytes

S, MTE2, MTE3 = (PIPES.index(p) for p in ("S", "MTE2", "MTE3"))
DMA_PIPES = ("MTE2", "MTE3")      # the GM <-> on-chip copies: no bounds check on the device
_SYNC = ("set_flag", "wait_flag", "pipe_barrier")


def _fail(op, message, hint=None, category="RaceError"):
    """The error at ``op``'s line (without one: at the kernel line making the current call)."""
    loc = op.loc if op is not None and op.loc else user_loc()
    return located(PipeHangError if category == "PipeHangError" else KernelRuntimeError, loc, message, hint,
                   category)


def _meet(a, b):
    """Whether two regions share a byte (strided forms without their bytes: a 32-byte block)."""
    if a.space != b.space or a.buf != b.buf or a.hi <= b.lo or b.hi <= a.lo:
        return False
    if a.exact is not None or b.exact is not None:
        ea = a.exact if a.exact is not None else np.arange(a.lo, a.hi)
        eb = b.exact if b.exact is not None else np.arange(b.lo, b.hi)
        return bool(np.intersect1d(ea, eb).size)
    if a.granules is None and b.granules is None:
        return True
    ga = a.granules if a.granules is not None else np.arange(a.lo // GRANULE, -(-a.hi // GRANULE))
    gb = b.granules if b.granules is not None else np.arange(b.lo // GRANULE, -(-b.hi // GRANULE))
    return bool(np.intersect1d(ga, gb).size)


def _join(a, b):
    """The elementwise max of two vector clocks."""
    return [x if x > y else y for x, y in zip(a, b)]


class Launch:
    """What the blocks of one launch share: GM buffers, who wrote each GM element, warnings."""

    def __init__(self, hw, gm, core_num, checks=True, record=False, insert_sync=False):
        self.hw, self.gm, self.core_num, self.checks, self.record = hw, gm, core_num, checks, record
        self.insert_sync = insert_sync
        self.recording = False    # set by the launch: blocks keep their data ops (``replay.Tape``)
        self.uniform = False      # set by the launch: blocks 1.. may run as block 0 (``uniform``)
        self.tape = None          # the tape of blocks run as block 0, built while running them
        self.phased = False       # set by the launch: blocks wait for each other (``phases.Phaser``)
        self.phaser = None
        self.gm_races = GmRaces(gm)
        self.uninit_sites = set()  # instructions already reported reading uninitialised on-chip bytes
        self.warnings = []
        self.bytes = {"in": 0, "out": 0}
        self.peak = {}

    def block_events(self, engine):
        """The flags blocks set for each other (``block_events.py``): the phaser's, or in a one-block launch
        the block's own (None: blocks that do not wait for each other, so no flags are modelled)."""
        self.recording = False    # the flags live in GM words written outside any instruction: not replayable
        if self.phaser is not None:
            return self.phaser.events
        if self.core_num > 1:
            return None
        if getattr(self, "alone", None) is None:
            self.alone = Alone(self, engine)
        return self.alone.events

    def warn(self, op, text, kind=KernelWarning):
        """Add a launch-report warning of ``kind`` at ``op``'s line (each distinct one once)."""
        msg = warning_at(op.loc if op is not None and op.loc else None, text, kind)
        if msg not in self.warnings:
            self.warnings.append(msg)


class BlockEngine(MemoryViews):
    def __init__(self, launch, block_idx):
        self.launch = launch
        self.hw = hw = launch.hw
        self.block_idx = block_idx
        self.core_num = launch.core_num
        self.capacity = self.capacities(hw)
        self.mem = {}
        self.trackers = {}
        self.written = {}                 # on-chip memory -> which bytes an instruction of this block wrote
        self.gm_tracker = ordering.GmTracker()
        self.top = {}
        self.auto_sites = {}
        self.tpipe = None                 # the kernel's TPipe (one per kernel)
        self.auto_sync = launch.insert_sync
        self.queues = 0
        self.n = -1
        self.ops = []                     # (name, pipe name, file, line) per op index
        self.ends = []                    # the time each op's data is ready
        self.accesses = []                # (reads, writes) per op index
        self.by_pipe = [[] for _ in PIPES]  # op indices per pipe, in order
        # vector clocks as lists: a handful of pipes, compared per instruction (numpy's per-call cost dominates)
        self.seen = [[-1] * len(PIPES) for _ in PIPES]
        self.done_seen = [-1] * len(PIPES)   # per pipe: own ops known complete
        self.flags = {}
        self.lost = {}                    # flag -> the set_flag whose signal was lost (the flag still set)
        self.held = {}                    # pipe -> (flag, its wait_flag, op index, [queued (op, index, issued)])
        self.reordered = False
        self.timing = PipeSchedule(hw, launch.record)
        self.recorded = [] if launch.recording else None   # the data ops run, for a replay
        self.trace = [] if launch.uniform else None        # every op issued (blocks run as block 0)
        self.deferred = None              # set: the data ops run, in order, for the caller to run their data

    @staticmethod
    def capacities(hw):
        """Bytes of each on-chip memory of a core."""
        return {"UB": hw.ub_bytes, "L1": hw.l1_bytes, "L0A": hw.l0a_bytes, "L0B": hw.l0b_bytes, "L0C": hw.l0c_bytes}

    def user_error(self, loc, message, hint=None, category="RaceError"):
        """A kernel error at the user's line ``loc`` (file, line) for a check made outside ``issue``."""
        from ...ir.pipe_ops import PipeOp
        return _fail(PipeOp("check", "S", loc=loc), message, hint, category)

    # -- memory ----------------------------------------------------------------------------------
    def memory(self, space):
        m = self.mem.get(space)
        if m is None:
            m = self.mem[space] = np.full(self.capacity[space], 0xFF, dtype=np.uint8)   # unwritten: NaN
        return m

    def check_capacity(self, space, lo, hi, what):
        cap = self.capacity.get(space)
        if cap is not None and hi > cap:
            raise _fail(None, f"{what} spans bytes [{lo}, {hi}) of {space}, which has {cap} bytes",
                        f"keep on-chip buffers inside the {cap} bytes of {space}", "OutOfBoundsError")
        self.launch.peak[space] = max(self.launch.peak.get(space, 0), hi)

    def alloc(self, space, nbytes, what):
        lo = self.top.get(space, 0)
        hi = lo + -(-int(nbytes) // 32) * 32
        self.check_capacity(space, lo, hi, what)
        self.top[space] = hi
        return lo

    def auto_alloc(self, loc, space, nbytes, what):
        """A LocalTensorAuto's buffer: one per creation site (pyasc hoists it out of loops)."""
        key = (loc, space)
        hit = self.auto_sites.get(key)
        if hit is None or hit[1] < nbytes:
            hit = self.auto_sites[key] = (self.alloc(space, nbytes, what), nbytes)
        return hit[0]

    def new_queue_id(self):
        self.queues += 1
        return self.queues

    # -- issuing ---------------------------------------------------------------------------------
    def scalar_call(self, loc):
        """The kernel ran scalar code at ``loc`` (a block index read, a view's address, a buffer's place)."""
        self.timing.scalar_call(loc)

    def issue(self, op):
        self.n += 1
        n = self.n
        self.timing.scalar_run = None     # an instruction ends a run of scalar code
        pipe = PIPES.index(op.pipe)
        self.ops.append((op.name, op.pipe, op.loc[0] if op.loc else "?", op.loc[1] if op.loc else None))
        self.ends.append(0.0)
        self.accesses.append((op.reads, op.writes))
        self.by_pipe[pipe].append(n)
        if self.trace is not None:
            op = op if op.name in _SYNC else freeze(op)    # the frozen op serves the replay record too
            self.trace.append(op)
        held = self.held.get(pipe)
        if held is not None:
            # the pipe waits for a flag a later instruction sets: its instructions queue up behind the wait
            held[3].append((op, n, self.timing.issue_later(pipe)))
            return None
        if self.held and op.name == "pipe_barrier" and op.attrs["target"] == "ALL":
            _, wait, _, _ = next(iter(self.held.values()))
            raise _fail(op, f"pipe_barrier(PIPE_ALL) waits for every pipe, and pipe {wait.pipe} waits at line "
                        f"{wait.loc[1] if wait.loc else '?'} for a flag ({wait.attrs['text']}) only a later "
                        "instruction sets: on the device the block hangs here",
                        "set the flag before this barrier, or wait for it after the set_flag", "PipeHangError")
        return self._run(op, pipe, n)

    def _run(self, op, pipe, n, at=None):
        """Execute an instruction (``at``: when the scalar unit issued it, if it was held back until now)."""
        if op.name in _SYNC:
            return self._sync(op, pipe, n)
        self.seen[pipe][pipe] = n
        after, after_event = 0.0, None
        past = {}
        for regions, write in ((op.reads, False), (op.writes, True)):
            for r in regions:
                r = self._bounds(op, r, write, past)
                if r is None:
                    continue
                t, ev = self._order(op, r, pipe, n, write)
                if t > after:
                    after, after_event = t, ev
        if self.deferred is not None:      # the data runs later, across the blocks (``tracer.py``)
            self.deferred.append(op)
            result = None
        else:
            result = IMPLS[op.name](self, op) if not past else self._past_the_end(op, past)
        if self.recorded is not None:
            if replayable(op):
                self.recorded.append(op if self.trace is not None else freeze(op))
            else:
                self.launch.recording = False
        if self.launch.gm_races.pending:
            self.check_gm_values()
        sched = CUBE_SCHEDULES.get(op.name)
        self.ends[n] = sched(self, op, after) if sched is not None else \
            self.timing.op(op, pipe, after, after_event, at)
        return result

    def _release(self, pipe):
        """The flag a held pipe waits for is set: the wait completes and the pipe's queued instructions run,
        until one of them is a wait that holds it again."""
        _, wait, wn, queued = self.held.pop(pipe)
        self._sync(wait, pipe, wn)
        for i, (op, n, at) in enumerate(queued):
            if pipe in self.held:
                self.held[pipe][3].extend(queued[i:])
                return
            self._run(op, pipe, n, at)

    def _bounds(self, op, r, write, past=None):
        """Check an access; returns the part of it inside its memory (None: nothing). A DMA past the end of a
        GM argument is what the device does (no bounds check): a warning, and ``past`` gets the argument's
        bytes the instruction needs (``_past_the_end``)."""
        if r.space == "GM":
            arr = self.launch.gm[r.buf]
            if r.hi > arr.nbytes and r.lo >= 0 and op.pipe in DMA_PIPES:
                self._warn_past_the_end(op, r, write, arr)
                if past is not None:
                    past[r.buf] = max(past.get(r.buf, 0), r.hi)
                self.launch.bytes["out" if write else "in"] += r.hi - r.lo     # the DMA moves them all
                if r.lo >= arr.nbytes:
                    return None
                r = Region(r.space, r.buf, r.lo, arr.nbytes, r.granules, r.position, r.owner, r.exact)
            elif r.lo < 0 or r.hi > arr.nbytes:
                raise _fail(op, f"{op.name} {'writes' if write else 'reads'} bytes [{r.lo}, {r.hi}) of GM '{r.buf}', "
                            f"which has {arr.nbytes} bytes ({arr.size} elements)",
                            "keep GM accesses inside the argument (check offsets and counts)", "OutOfBoundsError")
            else:
                self.launch.bytes["out" if write else "in"] += r.hi - r.lo
            if self.launch.checks:
                g = self.launch.gm_races
                try:
                    if write:
                        g.write(r, self.block_idx, op.name, bool(op.attrs.get("atomic")), op)
                    else:
                        g.read(r, self.block_idx, op.name, op.loc[1] if op.loc else None)
                except SimError as e:
                    other = getattr(e, "other", None)
                    raise _fail(op, f"{e} (block {self.block_idx}{'; ' + other if other else ''})", e.hint,
                                type(e).__name__) from None
        else:
            cap = self.capacity[r.space]
            if r.lo < 0 or r.hi > cap:
                raise _fail(op, f"{op.name} touches bytes [{r.lo}, {r.hi}) of {r.space} ({r.owner}), which has "
                            f"{cap} bytes", "keep the access inside the on-chip memory", "OutOfBoundsError")
            if self.launch.checks:
                self._initcheck(op, r, write)
        return r

    def _warn_past_the_end(self, op, r, write, arr):
        lo = max(r.lo, arr.nbytes)
        self.launch.warn(op, f"past-the-end: {op.name} (block {self.block_idx}) {'writes' if write else 'reads'} "
                         f"bytes [{lo}, {r.hi}) past the end of GM '{r.buf}', which has {arr.nbytes} bytes "
                         f"({arr.size} elements): on the device the DMA "
                         f"{'writes whatever lies there' if write else 'reads whatever lies there'}; here "
                         f"{'the bytes are dropped' if write else 'they read as zeros'}. Size the copy to the "
                         "argument (count, or block_count x block_len) if this was not meant", PastEndWarning)

    def _past_the_end(self, op, past):
        """Run a DMA reaching past the end of GM arguments: each such argument is extended with zeros for the
        instruction (reads past the end read zeros) and only its own bytes are kept (writes there land
        nowhere)."""
        gm = self.launch.gm
        own = {}
        for buf, hi in past.items():
            arr = own[buf] = gm[buf]
            wide = np.zeros(-(-hi // arr.itemsize), dtype=arr.dtype)
            wide[:arr.size] = arr
            gm[buf] = wide
        try:
            return IMPLS[op.name](self, op)
        finally:
            for buf, arr in own.items():
                arr[...] = gm[buf][:arr.size]
                gm[buf] = arr

    def _initcheck(self, op, r, write):
        """On-chip bytes no instruction of this block wrote hold whatever the buffer held before: reading
        them is a warning at the reading instruction (msSanitizer's initcheck)."""
        w = self.written.get(r.space)
        if w is None:
            w = self.written[r.space] = WrittenBytes(self.capacity[r.space])
        if write:
            w.mark(r)
            return
        where = w.unwritten(r)
        if where.size and op.loc not in self.launch.uninit_sites:
            self.launch.uninit_sites.add(op.loc)
            self.launch.warn(op, f"{op.name} reads {where.size} bytes of {r.space} ({r.position}, {r.owner}) in "
                             f"[{int(where[0])}, {int(where[-1]) + 1}) that no instruction of block {self.block_idx} wrote: "
                             "uninitialised data (on the device, whatever the buffer held); copy or compute the "
                             "whole range first (a data_copy count rounds down to 32 bytes)", UninitializedReadWarning)

    def _order(self, op, r, pipe, n, write):
        """Check (or, under insert-sync, make) the ordering of this access; returns (time it must wait for,
        the event it waits for)."""
        if r.space == "GM":
            tr = self.gm_tracker
        else:
            tr = self.trackers.get(r.space)
            if tr is None:
                tr = self.trackers[r.space] = ordering.Tracker(self.capacity[r.space])
        after, ev = 0.0, None
        if self.launch.checks or self.auto_sync:
            lw, lr = tr.latest(r, write)
            found = ordering.conflicts(self.seen[pipe], pipe, lw, lr)
            if found and r.space != "GM":
                found = self._exact(found, r, pipe)
            if found and not self.auto_sync:
                # the latest unordered access: ordering it orders the earlier ones its pipe waited for
                found = [max(found, key=lambda f: f[2])]
            for kind, q, other in found:
                if self.auto_sync:
                    # insert-sync: the pass puts a flag (or queue operation) on every such dependency
                    self.seen[pipe] = _join(self.seen[pipe], self._view_after(other))
                    t = self.ends[other] + self.hw.sync
                    if t > after:
                        after = t
                else:
                    o = self.ops[other]
                    mine = (op.name, op.pipe, op.loc[0] if op.loc else "?", op.loc[1] if op.loc else None)
                    if other < n:
                        msg, hint = ordering.race_message(kind, r, o, mine)
                        raise _fail(op, msg, hint)
                    # this op was held behind an early wait and runs after a later one: told in program order
                    swapped = {"RAW": "WAR", "WAR": "RAW"}.get(kind, kind)
                    msg, hint = ordering.race_message(swapped, r, mine, o)
                    raise self.user_error((o[2], o[3]), msg, hint)
        if write and (pipe == MTE2 or pipe == MTE3) and self.launch.checks and not self.auto_sync:
            self._dma_overlap(op, r, pipe, tr, n, lw)
        tr.record(r, pipe, n, write)
        return after, ev

    def _dma_overlap(self, op, r, pipe, tr, n, lw):
        """DMAs of one pipe may complete out of order: a copy writing bytes an earlier copy of its pipe writes,
        with nothing making the earlier one complete first (a pipe_barrier of the pipe, or a flag chain back to
        it), needs pipe_barrier (DataCopy's constraint). A launch-report warning: the device shows it rarely."""
        done = self.done_seen[pipe]
        if lw[pipe] <= done:
            return
        m = self._latest_meeting(pipe, n - 1, done, r, written=True)
        if m is not None:
            first = self.ops[m][3]
            where = f"GM '{r.buf}'" if r.space == "GM" else f"{r.space} ({r.position}, {r.owner})"
            name = PIPES[pipe]
            self.launch.warn(op, f"{op.name} on {name} writes bytes [{r.lo}, {r.hi}) of {where} that the "
                             f"data_copy at line {first}, also on {name}, writes, and nothing makes that one "
                             f"complete first: copies of one pipe may complete out of order; add "
                             f"asc.pipe_barrier(asc.PipeID.PIPE_{name}) between line {first} and line "
                             f"{op.loc[1] if op.loc else '?'}", DmaOrderWarning)

    def _latest_meeting(self, q, upto, floor, r, written):
        """The latest op of pipe ``q`` in (``floor``, ``upto``] that wrote (or read) a byte of ``r``, or None."""
        for m in reversed(self.by_pipe[q]):
            if m > upto:
                continue
            if m <= floor:
                return None
            if any(_meet(r, x) for x in self.accesses[m][1 if written else 0]):
                return m
        return None

    def _exact(self, found, r, pipe):
        """Granule conflicts that are byte conflicts: two accesses inside one 32-byte block that touch different
        bytes do not race. For each, the latest unobserved op of the other pipe whose bytes meet ``r``'s (the
        granule's latest op may not, while an earlier one does)."""
        out = []
        seen = self.seen[pipe]
        for kind, q, other in found:
            m = self._latest_meeting(q, other, seen[q], r, written=kind != "WAR")
            if m is not None:
                out.append((kind, q, m))
        return out

    def _view_after(self, other):
        """What a pipe has observed once it waited for op ``other`` (its pipe's view at that op)."""
        row = [-1] * len(PIPES)
        row[PIPES.index(self.ops[other][1])] = other
        return row

    def _sync(self, op, pipe, n):
        if self.auto_sync:
            return None      # insert-sync erases the user's flags and barriers and places its own
        a = op.attrs
        tm = self.timing
        if op.name == "set_flag":
            key = a["key"]
            self.seen[pipe][pipe] = n
            if key in self.flags and key[0] != "queue":
                # the flag is still set: this signal is lost, a wait sees only the earlier set
                self.launch.warn(op, f"set_flag({a['text']}) sets a flag that is already set (a lost signal): "
                                 "wait for it before setting it again", FlagWarning)
                self.lost[key] = op
                return None
            snap = list(self.seen[pipe])
            fired, ev = tm.set_flag(pipe)
            self.flags[key] = (snap, fired, ev, op)
            if self.held:
                waiting = next((p for p, h in self.held.items() if h[0] == key), None)
                if waiting is not None:
                    self._release(waiting)
        elif op.name == "wait_flag":
            key = a["key"]
            hit = self.flags.pop(key, None)
            if hit is None:
                if pipe == S:
                    raise self._hang(op, key)   # the scalar unit stalls: nothing later is ever issued
                # the pipe holds here until a later set_flag; the scalar unit goes on issuing
                self.held[pipe] = (key, op, n, [])
                self.reordered = True     # ops now run out of issue order (blocks 1.. cannot copy the stream)
                return None
            snap, fired, ev, setter = hit
            if pipe == S:
                # the scalar unit stalls, and it issues every pipe's later instructions: they all follow the flag
                self.seen = [_join(row, snap) for row in self.seen]
                self.done_seen = _join(self.done_seen, snap)
            else:
                self.seen[pipe] = _join(self.seen[pipe], snap)
                # what the setter saw of this pipe's own instructions has completed
                self.done_seen[pipe] = max(self.done_seen[pipe], snap[pipe])
            tm.wait_flag(pipe, fired, ev, setter.pipe_index)
        else:   # pipe_barrier
            if a["target"] == "ALL":
                every = [max(col) for col in zip(*self.seen)]
                self.seen = [list(every) for _ in self.seen]
                self.done_seen = [n] * len(self.done_seen)
                tm.barrier_all()
            else:
                self.done_seen[pipe] = n
                tm.barrier(pipe)
        return None

    def _hang(self, op, key):
        a = op.attrs
        msg = f"wait_flag({a['text']}) waits for a flag no set_flag sets: on the device pipe {op.pipe} " \
              "(and the block) hangs here"
        lost = self.lost.get(key)
        if lost is not None:
            msg += (f"; the set_flag at line {lost.loc[1] if lost.loc else '?'} was lost, the flag being still set "
                    "then")
            hint = (f"wait for the flag before setting it again, or give each buffer its own event id (a "
                    f"HardEvent.{key[0]} id per buffer)")
        elif key[0] != "queue":
            hint = f"add asc.set_flag(asc.HardEvent.{key[0]}, {key[1]}) on the source pipe before this wait"
        else:
            hint = "check the queue calls before this line"
        return _fail(op, msg, hint, "PipeHangError")

    def finish(self):
        """End of the block: a pipe still waiting hangs; flags set and never waited for are reported."""
        for key, wait, _, _ in self.held.values():
            raise self._hang(wait, key)
        for key, (_, _, _, op) in self.flags.items():
            if key[0] != "queue":
                self.launch.warn(op, f"set_flag({op.attrs['text']}) is never waited for: set and wait flags in pairs",
                                 FlagWarning)

    def check_gm_values(self):
        """The values a write left over another block's elements must be the ones that block wrote."""
        for op, message, hint in self.launch.gm_races.check_values(self.block_idx):
            raise _fail(op, message, hint)

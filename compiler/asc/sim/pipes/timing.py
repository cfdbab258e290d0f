"""Ticks of a v1 block: the tile schedule's pipes, issue model and instruction costs (``sim.schedule``,
each op's cost from its definition in the op registry), with the program's own edges: each pipe runs its
instructions in program order, issued in order by the scalar unit; flags, barriers and the queue protocol
order the pipes (a ``wait_flag`` holds its pipe until the matching ``set_flag`` fired, i.e. the setter's
earlier instructions were done).

A v1 program has no data-flow values for the schedule to follow: what an instruction waits for is what
its pipe waited for (``wait_flag``), or what the insert-sync pass and the cube pipeline pass in as
``after``."""
from __future__ import annotations

from ...ir.registry import PIPES, stages
from ..schedule import BlockSchedule

S, V = PIPES.index("S"), PIPES.index("V")


def _overlap(reads, writes):
    for r in reads:
        for w in writes:
            if r.space == w.space and r.buf == w.buf and r.lo < w.hi and w.lo < r.hi:
                return True
    return False


def op_stages(op, hw):
    """The stages of a v1 instruction as its op definition (``v1.<name>``) costs it."""
    return stages("v1." + op.name, op, hw)


class PipeSchedule(BlockSchedule):
    """The schedule of one v1 block, built as its instructions are issued."""

    def __init__(self, hw, record):
        super().__init__(hw, {}, [] if record else None)
        self.pipe_done = [0.0] * len(PIPES)    # when each pipe's issued instructions' data is ready
        self.last_event = [None] * len(PIPES)
        self.waited = [None] * len(PIPES)      # the flag a pipe's next instruction waits for: a ready entry
        self.last_vector = None                # (its writes, when its data is ready, its event) of the last V op
        self.scalar_run = None                 # the site of the open run of scalar code's first call, if any

    def scalar_call(self, loc):
        """A scalar-side call of the kernel (``BlockEngine.scalar_call``): one scalar instruction. The calls
        between two instructions are one run of scalar code, as the tile schedule merges a run of scalar ops
        into one step: the run's code, keyed by its first call's site, is fetched into the cold instruction
        cache on its first run (later runs from that site, in a loop or in this block's later calls, find it
        there). An instruction issued closes the run (``BlockEngine.issue``)."""
        hw = self.hw
        if self.scalar_run is None:
            self.scalar_run = loc
            if hw.cold_fetch:
                self._fetch(("scalar", loc))
        self._place(((S, hw.scalar_op, 0.0),), self.free[S], "scalar", loc[1] if loc else None)

    def issue_later(self, pipe):
        """The scalar unit issues an instruction its pipe will run later (behind a wait): when it issued it."""
        t = self.free[S]
        if pipe != S:
            self.free[S] += self.hw.issue
            self.busy[S] += self.hw.issue
        return t

    def op(self, op, pipe, after=0.0, after_event=None, at=None):
        """Schedule an instruction on ``pipe`` no earlier than ``after``; returns when its data is ready.
        ``at``: when the scalar unit issued it, for an instruction held behind a wait (its issue already paid)."""
        hw = self.hw
        if hw.cold_fetch:
            self._fetch(op.loc if op.loc is not None else op.name)   # one copy of the code per call site
        t = self.issue_later(pipe) if at is None else at    # the scalar unit issues it now
        cause = None
        w = self.waited[pipe]
        if w is not None:
            self.waited[pipe] = None
            if w[0] >= t:
                t, cause = w[0], w
        if after > t:
            t, cause = after, (after, -1, None, after_event)
        if pipe == V and self.last_vector is not None and hw.vector_chain:
            # a vector call reading the previous one's result waits for it to drain (the PIPE_V barrier the
            # compiler places between dependent vector calls), as between dependent tile ops
            writes, ready, ev = self.last_vector
            if _overlap(op.reads, writes) and ready + hw.vector_chain > t:
                t, cause = ready + hw.vector_chain, (ready, V, None, ev)
        st = op_stages(op, hw)
        end = self._place(st, t, op.name, op.loc[1] if op.loc else None, cause)
        if end > self.pipe_done[pipe]:
            self.pipe_done[pipe] = end
        if self.events is not None:
            self.last_event[pipe] = len(self.events) - 1
        if pipe == V:
            self.last_vector = (op.writes, end, self.last_event[V])
        if op.name == "cube_mmad":
            m, k, n = op.attrs["mkn"]
            self.macs += m * k * n
        return end

    def busy_of(self, op):
        return op_stages(op, self.hw)[0][1]

    def set_flag(self, pipe):
        """(time the flag fires, the event it follows): when every earlier instruction of ``pipe`` is done."""
        return max(self.pipe_done[pipe], self.free[pipe], self.free[S]) + self.hw.sync, self.last_event[pipe]

    def wait_flag(self, pipe, fired, event=None, setter=-1):
        self.waited[pipe] = (fired, setter, None, event)
        if fired > self.free[pipe]:
            self.free[pipe] = fired

    def barrier(self, pipe):
        """``pipe_barrier(P)``: P's later instructions start once its earlier ones are done."""
        if self.pipe_done[pipe] > self.free[pipe]:
            self.free[pipe] = self.pipe_done[pipe]

    def barrier_all(self):
        """Every pipe drains; like a flag between two pipes, the barrier itself costs a sync."""
        t = max(max(self.pipe_done), max(self.free)) + self.hw.sync
        self.free = [t] * len(PIPES)

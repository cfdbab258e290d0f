"""Ticks of a v1 block: each instruction on its pipe, in program order per pipe, issued in order by the
scalar unit; flags, barriers and the queue protocol are the edges between pipes (a ``wait_flag`` holds
its pipe until the matching ``set_flag`` fired, i.e. the setter's earlier instructions were done).

Costs use the platform table the tile API's schedule uses (``runtime.platforms``); the result has the
shape of ``sim.schedule.BlockSchedule`` (``events``, ``frontier()``, ``macs``) so the launch ticks, the
report and the Chrome trace are the same code."""
from __future__ import annotations

import math

from ...ir.registry import PIPES

S, MTE2, MTE3, V = (PIPES.index(p) for p in ("S", "MTE2", "MTE3", "V"))
_WEIGHTS = {"exp": "exp", "ln": "log", "sqrt": "sqrt", "rsqrt": "sqrt", "div": "div", "softmax": "softmax"}


def cost(op, hw):
    """(busy ticks, further latency until the data is ready) of one instruction."""
    p = op.pipe
    nbytes = op.attrs.get("bytes")
    if nbytes is None:
        nbytes = sum(r.hi - r.lo for r in op.writes)
    if p == "MTE2":
        return hw.mte2_setup + nbytes / hw.mte2_bytes_per_tick, hw.mte2_latency
    if p == "MTE3":
        return hw.mte3_setup + nbytes / hw.mte3_bytes_per_tick, hw.mte3_latency
    if p == "V":
        repeats = max(1, math.ceil(max(nbytes, sum(r.hi - r.lo for r in op.reads[:1])) / hw.vector_bytes))
        w = hw.vector_weight(_WEIGHTS.get(op.name))
        return hw.vector_issue + w * (hw.vector_op + repeats * hw.vector_repeat), 0.0
    if p == "MTE1":
        return hw.issue + nbytes / hw.mte1_bytes_per_tick, hw.mte1_latency
    if p == "M":
        return hw.mmad_issue + op.attrs.get("macs", 0) / hw.mmad_macs_per_tick, 0.0
    if p == "FIX":
        return hw.issue + nbytes / hw.fix_bytes_per_tick, hw.fix_latency
    if p == "S":
        return (hw.scalar_gm if any(r.space == "GM" for r in op.reads + op.writes) else hw.scalar_op), 0.0
    return hw.issue, 0.0


class BlockTiming:
    def __init__(self, hw, record):
        self.hw = hw
        self.free = [0.0] * len(PIPES)     # a pipe is busy until then
        self.done = [0.0] * len(PIPES)     # its issued instructions' data is ready then
        self.issue = 0.0                   # the scalar unit's program point
        self.last_event = [None] * len(PIPES)
        self.events = [] if record else None
        self.busy = [0.0] * len(PIPES)
        self.waited = [None] * len(PIPES)  # (time, event) of the flag a pipe's next instruction waits for
        self.macs = 0

    def op(self, op, pipe, after=0.0, after_event=None):
        """Schedule an instruction on ``pipe`` no earlier than ``after``; returns its end time."""
        busy, lat = cost(op, self.hw)
        if pipe == S:
            start = max(self.issue, after)
            self.issue = start + busy
        else:
            start = max(self.issue, self.free[pipe], after)
            self.issue += self.hw.issue
        self.free[pipe] = start + busy
        end = start + busy + lat
        self.done[pipe] = max(self.done[pipe], end)
        self.busy[pipe] += busy
        w, self.waited[pipe] = self.waited[pipe], None
        if self.events is not None:
            dep = after_event if after > 0 and start <= after else None
            if dep is None and w is not None and w[1] is not None and start <= w[0]:
                dep = w[1]
            self.events.append((pipe, op.name, start, busy, op.loc[1] if op.loc else None, dep))
            self.last_event[pipe] = len(self.events) - 1
        return end

    def busy_of(self, op):
        return cost(op, self.hw)[0]

    def set_flag(self, pipe):
        """(time the flag fires, the event it follows): when every earlier instruction of ``pipe`` is done."""
        return max(self.done[pipe], self.free[pipe], self.issue) + self.hw.sync, self.last_event[pipe]

    def wait_flag(self, pipe, fired, event=None):
        self.waited[pipe] = (fired, event)
        if pipe == S:
            self.issue = max(self.issue, fired)
        else:
            self.free[pipe] = max(self.free[pipe], fired)

    def barrier_all(self):
        """Every pipe drains; like a flag between two pipes, the barrier itself costs a sync."""
        t = max(max(self.done), max(self.free), self.issue) + self.hw.sync
        self.free = [t] * len(PIPES)
        self.issue = t

    def frontier(self):
        return max(max(self.done), max(self.free), self.issue)

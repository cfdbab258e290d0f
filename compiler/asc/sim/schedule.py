"""The tick model: a per-block schedule of every executed op on its pipe.

Each pipe (S, MTE2, MTE1, V, M, FIX, MTE3) runs its instructions in program order; different pipes run
concurrently. An instruction starts when

- the scalar unit has issued it (the S pipe's program point: scalar work and read-backs delay issue),
- its pipe is free,
- the values it reads are ready (plus a flag sync when they come from another pipe; a scalar produced
  by the vector unit costs a V->S read-back that also stalls the scalar unit, i.e. every later issue;
  a cube result read by the vector unit costs a cube->vector hand-off),
- the buffer it writes is no longer read: tiles are statically allocated, one buffer per tile per
  unrolled clone, so ``unroll_factor`` gives ping-pong slots (WAR),
- and, for MTE2 / MTE1 after a trip of a loop that is not ``parallel`` (C310), the loop-end
  MTE3 -> MTE2 barrier.

The executor records how often each block ran each loop and branch (``Executor.visits``); blocks with
the same record share one schedule. A loop schedules its first trips until the schedule repeats, jumps
over the steady-state trips (every time shifts by the measured period) and schedules the last ones,
so its cost does not grow with the trip count.
"""
from __future__ import annotations

import numpy as np

from ..ir.registry import PIPES
from ..ir.types import TileType

S, MTE2, MTE1, V, M, FIX, MTE3 = (PIPES.index(p) for p in ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3"))
_CUBE = (M, FIX)
# Unrolled groups of a loop scheduled before its steady state is extrapolated (the schedule of a few
# trips repeats from the second group on; tests set it very large to check the extrapolation).
WARM_GROUPS = 2


class _Step:
    __slots__ = ("kind", "op", "stages", "ins", "outs", "name", "line", "body", "orelse", "uf", "barrier",
                 "n_instr", "key")

    def __init__(self, kind, op):
        self.kind = kind
        self.op = op
        self.key = op.id


def _plan_region(block, costs, plan):
    steps = []
    for op in block.ops:
        name = op.name
        if name in ("scf.yield", "scf.condition"):
            continue
        if name == "scf.for" or name == "scf.while":
            st = _Step("loop", op)
            body = [_plan_region(r, costs, plan) for r in op.regions]
            st.body = [s for b in body for s in b]
            st.uf = max(1, int(op.attrs.get("unroll_factor", 1))) if name == "scf.for" else 1
            st.barrier = name == "scf.for" and not op.attrs.get("parallel") and bool(op.attrs.get("has_dma"))
            st.n_instr = sum(1 for o in op.regions[0].ops if not o.regions)  # nested loops are cached apart
            steps.append(st)
            continue
        if name == "scf.if":
            st = _Step("if", op)
            st.body = _plan_region(op.regions[0], costs, plan)
            st.orelse = _plan_region(op.regions[1], costs, plan) if len(op.regions) > 1 else []
            steps.append(st)
            continue
        if name == "mask.region":
            steps.extend(_plan_region(op.regions[0], costs, plan))
            continue
        st = _Step("op", op)
        st.stages = costs[op.id][3] if op.id in costs else ((S, 0.0, 0.0),)
        st.ins = tuple(o.id for o in op.operands)
        st.outs = tuple((r.id, isinstance(r.type, TileType)) for r in op.results)
        st.name = op.name.split(".", 1)[-1] if "kind" not in op.attrs else str(op.attrs["kind"])
        st.line = op.loc.line if op.loc is not None else None
        steps.append(st)
    return steps


def plan(compiled):
    """The kernel's ops in the compact form the scheduler walks (built once per compiled kernel)."""
    p = getattr(compiled, "_schedule_plan", None)
    if p is None:
        p = _plan_region(compiled.fn.body, compiled.costs, None)
        compiled._schedule_plan = p
    return p


class BlockSchedule:
    """The schedule of one block (or of every block with the same loop and branch record)."""

    def __init__(self, hw, visits, events=None):
        self.hw = hw
        self.visits = visits        # key -> count for this block
        self.free = [0.0] * len(PIPES)
        self.busy = [0.0] * len(PIPES)
        self.ready = {}             # value id -> (time, pipe, buffer key, index of its event)
        self.read = {}              # buffer key -> (time the last reader finished, its pipe)
        self.gate = 0.0             # MTE2 / MTE1 start no earlier (loop-end barrier)
        self.done = 0.0             # latest completion of any instruction
        self.stored = 0.0           # latest completion of a store (MTE3)
        self.slot = 0
        self.events = events        # list of (pipe, name, start, dur, line, waited_on) or None

    # -- one instruction --------------------------------------------------------------------------
    def _op(self, st):
        hw = self.hw
        free = self.free
        ready = self.ready
        stages = st.stages
        pipe = stages[0][0]
        t = free[S]                                  # issued in program order by the scalar unit
        cause = None
        for vid in st.ins:
            r = ready.get(vid)
            if r is None:
                continue
            rt, rp, rkey, _ = r
            if rkey is None and rp == V:             # a scalar the vector unit produced: read back
                rt += hw.vector_to_scalar
                if rt > free[S]:
                    free[S] = rt                     # the scalar unit waits too: later issue is delayed
                ready[vid] = (rt, S, None, r[3])     # read once: later uses find it in a scalar register
            elif rp != pipe:
                if rp in _CUBE and pipe == V:
                    rt += hw.cube_to_vector
                elif rp != S:
                    rt += hw.sync
            if rt > t:
                t, cause = rt, r
        if pipe == MTE2 or pipe == MTE1:
            if self.gate > t:
                t = self.gate
        outs = []
        for vid, is_tile in st.outs:
            key = (vid, self.slot) if is_tile else None
            outs.append((vid, key))
            if key is not None:
                w = self.read.get(key)
                if w is not None:
                    wt = w[0] + (hw.sync if w[1] != pipe else 0.0)
                    if wt > t:
                        t = wt
        end = t
        for i, (p, dur, lat) in enumerate(stages):
            if i:
                end += hw.sync
            s = free[p] if free[p] > end else end
            if dur <= 0.0 and p == S and len(stages) == 1:
                end = s
                break
            free[p] = s + dur
            end = s + dur + lat
            self.busy[p] += dur
            if self.events is not None and dur > 0.0:
                # the event this one waited for (a flow arrow in the trace), if a dependency set its start
                dep = cause[3] if cause is not None and i == 0 and cause[1] != p and t >= s else None
                self.events.append((p, st.name, s, dur, st.line, dep))
        last = stages[-1][0]
        if end > self.done:
            self.done = end
        if last == MTE3 and end > self.stored:
            self.stored = end
        if pipe != S and hw.issue:
            free[S] += hw.issue
        read = self.read
        for vid in st.ins:
            r = ready.get(vid)
            if r is not None and r[2] is not None:
                prev = read.get(r[2])
                if prev is None or prev[0] < end:
                    read[r[2]] = (end, last)
        ev = len(self.events) - 1 if self.events else None
        for vid, key in outs:
            ready[vid] = (end, last, key, ev)

    # -- regions ----------------------------------------------------------------------------------
    def run(self, steps):
        for st in steps:
            if st.kind == "op":
                self._op(st)
            elif st.kind == "loop":
                self._loop(st)
            else:
                v = self.visits
                taken = v.get(("then", st.key), 0.0)
                other = v.get(("else", st.key), 0.0)
                if taken or other:
                    self.run(st.body if taken >= other else st.orelse)

    def frontier(self):
        return max(self.done, max(self.free))

    def _shift(self, d):
        """Move the whole schedule state by ``d`` ticks (steady-state trips skipped)."""
        self.free = [f + d for f in self.free]
        self.ready = {k: (t + d, p, b, e) for k, (t, p, b, e) in self.ready.items()}
        self.read = {k: (t + d, p) for k, (t, p) in self.read.items()}
        self.gate += d
        self.done += d
        self.stored += d

    def _trip(self, st, t):
        hw = self.hw
        self.slot = k = t % st.uf
        if st.uf > 1 and hw.interleave_clones:
            # the clones of one unrolled group issue side by side: each starts at the group's issue point
            if k == 0:
                self._group = self.free[S]
                self._group_end = self.free[S]
            else:
                self._group_end = max(self._group_end, self.free[S])
                self.free[S] = self._group + k * hw.issue
        self.free[S] += hw.loop_trip
        self.run(st.body)
        if st.uf > 1 and hw.interleave_clones and k == st.uf - 1:
            self.free[S] = max(self._group_end, self.free[S])
        # the barrier closes the loop body, which after unrolling holds ``uf`` clones
        if st.barrier and hw.loop_barrier and k == st.uf - 1:
            self.gate = max(self.stored, self.gate) + hw.loop_barrier
            self.free[S] = max(self.free[S], self.gate)

    def _loop(self, st):
        hw = self.hw
        entries = self.visits.get(("enter", st.key), 0.0)
        if not entries:
            return
        n = int(round(self.visits.get(("trips", st.key), 0.0) / entries))
        outer_slot = self.slot
        code = st.n_instr * st.uf
        self.free[S] += hw.unroll_fill * (st.uf - 1)
        miss = hw.icache_miss * max(0.0, code / hw.icache_instrs - 1.0) if code > hw.icache_instrs else 0.0
        warm = (WARM_GROUPS + 1) * st.uf if st.uf > 1 else WARM_GROUPS + 1
        tail = st.uf
        t = 0
        while t < n:
            if t == warm and n - t > tail + st.uf:
                skip = ((n - t - tail) // st.uf) * st.uf
                # the period of one unrolled group, measured over the last group scheduled
                period = (self.frontier() - self._mark) / st.uf
                if self.events is not None:
                    self.events.append((S, f"{skip} trips (steady state)", self.free[S], skip * period, None, None))
                trip_busy = [(b - m) / st.uf for b, m in zip(self.busy, self._busy_mark)]
                self._shift(skip * period)
                self.busy = [b + skip * tb for b, tb in zip(self.busy, trip_busy)]
                t += skip
                continue
            if t == warm - st.uf:
                self._mark = self.frontier()
                self._busy_mark = list(self.busy)
            if miss:
                self.free[S] += miss
            self._trip(st, t)
            t += 1
        self.slot = outer_slot


def block_schedules(compiled, hw, visits, core_num, record=False):
    """The schedules of a launch: ``(which, schedules)`` where block ``b`` ran ``schedules[which[b]]``
    (blocks with the same loop and branch record share one)."""
    steps = plan(compiled)
    keys = list(visits)
    if not keys:
        sched = BlockSchedule(hw, {}, [] if record else None)
        sched.run(steps)
        return np.zeros(core_num, dtype=np.int64), [sched]
    table = np.stack([visits[k] for k in keys], axis=1)
    uniq, inverse = np.unique(table, axis=0, return_inverse=True)
    out = []
    for row in uniq:
        sched = BlockSchedule(hw, dict(zip(keys, row.tolist())), [] if record else None)
        sched.run(steps)
        out.append(sched)
    return np.asarray(inverse).reshape(-1), out


def launch_ticks(hw, which, scheds, cube=False):
    """Ticks of the launch and the start of each block: blocks beyond the physical core count run in
    waves (block b on core b mod cores, after the earlier blocks of that core); later blocks of a wave
    finish a little later each (shared DMA and dispatch); the launch adds the floor."""
    span = np.array([s.frontier() for s in scheds])[which]
    cores = hw.aic_cores if cube else hw.aiv_cores
    n = span.shape[0]
    starts = np.zeros(n)
    if n > cores:
        for b in range(cores, n):
            starts[b] = starts[b - cores] + span[b - cores]
    ends = starts + span + hw.block_stagger * (np.arange(n) % cores)
    return hw.launch_ticks + float(ends.max()), starts

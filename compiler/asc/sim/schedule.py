"""The tick model: a per-block schedule of every executed op on its pipe.

Each pipe (S, MTE2, MTE1, V, M, FIX, MTE3) runs its instructions in program order; different pipes run
concurrently. An instruction starts when

- the scalar unit has issued it (the S pipe's program point: scalar work and read-backs delay issue),
- its pipe is free,
- the values it reads are ready (plus a flag sync when they come from another pipe; a scalar produced
  by the vector unit costs a V->S read-back that also stalls the scalar unit, i.e. every later issue;
  a cube result read by the vector unit costs a cube->vector hand-off),
- the buffer it writes is no longer read: tiles are statically allocated, one buffer per tile per
  unrolled clone, so ``unroll_factor`` gives ping-pong slots (WAR); on C220 a buffer read in a loop is
  released only at the end of the unrolled body, once the reader's pipe has finished the whole body
  (pyasc's A2 code frees its queue tiles after the last clone),
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
from ..ir.types import TileType, dma_runs

S, MTE2, MTE1, V, M, FIX, MTE3 = (PIPES.index(p) for p in ("S", "MTE2", "MTE1", "V", "M", "FIX", "MTE3"))
_CUBE = (M, FIX)
# Unrolled groups of a loop scheduled before its steady state is extrapolated (the schedule of a few
# trips repeats from the second group on; tests set it very large to check the extrapolation).
WARM_GROUPS = 1


class _Step:
    __slots__ = ("kind", "op", "stages", "ins", "outs", "name", "line", "body", "orelse", "uf", "barrier",
                 "n_instr", "key", "pipe", "last", "tile_outs", "scalar_outs", "alias", "macs", "fused", "ctrl",
                 "dma")

    def __init__(self, kind, op):
        self.kind = kind
        self.op = op
        self.key = op.id


def _plan_region(block, costs, plan, ctrl=None):
    """``ctrl``: the visit key counting this region's runs per block (its loop's trips or its branch)."""
    steps = []
    for op in block.ops:
        name = op.name
        if name in ("scf.yield", "scf.condition", "scalar.const"):
            continue   # constants are immediates of the instructions that use them
        if name == "scf.for" or name == "scf.while":
            st = _Step("loop", op)
            body = [_plan_region(r, costs, plan, ("trips", op.id)) for r in op.regions]
            st.body = [s for b in body for s in b]
            st.uf = max(1, int(op.attrs.get("unroll_factor", 1))) if name == "scf.for" else 1
            st.barrier = name == "scf.for" and not op.attrs.get("parallel") and bool(op.attrs.get("has_dma"))
            st.n_instr = sum(1 for o in op.regions[0].ops if not o.regions)  # nested loops are cached apart
            steps.append(st)
            continue
        if name == "scf.if":
            st = _Step("if", op)
            st.body = _plan_region(op.regions[0], costs, plan, ("then", op.id))
            st.orelse = _plan_region(op.regions[1], costs, plan, ("else", op.id)) if len(op.regions) > 1 else []
            steps.append(st)
            continue
        if name == "mask.region":
            steps.extend(_plan_region(op.regions[0], costs, plan, ctrl))
            continue
        st = _Step("op", op)
        st.stages = costs[op.id][3] if op.id in costs else ((S, 0.0, 0.0),)
        st.ins = tuple(o.id for o in op.operands)
        st.outs = tuple((r.id, isinstance(r.type, TileType)) for r in op.results)
        st.name = op.name.split(".", 1)[-1] if "kind" not in op.attrs else str(op.attrs["kind"])
        st.line = op.loc.line if op.loc is not None else None
        st.ctrl = ctrl
        st.dma = None
        if op.name in ("tile.load", "tile.store"):   # a GM DMA: clamped at the tensor's end at run time
            store = op.name == "tile.store"
            engine = MTE3 if store else MTE2
            if any(p == engine for p, _, _ in st.stages):
                tile = op.operands[0].type if store else op.results[0].type
                st.dma = (engine, store, tile.nbytes) + dma_runs(tile, op.operands[1 if store else 0].type)
        prev = steps[-1] if steps else None
        if _scalar_only(st) and prev is not None and prev.kind == "op" and _scalar_only(prev):
            # a run of scalar instructions is one step: the same ticks, a fraction of the bookkeeping
            made = {vid for vid, _ in prev.outs}
            prev.ins += tuple(v for v in st.ins if v not in made)
            prev.outs += st.outs
            prev.stages = ((S, prev.stages[0][1] + st.stages[0][1], 0.0),)
            prev.name = "scalar"
            continue
        steps.append(st)
    prev = None
    for st in steps:
        if st.kind == "op":
            st.pipe, st.last = st.stages[0][0], st.stages[-1][0]
            # adjacent vector calls (nothing for another pipe between them) form one vector function where
            # the platform fuses them: only the first pays the call's issue overhead
            st.fused = st.pipe == V and len(st.stages) == 1 and prev is not None and prev.kind == "op" and \
                prev.pipe == V and len(prev.stages) == 1
        prev = st
    for st in steps:
        if st.kind == "op":
            st.tile_outs = tuple(v for v, is_tile in st.outs if is_tile)
            st.scalar_outs = tuple(v for v, is_tile in st.outs if not is_tile)
            st.alias = len(st.stages) == 1 and st.pipe == S    # a zero-cost view (reshape) is ready with its input
            st.macs = 0
            if st.op.name in ("tile.matmul", "tile.matmul_acc"):
                a, b = st.op.operands[0].type.shape, st.op.operands[1].type.shape
                st.macs = a[0] * a[1] * b[1]
    return steps


def _scalar_only(st):
    return len(st.stages) == 1 and st.stages[0][0] == S and st.stages[0][1] > 0.0 and \
        not any(is_tile for _, is_tile in st.outs) and not any(o.type.__class__ is TileType for o in st.op.operands)


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
        self.ready = {}             # value id -> (time, pipe, buffer key, index of its event)
        self.read = {}              # buffer key -> (time the last reader finished, its pipe)
        self.gate = 0.0             # MTE2 / MTE1 start no earlier (loop-end barrier)
        self.done = 0.0             # latest completion of any instruction
        self.macs = 0               # cube multiply-accumulates (roofline)
        self.busy = [0.0] * len(PIPES)  # ticks each pipe is busy (fused vector calls counted as scheduled)
        self.stored = 0.0           # latest completion of a store (MTE3)
        self.done_on = [0.0] * len(PIPES)  # per pipe, when the last instruction ending on it is done
        self.body_reads = None      # buffers read in the current unrolled body (released at its end)
        self.slot = 0
        self.copy = 0               # which copy of the loop body's code runs: its unrolled clone, or the tail
        self.fetched = set()        # (op, code copy) whose instructions are in the instruction cache
        self.events = events        # list of (pipe, name, start, dur, line, waited_on) or None

    # -- one instruction --------------------------------------------------------------------------
    def _clamped(self, st, short):
        """The stages of a DMA whose windows in this block lie partly or wholly past the end of the tensor
        (``short`` bytes outside over the block's instances of it). Clamping takes the block's last tiles:
        so many instances read nothing (their setup only), one moves the bursts of what is inside, the
        others whole tiles; each instance is charged the average, so the block's engine time is exact. A
        store given a negative length (C220) moves what its length field keeps of it (``_note_wrapped``)."""
        engine, store, nbytes, runs, each = st.dma
        hw = self.hw
        n = max(1.0, self.visits.get(st.ctrl, 1.0) if st.ctrl is not None else 1.0)
        empty, part = divmod(min(short, n * nbytes), nbytes)
        whole = n - empty - (1 if part else 0)
        total = whole * hw.dma_busy(runs, each, store) + empty * hw.dma_busy(runs, 0, store)
        if part:
            total += hw.dma_busy(runs, (nbytes - part) / runs, store)
        wrapped = self.visits.get(("wrapped", st.key)) if store else None
        if wrapped:   # stores past the end given a negative length: they move what their length field keeps
            k = self.visits[("wrapped_n", st.key)]
            total += k * (hw.dma_busy(1, wrapped / k, store) - hw.dma_busy(runs, 0, store))
        return tuple((p, total / n if p == engine else d, lat) for p, d, lat in st.stages)

    def _op(self, st):
        hw = self.hw
        free = self.free
        ready = self.ready
        read = self.read
        pipe = st.pipe
        if hw.cold_fetch:
            self._fetch((st.key, self.copy))
        if hw.tile_alloc and st.tile_outs and not st.alias:
            free[S] += hw.tile_alloc * len(st.tile_outs)  # dynamic buffer allocation (queue alloc / free)
            self.busy[S] += hw.tile_alloc * len(st.tile_outs)
        t = free[S]                                  # issued in program order by the scalar unit
        cause = None
        keys = []
        for vid in st.ins:
            r = ready.get(vid)
            if r is None:
                continue
            rt, rp, rkey, _ = r
            if rkey is not None:
                keys.append(rkey)
                if rp != pipe and rp != S:
                    rt += hw.cube_to_vector if (pipe == V and (rp == M or rp == FIX)) else hw.sync
                elif rp == V and pipe == V:
                    rt += hw.vector_chain            # a dependent vector call waits for the producer to drain
            elif rp == V:                            # a scalar the vector unit produced: read back
                rt += hw.vector_to_scalar
                if rt > free[S]:
                    free[S] = rt                     # the scalar unit waits too: later issue is delayed
                ready[vid] = (rt, S, None, r[3])     # read once: later uses find it in a scalar register
            elif rp != pipe and rp != S:
                rt += hw.sync
            if rt > t:
                t, cause = rt, r
        if (pipe == MTE2 or pipe == MTE1) and self.gate > t:
            t = self.gate
        slot = self.slot
        war = t
        for vid in st.tile_outs:                     # the buffer must no longer be read (WAR)
            w = read.get((vid, slot))
            if w is not None:
                wt = w[0] + hw.sync if w[1] != pipe else w[0]
                if wt > war:
                    war = wt
        late = 0.0
        staged = len(st.stages) > 1 and st.last == MTE1
        if staged:
            # a GM -> L1 -> L0 load: its L1 copy needs only its own L1 buffer back (read by the previous
            # L1 -> L0 copy of the same tile and clone); only the L0 copy waits for the L0 buffer's readers
            w = read.get((st.key, "L1", slot))
            if w is not None and w[0] + hw.sync > t:
                t = w[0] + hw.sync
            late = war
        else:
            t = war
        if st.macs:
            self.macs += st.macs
        stages = st.stages
        if st.dma is not None:
            short = self.visits.get(("short", st.key))
            if short:
                stages = self._clamped(st, short)
        end = self._place(stages, t, st.name, st.line, cause, st.fused, st.alias, late)
        last = st.last
        if staged:
            read[(st.key, "L1", slot)] = (self._last_start + stages[-1][1], MTE1)
        if last == MTE3 and end > self.stored:
            self.stored = end
        if pipe != S:
            free[S] += hw.issue
            self.busy[S] += hw.issue
        for k in keys:
            prev = read.get(k)
            if prev is None or prev[0] < end:
                read[k] = (end, last)
        if self.body_reads is not None:
            self.body_reads.update(keys)
        if end > self.done_on[last]:
            self.done_on[last] = end
        events = self.events
        ev = len(events) - 1 if events else None
        for vid in st.tile_outs:
            ready[vid] = (end, last, (vid, slot), ev)
        for vid in st.scalar_outs:
            ready[vid] = (end, last, None, ev)

    def _fetch(self, code):
        """The first run of this code in the launch fetches its instructions into the cold cache."""
        if code not in self.fetched:
            self.fetched.add(code)
            self.free[S] += self.hw.cold_fetch
            self.busy[S] += self.hw.cold_fetch

    def _place(self, stages, t, name, line, cause=None, fused=False, alias=False, late=0.0):
        """Run an instruction's stages ``(pipe, busy, latency)`` in turn, the first no earlier than ``t`` (its
        operands ready, the scalar unit has issued it), each on its pipe once the pipe is free, the last of
        several no earlier than ``late`` (its output buffer released); returns when its result is ready.
        ``cause``: the ``ready`` entry that set ``t`` (a flow arrow in the timeline)."""
        hw = self.hw
        free = self.free
        events = self.events
        end = t
        first = True
        for p, dur, lat in stages:
            if first and fused and hw.vf_fusion:
                dur -= hw.vector_issue
            if not first:
                end += hw.sync
                if late > end:
                    end = late
            s = free[p] if free[p] > end else end
            self._last_start = s
            if dur <= 0.0 and alias:
                end = s
                break
            free[p] = s + dur
            self.busy[p] += dur
            end = s + dur + lat
            if events is not None and dur > 0.0:
                # the event this one waited for (a flow arrow in the trace), if a dependency set its start
                dep = cause[3] if cause is not None and first and cause[1] != p and t >= s else None
                events.append((p, name, s, dur, line, dep))
            first = False
        if end > self.done:
            self.done = end
        return end

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
        self.done_on = [f + d for f in self.done_on]

    def _trip(self, st, t, tail=False, outer=(0, 0)):
        hw = self.hw
        k = t % st.uf
        # the remainder trips run in a tail loop: a copy of the body's code of its own
        copy = (st.key, "tail" if tail and st.uf > 1 else k)
        # inside a clone of an enclosing unrolled loop, this loop is a clone too: tiles and code of its own
        self.slot = k if outer[0] == 0 else (outer[0], k)
        self.copy = copy if outer[1] == 0 else (outer[1],) + copy
        if st.uf > 1 and hw.interleave_clones:
            # the clones of one unrolled group issue side by side: each starts at the group's issue point
            if k == 0:
                self._group = self.free[S]
                self._group_end = self.free[S]
            else:
                self._group_end = max(self._group_end, self.free[S])
                self.free[S] = self._group + k * hw.issue
        self.free[S] += hw.loop_trip
        self.busy[S] += hw.loop_trip
        closes = k == st.uf - 1 or tail        # this trip ends an unrolled body (or is a remainder trip)
        if hw.release_at_body_end and (k == 0 or tail):
            self.body_reads = set()
        self.run(st.body)
        if hw.release_at_body_end and closes:
            # the body's frees come after its last clone: each is a flag set on the reader's pipe, so the
            # buffer is free once that pipe has finished everything the body gave it (a read in a nested
            # loop is released at the end of that loop's body)
            read, done_on = self.read, self.done_on
            for key in self.body_reads:
                t, p = read[key]
                if done_on[p] > t:
                    read[key] = (done_on[p], p)
        if st.uf > 1 and hw.interleave_clones and k == st.uf - 1:
            self.free[S] = max(self._group_end, self.free[S])
        # the barrier closes the loop body, which after unrolling holds ``uf`` clones; the remainder trips
        # run in a tail loop of one clone, closed by its own barrier. The wait ends when the stores issued
        # before it are done and the scalar unit has issued it.
        if st.barrier and hw.loop_barrier and closes:
            self.gate = max(self.stored, self.gate, self.free[S]) + hw.loop_barrier
            self.free[S] = max(self.free[S], self.gate)

    def _loop(self, st):
        hw = self.hw
        entries = self.visits.get(("enter", st.key), 0.0)
        if not entries:
            return
        n = int(round(self.visits.get(("trips", st.key), 0.0) / entries))
        outer_slot, outer_copy, outer_reads = self.slot, self.copy, self.body_reads
        # an enclosing unrolled loop's clone group (its issue point), which this loop's groups must not move
        outer_group = getattr(self, "_group", None), getattr(self, "_group_end", None)
        code = st.n_instr * st.uf
        # a body larger than the instruction cache thrashes it (least recently used lines are the next
        # needed): every trip refetches all of it, not only the overflow
        miss = hw.icache_miss * code / hw.icache_instrs if code > hw.icache_instrs else 0.0
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
                self._shift(skip * period)
                self.macs += (self.macs - self._macs_mark) // st.uf * skip
                self.busy = [b + (b - m) / st.uf * skip for b, m in zip(self.busy, self._busy_mark)]
                t += skip
                continue
            if t == warm - st.uf:
                self._mark = self.frontier()
                self._macs_mark = self.macs
                self._busy_mark = list(self.busy)
            if miss:
                self.free[S] += miss
                self.busy[S] += miss
            self._trip(st, t, t >= n - n % st.uf, (outer_slot, outer_copy))
            t += 1
        self.slot, self.copy, self.body_reads = outer_slot, outer_copy, outer_reads
        self._group, self._group_end = outer_group


def block_schedules(compiled, hw, visits, core_num, record=False):
    """The schedules of a launch: ``(which, schedules)`` where block ``b`` ran ``schedules[which[b]]``
    (blocks with the same loop and branch record share one)."""
    keys = tuple(visits)
    # relaunches with the same loop and branch record (the common case) reuse the schedules
    memo = compiled.__dict__.setdefault("_schedule_memo", {})
    # keyed by the table itself (not its id): a tuned copy during calibration is another table
    key = (hw, core_num, record, keys) + tuple(visits[k].tobytes() for k in keys)
    hit = memo.get(key)
    if hit is not None:
        return hit
    steps = plan(compiled)
    table = np.stack([visits[k] for k in keys], axis=1) if keys else np.zeros((core_num, 0))
    if not keys or (table == table[0]).all():
        uniq, inverse = table[:1], np.zeros(core_num, dtype=np.int64)
    else:
        rows = {}
        inverse = np.array([rows.setdefault(r.tobytes(), len(rows)) for r in table], dtype=np.int64)
        uniq = table[[list(inverse).index(i) for i in range(len(rows))]]
    out = []
    for row in uniq:
        sched = BlockSchedule(hw, dict(zip(keys, row.tolist())), [] if record else None)
        sched.run(steps)
        out.append(sched)
    if len(memo) >= 16:
        memo.clear()
    memo[key] = result = (np.asarray(inverse).reshape(-1), out)
    return result


def launch_ticks(hw, which, scheds, cube=False):
    """Ticks of the launch and the start of each block: blocks beyond the physical core count run in
    waves (block b on core b mod cores, after the earlier blocks of that core); later blocks of a wave
    finish a little later each (shared DMA and dispatch); the launch adds the floor. Schedules reused
    from ``block_schedules``' memo reuse their result (callers only read it)."""
    memo = scheds[0].__dict__.setdefault("_launch_ticks", {})   # these schedules' earlier launches
    key = (hw, cube, which.tobytes())
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _launch_ticks(hw, which, scheds, cube)
    return hit


def _launch_ticks(hw, which, scheds, cube):
    span = np.array([s.frontier() for s in scheds])[which]
    cores = hw.aic_cores if cube else hw.aiv_cores
    n = span.shape[0]
    starts = np.zeros(n)
    if n > cores:
        for b in range(cores, n):
            starts[b] = starts[b - cores] + span[b - cores]
    ends = starts + span + hw.block_stagger * (np.arange(n) % cores)
    return hw.launch_ticks + float(ends.max()), starts

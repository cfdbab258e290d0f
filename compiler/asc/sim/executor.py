"""Executes a traced kernel for every block of a launch.

All blocks, and all iterations of ``parallel=True`` loops, run as one batch of *lanes*: each op is one
numpy call over the whole batch (see ``lanes.py``). Sequential loops step through their trips with
the lanes that still iterate (loops that carry values batch what they can: ``carried.py``); runtime
``if`` splits the lanes and merges the results. The facts of the IR a run dispatches by are found once
(``steps.py``), and a batched loop's lanes are laid out by ``batching.py``.
"""
from __future__ import annotations

import linecache

import numpy as np

from ..ir.faults import KernelRuntimeError
from ..ir.kernel_warnings import KernelWarning, UninitializedReadWarning, UnmodelledHardwareWarning, located
from ..ir.builder import localise
from ..ir.registry import PIPES
from ..ir.types import TileType
from .batching import batch_lanes, natural_blocks
from .carried import fold, hoist
from .checks import GmLoopTracker
from .errors import SimError
from .fp_errors import launch_scope
from .lanes import Env, Shared, UnsetAccumulator, gather, int64_const, per_lane
from .ops import IMPLS
from .ops.arith import FreshBinary, stored_binaries
from .ops.tile import mask_lanes
from .steps import _CONDITION, _CONST, _FOR, _IF, _MASK, _WHILE, _YIELD, cube_op_ids, last_uses, op_steps
from .undefined import Undef, lanes_of, merge_lanes, propagate

_LAZY = (Shared, UnsetAccumulator)
_SPECIAL = (Shared, UnsetAccumulator, Undef)
_const = IMPLS["scalar.const"].execute


class Executor:
    def __init__(self, fn, hw, core_num, costs, batchable=frozenset(), gm_loops=frozenset(), checks=True,
                 block_order=None, hoistable=None, plans=None, cube_ops=None):
        self.fn = fn
        self.batchable = batchable               # ids of sequential loops whose trips may run as one batch
        self.gm_loops = gm_loops                 # ids of un-barriered loops that load and store global memory
        self.hoistable = hoistable or {}         # carried-value loop id -> ops independent of the carried chain
        # loop id -> (hoisted ops, the other ops of the body), ("fold", loop id) -> its fold plan: facts of
        # the IR, kept by the caller across launches of one kernel
        self._split = {} if plans is None else plans
        self.checks = checks                     # race / coverage / dependency checks (bounds always)
        self.hw = hw
        self.core_num = core_num
        # Lanes start in block order (or a permutation of it: the order of same-element writes in one op).
        self.blocks = natural_blocks(core_num) if block_order is None else block_order
        self.lanes = core_num
        self.costs = costs                       # op id -> (pipe, ticks, further (pipe, ticks), all stages)
        # The ticks come from the schedule of the visits below (``sim/schedule.py``); the run itself only
        # notes whether an op of the cube ran (the launch is then timed on the cube cores).
        self.cube_ops = cube_op_ids(costs) if cube_ops is None else cube_ops
        self.cube = False
        self.visits = {}                     # ("enter"|"trips"|"then"|"else", op id) -> count per block
        self._counts = None
        self.bytes = {"in": 0, "out": 0}
        self.warnings = []
        self._warned = set()
        self.mask_stack = []
        self.trackers = []                       # GmLoopTracker of the un-barriered loops being run
        self.stored_binaries = stored_binaries(fn)
        self.env = None                          # the env of the op being run, while trackers are active
        self.recorder = None                     # sim.replay.Recorder while a launch is recorded

    # -- lane bookkeeping -------------------------------------------------------------------------
    def _set_lanes(self, blocks, counts=None):
        """Make ``blocks`` the current lanes; ``counts``: their per-block counts when the caller knows
        them (``block_counts`` of a lane set it saved, or derived from the one it expands)."""
        self.blocks = blocks
        self.lanes = blocks.shape[0]
        self._counts = counts

    @property
    def block_counts(self):
        if self._counts is None:
            self._counts = np.bincount(self.blocks, minlength=self.core_num).astype(np.float64)
        return self._counts

    def _visit(self, key, per_block):
        """Record per-block counts of a loop / branch for the schedule (``sim/schedule.py``)."""
        v = self.visits.get(key)
        if v is None:
            self.visits[key] = np.array(per_block, dtype=np.float64)
        else:
            v += per_block

    def count_bytes(self, kind, n):
        self.bytes[kind] += int(n)

    def warn(self, op, text, kind=KernelWarning):
        """Add a launch-report warning of ``kind`` located at ``op`` (each distinct one once; without an
        op the launcher puts it at the kernel's definition)."""
        self.add_warning(located(op.loc if op is not None else None, text, kind))

    def add_warning(self, w):
        """Add the launch-report warning ``w`` (a ``LaunchWarning``) unless it is there already."""
        if w not in self._warned:
            self._warned.add(w)
            self.warnings.append(w)

    # -- running ----------------------------------------------------------------------------------
    def run(self, arg_values):
        env = Env()
        env.rec = self.recorder
        for a, v in zip(self.fn.args, arg_values):
            env[a.id] = v
        with launch_scope():
            self.run_block(self.fn.body, env)

    def run_block(self, block, env):
        return self.run_ops(block.ops, env, last_uses(self.fn, block))

    def run_ops(self, ops, env, dead=None):
        """Run ``ops`` in ``env``; ``dead``: per op, the values it is the last in the region to read (let go
        once it ran, so a launch holds at most the values still to be read: ``last_uses``)."""
        vals = env.vals
        get = vals.get
        rec = self.recorder
        for kind, op, rids, gone, fused in op_steps(self.fn, ops, dead, self.stored_binaries):
            if not kind and rec is None and not self.trackers:   # (the common op: ``_exec`` without its cases)
                args = []
                for o in op.operands:
                    v = get(o.id)
                    args.append(env[o.id] if v is None else v)
                out = self.apply(op, args, fused)
                outs = () if out is None else out if isinstance(out, tuple) else (out,)
            elif kind:
                if kind == _CONST and (rec is None or rids[0] in rec.structure):
                    vals[rids[0]] = _const(self, op)   # (made once per value; no operands, no ticks to note)
                    continue
                if kind == _YIELD:
                    outs = [env[o.id] for o in op.operands]
                    if rec is not None:
                        rec.bind(op.operands, outs)
                    return outs
                if kind == _CONDITION:
                    return [env[o.id] for o in op.operands]
                if kind == _FOR:
                    outs = self._for(op, env)
                elif kind == _IF:
                    outs = self._if(op, env)
                elif kind == _WHILE:
                    outs = self._while(op, env)
                elif kind == _MASK:
                    self._mask(op, env)
                    outs = ()
                else:
                    outs = self._exec(op, env, fused)
            else:
                outs = self._exec(op, env, fused)
            if len(rids) == 1:
                if outs:
                    vals[rids[0]] = outs[0]
            else:
                for r, v in zip(rids, outs):
                    vals[r] = v
            for vid in gone:
                vals.pop(vid, None)
        return []

    def _exec(self, op, env, into_store=False):
        """Run one op; ``into_store``: a binary whose result only the next op (a store) uses, which may
        leave it to that store to compute (``FreshBinary``)."""
        get = env.vals.get
        args = []
        for o in op.operands:
            v = get(o.id)
            args.append(env[o.id] if v is None else v)   # (not bound here yet: the enclosing region's, gathered)
        if self.trackers:
            self.env = env
        rec = self.recorder
        if rec is None:
            out = self.apply(op, args, into_store)
            return () if out is None else out if isinstance(out, tuple) else (out,)
        rec.operands = args                   # (loads and stores record themselves, with these)
        out = self.apply(op, args, into_store)
        outs = [] if out is None else out if isinstance(out, tuple) else (out,)
        if op.name not in ("tile.load", "tile.store"):
            if not op.results:
                rec.fail(f"{op.name} has effects of its own")
            elif op.results[0].id not in rec.structure:
                rec.op(self, op, args, outs, type(out) is FreshBinary)
        return outs

    def apply(self, op, args, into_store=False):
        """The result of ``op`` on the operand values ``args``: what they carry (undefined elements, shared
        windows) handed over as the op's implementation takes them, its ticks charged, masks applied."""
        opdef = IMPLS[op.name]
        undef = None
        for a in args:
            if type(a) in _SPECIAL:
                args, undef = self._unwrap(op, opdef, args)
                break
        else:
            if not self.mask_stack:   # (the common case: plain operands, no mask)
                try:
                    out = FreshBinary.of(op, *args) if into_store else None
                    if out is None:
                        out = opdef.execute(self, op, *args)
                except SimError as e:
                    raise self._located(op, e) from None
                if op.id in self.cube_ops and self.lanes:
                    self.cube = True
                return out
        if self.mask_stack and opdef.stores:
            self.warn(op, localise("@mask does not constrain stores: this store writes the whole tile (the mask "
                               "only applies to vector computations); to write part of a tile, store a smaller "
                               "tile or use @where before the store", getattr(self.fn, "dialect", None)),
                      UnmodelledHardwareWarning)
        try:
            out = FreshBinary.of(op, *args) if into_store and not self.mask_stack and undef is None else None
            if out is None:
                out = opdef.execute(self, op, *args)
        except SimError as e:
            raise self._located(op, e) from None
        if op.id in self.cube_ops and self.lanes:
            self.cube = True
        if self.mask_stack and op.results and isinstance(op.results[0].type, TileType) and \
                PIPES[self.costs[op.id][0]] == "V":
            out = self._apply_mask(op, out)
        if undef is not None:
            try:
                out = propagate(self, op, opdef, args, undef[0], undef[1], out)
            except SimError as e:
                raise self._located(op, e) from None
        return out

    def _unwrap(self, op, opdef, args):
        """The operands as the op's implementation takes them, and (masks, source) when some carry
        undefined elements (``sim.undefined``), else None."""
        masks, source, plain = None, None, []
        for i, a in enumerate(args):
            if type(a) is Undef:
                if masks is None:
                    masks, source = [None] * len(args), a.source
                masks[i] = a.mask
                a = a.data
            if type(a) in _LAZY and not opdef.shared_operands:
                a = self.materialise(op, a)
            plain.append(a)
        return plain, (None if masks is None else (masks, source))

    def materialise(self, op, value):
        """The per-lane array of a lazily represented tile value, as ``op`` reads it."""
        if type(value) is UnsetAccumulator:
            self.warn(op, "an accumulator from zeros_acc is read before any matmul_acc wrote it; the hardware "
                      "does not clear L0C, so this reads stale data (the simulator reads zeros)",
                      UninitializedReadWarning)
            return value.zeros
        return value.materialise()

    def _located(self, op, e):
        lines = [str(e)]
        if op.loc is not None:
            src = linecache.getline(op.loc.file, op.loc.line).rstrip()
            lines.insert(0, f"at {op.loc}:")
            if src:
                lines.insert(1, "    " + src.strip())
        if e.blocks is not None and len(np.atleast_1d(e.blocks)):
            blk = sorted(set(np.atleast_1d(self.blocks[np.atleast_1d(e.blocks)]).tolist()))
            lines.append(f"in block(s) {blk[:8]}{' ...' if len(blk) > 8 else ''} of {self.core_num}")
        if getattr(e, "hint", None):
            lines.append(f"hint: {localise(e.hint, getattr(self.fn, 'dialect', None))}")
        err = KernelRuntimeError("\n".join(lines))
        err.category = type(e).__name__
        return err

    # -- control flow -----------------------------------------------------------------------------
    def _trips(self, lb, ub, step, op):
        if lb.ndim == 0 and ub.ndim == 0 and step.ndim == 0 and step != 0:  # the common uniform loop
            lo, hi, st = int(lb), int(ub), int(step)
            trips = max(0, -(-(hi - lo) // st))
            return int64_const(trips), int64_const(lo), int64_const(st)
        if np.ndim(step) == 0 and step != 0:   # a common step (grid-stride loops: the start varies per lane)
            st = int(step)
            lb, ub = np.asarray(lb, dtype=np.int64), np.asarray(ub, dtype=np.int64)
            trips = (ub - lb + st - 1) // st if st > 0 else (lb - ub - st - 1) // -st
            return np.maximum(trips, 0), lb, int64_const(st)
        if np.any(step == 0):
            raise self._located(op, SimError("loop step must not be zero", "a zero step never ends the loop: "
                                             "check the step argument of range"))
        lb, ub, step = (np.asarray(x, dtype=np.int64) for x in (lb, ub, step))
        trips = np.where(step > 0, (ub - lb + step - 1) // np.where(step > 0, step, 1),
                         (lb - ub - step - 1) // np.where(step < 0, -step, 1))
        return np.maximum(trips, 0), lb, step

    def _for(self, op, env):
        lb, ub, step = (np.asarray(env[o.id]) for o in op.operands[:3])
        inits = [env[o.id] for o in op.operands[3:]]
        body = op.regions[0]
        trips, lb, step = self._trips(lb, ub, step, op)
        L = self.lanes
        trips = per_lane(trips, L)
        if not inits and (op.attrs.get("parallel", False) or op.id in self.batchable):
            self._batched_for(op, body, env, trips, lb, step)
            return []
        return self._sequential_for(op, body, env, trips, lb, step, inits)

    def _visit_loop(self, op, trips):
        """Record a loop's entries and trips per block; returns the trips per block."""
        self._visit(("enter", op.id), self.block_counts)
        per_block = np.bincount(self.blocks, weights=trips, minlength=self.core_num)
        self._visit(("trips", op.id), per_block)
        return per_block

    def _batched_for(self, op, body, env, trips, lb, step):
        """Every trip of every lane as one batch (parallel loops, and sequential ones no trip of which
        depends on another: ``ir.analysis.batchable_loops``); trips are charged as if run in turn."""
        L = self.lanes
        counts = self.block_counts
        per_block = self._visit_loop(op, trips)
        batch = batch_lanes(L, trips, lb, step, self.blocks)
        if batch is not None:
            self._run_batch(op, body, env, *batch, per_block, counts)

    def _run_batch(self, op, body, env, parent, local, iv, blocks, span, per_block, counts):
        """Run a batched loop's body over its lanes (lane k: trip ``local[k]`` of lane ``parent[k]``, induction
        value ``iv[k]``, block ``blocks[k]``); ``span``: the most trips of a lane."""
        saved = self.blocks
        child = Env(env, parent)
        child[body.args[0].id] = iv
        tracker = self._tracker(op, span)
        if tracker is not None:
            child[tracker.key] = parent * tracker.span + local
            self._not_recorded("a loop's memory dependencies are tracked")
        self._set_lanes(blocks, per_block.copy())   # every lane once per trip it runs
        try:
            self.run_block(body, child)
        finally:
            self._set_lanes(saved, counts)
            if tracker is not None:
                self.trackers.pop()

    def _merge(self, full, idx, part, lanes):
        """A lane subset's value merged into the lane-wide one (``undefined.merge_lanes``), recorded."""
        out = merge_lanes(full, idx, part, lanes)
        if self.recorder is not None:
            self.recorder.merged(full, idx, part, lanes, out)
        return out

    def _not_recorded(self, why):
        if self.recorder is not None:
            self.recorder.fail(why)

    def _tracker(self, op, span):
        """Start tracking the global-memory accesses of an un-barriered loop that may depend on itself."""
        if not self.checks or op.id not in self.gm_loops or span <= 1:
            return None
        tracker = GmLoopTracker(op, span)
        self.trackers.append(tracker)
        return tracker

    def _sequential_for(self, op, body, env, trips, lb, step, carried):
        if self.recorder is not None:
            self.recorder.bind(op.operands[3:], carried)
        L = self.lanes
        tmax = int(trips.max()) if L else 0
        uniform = bool(np.all(trips == tmax))
        saved = self.blocks
        counts = self.block_counts
        self._visit_loop(op, trips)
        tracker = self._tracker(op, tmax)
        if tracker is not None:
            self._not_recorded("a loop's memory dependencies are tracked")
        hoisted = None
        if uniform and tmax > 1 and tracker is None and op.id in self.hoistable:
            hoisted, ops = hoist(self, op, body, env, tmax, lb, step)
            folded = fold(self, op, body, ops, hoisted, carried, tmax)
            if folded is not None:
                return folded
        try:
            for t in range(tmax):
                if uniform:
                    idx = None
                    child = Env(env, None)
                    self._set_lanes(saved, counts)
                    vals = carried
                else:
                    idx = np.nonzero(trips > t)[0]
                    child = Env(env, idx)
                    self._set_lanes(saved[idx])
                    vals = [lanes_of(c, idx) for c in carried]
                    if self.recorder is not None:
                        for c, v in zip(carried, vals):
                            self.recorder.gathered(c, v, idx, carried=True)
                if tracker is not None:
                    child[tracker.key] = (np.arange(L) if idx is None else idx) * tmax + t
                iv = (lb if idx is None or lb.ndim == 0 else lb[idx]) + t * (step if idx is None or step.ndim == 0 else step[idx])
                child[body.args[0].id] = np.asarray(iv, dtype=np.int32)
                for a, v in zip(body.args[1:], vals):
                    child[a.id] = v
                if hoisted is not None:
                    sel = np.arange(L) * tmax + t
                    for rid, v in hoisted.items():
                        child[rid] = g = gather(v, sel)
                        if self.recorder is not None:
                            self.recorder.gathered(v, g, sel)
                    out = self.run_ops(ops, child)
                else:
                    out = self.run_block(body, child)
                if idx is None:
                    carried = out
                else:
                    carried = [self._merge(c, idx, o, L) for c, o in zip(carried, out)]
        finally:
            self._set_lanes(saved, counts)
            if tracker is not None:
                self.trackers.pop()
        return carried

    def _if(self, op, env):
        cond = np.asarray(env[op.operands[0].id]).astype(bool)
        then_r, else_r = op.regions
        if cond.ndim == 0 or cond.shape[0] == 1 or np.all(cond == cond[0]):
            taken = bool(cond.reshape(-1)[0])
            self._visit(("then" if taken else "else", op.id), self.block_counts)
            taken = then_r if taken else else_r
            return self.run_block(taken, Env(env, None))
        L = self.lanes
        saved, counts = self.blocks, self._counts
        results = [None] * len(op.results)
        try:
            for region, sel in ((then_r, np.nonzero(cond)[0]), (else_r, np.nonzero(~cond)[0])):
                if sel.size == 0:
                    continue
                self._set_lanes(saved[sel])
                self._visit(("then" if region is then_r else "else", op.id), self.block_counts)
                out = self.run_block(region, Env(env, sel))
                results = [self._merge(r, sel, o, L) for r, o in zip(results, out)]
        finally:
            self._set_lanes(saved, counts)
        return results

    def _while(self, op, env):
        before, after = op.regions
        L = self.lanes
        saved, counts = self.blocks, self._counts
        carried = [env[o.id] for o in op.operands]
        active = np.arange(L)
        final = list(carried)
        self._visit(("enter", op.id), self.block_counts)
        try:
            while active.size:
                self._set_lanes(saved[active])
                self._visit(("trips", op.id), self.block_counts)
                child = Env(env, active if active.size != L else None)
                # (values with undefined elements keep their masks through both regions: ``sim.undefined``)
                vals = [lanes_of(c, active) for c in carried] if active.size != L else carried
                for a, v in zip(before.args, vals):
                    child[a.id] = v
                cond, *passed = self.run_block(before, child)
                cond = np.broadcast_to(np.asarray(cond).astype(bool), (active.size,))
                done = ~cond
                if np.any(done):
                    ended = np.nonzero(done)[0]
                    final = [merge_lanes(f, active[done], lanes_of(p, ended) if np.ndim(p) else p, L)
                             for f, p in zip(final, passed)]
                keep = np.nonzero(cond)[0]
                if keep.size == 0:
                    break
                self._set_lanes(saved[active[keep]])
                body = Env(env, active[keep])
                for a, p in zip(after.args, passed):
                    body[a.id] = lanes_of(p, keep) if np.ndim(p) else p
                out = self.run_block(after, body)
                carried = [merge_lanes(c, active[keep], o, L) for c, o in zip(carried, out)]
                active = active[keep]
        finally:
            self._set_lanes(saved, counts)
        return final

    # -- masks ------------------------------------------------------------------------------------
    def _mask(self, op, env):
        args = [env[o.id] for o in op.operands]
        self.mask_stack.append((op.attrs, args))
        try:
            self.run_block(op.regions[0], Env(env, None))
        finally:
            self.mask_stack.pop()

    def _apply_mask(self, op, out):
        if isinstance(out, tuple):  # several results (layer_norm): the mask applies to the element-wise one
            return (self._apply_mask(op, out[0]),) + out[1:]
        attrs, args = self.mask_stack[-1]
        shape = op.results[0].type.shape
        m = mask_lanes(attrs["mode"], args, shape, out.dtype)
        other = args[-1] if attrs["has_other"] else 0
        other = np.asarray(other).astype(out.dtype)
        if m.ndim > len(shape):
            return np.where(m, out, other.reshape((-1,) + (1,) * len(shape)) if other.ndim else other)
        return np.where(m[None], out, other.reshape((-1,) + (1,) * len(shape)) if other.ndim else other)

    def run_masked_region(self, op, args):  # registry hook (mask.region is dispatched by run_block)
        raise AssertionError("mask.region is executed by the executor directly")

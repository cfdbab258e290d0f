"""Loops that carry values: the ops off the carried chain run for every trip of every lane as one batch
(``hoist``), and a chain that is only ``acc = acc <op> h`` runs one op per trip over every lane
(``fold``). Both give the values and ticks of running the trips in turn."""
from __future__ import annotations

import numpy as np

from .fp_errors import ignored
from .lanes import Env, Shared, UnsetAccumulator, per_lane
from .ops.arith import _UFUNC, binary_values, compute_dtype
from .undefined import Undef


def hoist(ex, op, body, env, tmax, lb, step):
    """Run the ops of a carried-value loop that do not depend on the carried chain for every trip of
    every lane as one batch (lane-major: lane l's trip t is row l * tmax + t); their ticks are charged
    as if each trip ran them. Returns their results and the remaining ops of the body."""
    split = ex._split.get(op.id)
    if split is None:
        ids = ex.hoistable[op.id]
        split = ([o for o in body.ops if o.id in ids], [o for o in body.ops if o.id not in ids])
        ex._split[op.id] = split
    first, rest = split
    L = ex.lanes
    saved = ex.blocks
    counts = ex.block_counts
    parent = np.repeat(np.arange(L), tmax)
    if lb.ndim == 0 and step.ndim == 0:
        iv = np.tile((np.arange(tmax) * int(step) + int(lb)).astype(np.int32), L)
    else:
        local = np.tile(np.arange(tmax), L)
        iv = (per_lane(lb, L)[parent] + local * per_lane(step, L)[parent]).astype(np.int32)
    child = Env(env, parent)
    child[body.args[0].id] = iv
    ex._set_lanes(np.repeat(saved, tmax), counts * tmax)
    try:
        ex.run_ops(first, child)
    finally:
        ex._set_lanes(saved, counts)
    return {r.id: child.vals[r.id] for o in first for r in o.results}, rest


_FOLDS = ("add", "mul", "max", "min")
# The lanes of a fold run in chunks of about this many bytes of operands: each lane's trips then reuse
# what the cache holds instead of streaming the whole batch once per trip.
_CHUNK_BYTES = 1 << 21


def _fold_plan(ex, op, body, ops):
    """When what is left of a carried-value loop after hoisting is only ``acc = acc <op> h`` per carried
    value (h hoisted, op one of + * max min, one dtype): per value the op, whether the carried value is
    its first operand, and the hoisted operand."""
    key = ("fold", op.id)
    if key in ex._split:
        return ex._split[key]
    plan = None
    args = body.args[1:]
    *binops, last = ops
    if last.name == "scf.yield" and len(binops) == len(args) and len(last.operands) == len(args):
        plan = []
        for a, y in zip(args, last.operands):
            b = y.owner
            if getattr(b, "name", None) != "tile.binary" or b not in binops or b.attrs["kind"] not in _FOLDS:
                plan = None
                break
            x, h = b.operands
            first = x.id == a.id            # operand order as written (max / min of signed zeros)
            if not first:
                x, h = h, x
            dtype = b.results[0].type.dtype
            if x.id != a.id or h.id == a.id or \
                    any(v.type.dtype != dtype or v.type.shape != b.results[0].type.shape for v in (x, h)):
                plan = None
                break
            plan.append((b, first, h.id))
    ex._split[key] = plan
    return plan


def fold(ex, op, body, ops, hoisted, carried, tmax):
    """Run the carried chain ``acc = acc <op> h_t`` of every trip without the rest of the loop: the
    same binary op, trip after trip, on every lane at once (the same rounding as the trip-by-trip
    run); each trip's operand is a view of the hoisted batch where it can be."""
    if ex.mask_stack:
        return None
    plan = _fold_plan(ex, op, body, ops)
    if plan is None or any(hid not in hoisted or type(hoisted[hid]) is UnsetAccumulator for _, _, hid in plan) \
            or any(type(c) in (UnsetAccumulator, Undef) for c in carried) \
            or any(type(hoisted[hid]) is Undef for _, _, hid in plan):
        return None  # (undefined elements: the trips run in turn, following them)
    L = ex.lanes
    out = fold_values(plan, hoisted, carried, L, tmax)
    if ex.recorder is not None:
        ex.recorder.fold(fold_values, op, plan, hoisted, carried, L, tmax, out)
    if any(b.id in ex.cube_ops for b, _, _ in plan):
        ex.cube = True
    return out


def fold_values(plan, hoisted, carried, L, tmax):
    """The carried values after ``tmax`` trips of the fold ``plan`` over ``L`` lanes."""
    out = []
    for (b, first, hid), init in zip(plan, carried):
        h = hoisted[hid]
        kind = b.attrs["kind"]
        if type(init) is Shared:   # (one window shared by every lane: broadcast, not copied per lane)
            acc = init.windows if init.windows.shape[0] == 1 else init.materialise()
        else:
            acc = init
        dtype = b.results[0].type.dtype.to_numpy()
        tail = b.results[0].type.shape
        if type(h) is Shared:   # the distinct windows, picked per trip
            windows, index = h.windows, h.index.reshape(L, tmax)
            trip = lambda lo, hi, t: windows[index[lo:hi, t]]  # noqa: E731
        else:
            h = np.asarray(h)
            if h.shape[0] == 1:
                trip = lambda lo, hi, t: h  # noqa: E731
            else:
                hv = h.reshape((L, tmax) + tail)
                trip = lambda lo, hi, t: hv[lo:hi, t]  # noqa: E731
        if compute_dtype(dtype) == dtype and kind in _UFUNC:
            # computed in its own dtype: one ufunc per trip into one buffer (what binary_values does,
            # without a new array per trip), lanes in chunks whose operands stay in cache across the trips
            ufunc = _UFUNC[kind]
            init, acc = acc, np.empty((L,) + tail, dtype)    # C order, as a tile op returns it
            acc[...] = init
            chunk = max(1, _CHUNK_BYTES // max(1, tmax * acc[:1].nbytes))
            with ignored():
                for lo in range(0, L, chunk):
                    part = acc[lo:lo + chunk]
                    for t in range(tmax):
                        if first:
                            ufunc(part, trip(lo, lo + chunk, t), out=part)
                        else:
                            ufunc(trip(lo, lo + chunk, t), part, out=part)
        else:
            for t in range(tmax):
                operand = trip(0, L, t)
                acc = binary_values(kind, acc, operand, dtype) if first else binary_values(kind, operand, acc, dtype)
        out.append(acc)
    return out

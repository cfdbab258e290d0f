"""Recorded launches: the tile-data work of a launch, replayed on later launches with the same structure.

A launch is fixed by its *structure*: the scalar arguments, the buffers' sizes and dtypes, the number of
blocks and the engine's switches. When a kernel's lanes, loop trips and memory windows follow from the
structure alone (``ir.analysis.launch_structure``), a second launch with the same structure runs the same
ops on the same lanes and touches the same windows; only the tile data differ. Its bounds, race, coverage
and dependency checks give what they gave the first time, and so do its ticks.

The first launch of a structure runs in full and, alongside, records its data steps in order: every op on
tile data (with the lanes it ran on), every load and store (the window geometry it took), every gather of
a value into a loop's lanes and every carried fold. A later launch with that structure runs just these
steps on its own buffers (``Tape.replay``) and reuses the recorded report. Anything the recorder does not
follow (a path it has no step for, a value it did not see made) abandons the recording, and launches keep
running in full. A launch that warned is not recorded either: its checks are worth repeating.
"""
from __future__ import annotations

import numpy as np

from .chunks import gather_windows, scatter_windows, window_parts
from .errors import SimError
from .fp_errors import launch_scope
from .lanes import Shared, UnsetAccumulator, gather
from .memory import sliding_windows
from .ops import IMPLS
from .ops.arith import FreshBinary
from .ops.gm_store import _write
from .ops.memory import UndefinedStoreWarning, stored_values, undefined_store_warning
from .sizes import array_bytes
from .undefined import Undef, lanes_of, merge_lanes, wrap
from .views import strided

# Intermediate values are kept alive while a launch records (their ids name them); a launch whose values
# outgrow this is not recorded. Nor is one whose tape would hold more than _TAPE_BYTES of index arrays.
_KEEP_BYTES = 256 << 20
_TAPE_BYTES = 64 << 20
_MAX_STEPS = 200_000
_SPECIAL = (Shared, UnsetAccumulator, Undef)


class Recorder:
    """Follows one launch, turning its data steps into a ``Tape``."""

    def __init__(self, structure, buffers):
        self.structure = structure          # ids of the IR values that are structure (captured as they are)
        self.buffers = {id(b): i for i, b in enumerate(buffers)}
        self.steps = []
        self._slot = {}                     # id(value object) -> slot
        self._keep = []                     # the objects behind those ids, alive until the recording ends
        self._kept = 0
        self._held = 0                      # bytes of the index arrays the steps hold
        self.operands = None                # the operands of the op being run, as the environment holds them
        self.failed = None

    def fail(self, why):
        if self.failed is None:
            self.failed = why
            self.steps = []

    # -- values ----------------------------------------------------------------------------------
    def new_slot(self, obj):
        s = len(self._keep)
        self._slot[id(obj)] = s
        self._keep.append(obj)
        if type(obj) is np.ndarray and obj.base is None:
            self._kept += obj.nbytes
            if self._kept > _KEEP_BYTES:
                self.fail("its intermediate values are too large to record")
        return s

    def operand(self, value, obj):
        """How a step gets an operand: ``(True, slot)`` for tile data, ``(False, obj)`` for a structure
        value (the same in every launch of the structure). None when the data value was not recorded."""
        if value.id in self.structure:
            return False, obj
        s = self._slot.get(id(obj))
        return None if s is None else (True, s)

    def bind(self, values, objs):
        """Values of structure IR values that become data (a loop's initial carried values, what a region
        yields): those not yet in a slot get one, filled with the same object on replay."""
        if self.failed is not None:
            return
        for v, o in zip(values, objs):
            if v.id in self.structure and id(o) not in self._slot:
                self._add(_ConstStep(o, self.new_slot(o)))

    def _hold(self, *arrays):
        self._held += sum(a.nbytes for a in arrays if isinstance(a, np.ndarray))
        if self._held > _TAPE_BYTES:
            self.fail("its tape would hold too many index arrays")

    def _add(self, step):
        if self.failed is None:
            self.steps.append(step)
            if len(self.steps) > _MAX_STEPS:
                self.fail("it runs too many steps to record")

    # -- steps -----------------------------------------------------------------------------------
    def op(self, ex, op, env_args, outs, fresh):
        """An op on tile data ran: ``env_args`` its operands as the environment held them, ``outs`` its
        results; ``fresh``: it was deferred into the store after it (``FreshBinary``)."""
        if self.failed is not None:
            return
        refs = []
        for v, a in zip(op.operands, env_args):
            r = self.operand(v, a)
            if r is None:
                return self.fail(f"an operand of {op.name} was made by a path it does not follow")
            refs.append(r)
        self._add(_OpStep(op, refs, ex.blocks, ex.lanes, [self.new_slot(o) for o in outs], fresh))

    def gathered(self, value, out, idx, carried=False):
        """A value was gathered into a subset or expansion of the lanes (``lanes.gather``; ``carried``:
        a loop's carried value, ``undefined.lanes_of``)."""
        if out is value or self.failed is not None:
            return
        s = self._slot.get(id(value))
        if s is not None:
            self._hold(idx)
            self._add(_GatherStep(s, idx, self.new_slot(out), carried))
        elif carried:
            self.fail("a carried value was made by a path it does not follow")

    def merged(self, full, idx, part, lanes, out):
        """A lane subset's value was merged into the lane-wide one (``undefined.merge_lanes``; ``full``
        None: the first subset)."""
        if self.failed is not None:
            return
        f = None if full is None else self._slot.get(id(full))
        p = self._slot.get(id(part))
        if p is None or (full is not None and f is None):
            return self.fail("a lane merge of values it does not follow")
        self._hold(idx)
        self._add(_MergeStep(f, idx, p, lanes, self.new_slot(out)))

    def load(self, op, buf, data, view, inv, starts, acc, copy, shape, out):
        """A tile load took its windows as a view of the buffer (or copied distinct windows ``starts``)."""
        if self.failed is not None:
            return
        b = self.buffers.get(id(buf))
        if b is None:
            return self.fail("a load reads a buffer that is not an argument")
        geometry = _geometry(view, data) if starts is None else (acc.rows, acc.cols, int(acc.row_stride), starts)
        self._hold(inv, starts)
        self._add(_LoadStep(b, starts is None, geometry, inv, copy, shape, self.new_slot(out)))

    def load_indexed(self, op, buf, windows, lanes, fill, shape, out, undefined):
        """A tile load gathered the elements of ``windows`` (``sim/chunks.py``) by index, ``fill`` outside the
        tensor (padding, or left undefined when ``undefined``)."""
        if self.failed is not None:
            return
        b = self.buffers.get(id(buf))
        if b is None:
            return self.fail("a load reads a buffer that is not an argument")
        self._hold(*_arrays(windows))
        self._add(_IndexedLoadStep(op if undefined else None, b, windows, lanes, fill, shape, self.new_slot(out)))

    def store(self, op, buf, source, lanes, blocks, view=None, data=None, order=None, windows=None, indexed=None):
        """A tile store wrote the lanes' windows through one strided view of the buffer (``view``, lanes in
        ``order``), through a sliding-window view (``windows``: rows, cols, row stride, lane starts) or
        element by element (``indexed``: the windows (``sim/chunks.py``), rows, cols). ``blocks``: the lanes'
        blocks.
        ``source``: the stored value as the environment held it and the tile's shape (None: a store this does
        not follow, e.g. a scalar store)."""
        if self.failed is not None:
            return
        b = self.buffers.get(id(buf))
        r = None if source is None else self.operand(op.operands[0], source[0])
        if b is None or r is None:
            return self.fail("a store writes a value or a buffer it does not follow")
        shape = source[1]
        geometry = _geometry(view, data) if view is not None else None
        self._hold(order, *(windows or ())[3:], *(_arrays(indexed[0]) if indexed else ()))
        self._add(_StoreStep(op, buf.name, b, geometry, order, windows, indexed, r, lanes, blocks, shape))

    def fold(self, fold_values, loop, plan, hoisted, carried, lanes, tmax, outs):
        """The carried chain of ``loop`` folded over every trip (``carried.fold``)."""
        if self.failed is not None:
            return
        refs = []
        operands = [(next(o for o in b.operands if o.id == hid), hoisted[hid]) for b, _, hid in plan]
        for v, obj in operands + list(zip(loop.operands[3:], carried)):
            r = self.operand(v, obj)
            if r is None:
                return self.fail("a fold operand was made by a path it does not follow")
            refs.append(r)
        self._add(_FoldStep(fold_values, plan, refs, lanes, tmax, [self.new_slot(o) for o in outs]))

    def tape(self):
        if self.failed is not None:
            return None
        return Tape(self.steps, len(self._keep))


def _arrays(windows):
    """The arrays a detached access keeps (its per-lane starts and limits)."""
    return [v for v in vars(windows).values() if isinstance(v, np.ndarray)]


def _geometry(view, data):
    """A view of ``data`` as (first element, shape, strides) so the same view can be taken of another buffer."""
    es = data.itemsize
    start = (view.__array_interface__["data"][0] - data.__array_interface__["data"][0]) // es
    return start, view.shape, view.strides


def _view(data, geometry):
    start, shape, strides = geometry
    return strided(data, start, shape, strides)


class _OpStep:
    __slots__ = ("op", "refs", "blocks", "lanes", "outs", "fresh", "execute")

    def __init__(self, op, refs, blocks, lanes, outs, fresh):
        self.op, self.refs, self.blocks, self.lanes, self.outs, self.fresh = op, refs, blocks, lanes, outs, fresh
        self.execute = IMPLS[op.name].execute

    def run(self, slots, ex, datas):
        ex.blocks, ex.lanes, ex._counts = self.blocks, self.lanes, None
        args = [slots[x] if is_slot else x for is_slot, x in self.refs]
        op = self.op
        for a in args:
            if type(a) in _SPECIAL:   # what ``Executor.apply`` unwraps (undefined elements, shared windows)
                out = ex.apply(op, args, self.fresh)
                break
        else:
            # ``Executor.apply`` on plain operands: a recorded launch has no masks, and its report (whether
            # the cube ran) is the recorded one
            try:
                out = FreshBinary.of(op, *args) if self.fresh else None
                if out is None:
                    out = self.execute(ex, op, *args)
            except SimError as e:
                raise ex._located(op, e) from None
        if type(out) is tuple:
            for s, o in zip(self.outs, out):
                slots[s] = o
        elif self.outs:
            slots[self.outs[0]] = out

    def reads(self):
        return [x for is_slot, x in self.refs if is_slot]


class _ConstStep:
    __slots__ = ("value", "out")

    def __init__(self, value, out):
        self.value, self.out = value, out

    def run(self, slots, ex, datas):
        slots[self.out] = self.value

    def reads(self):
        return ()


class _GatherStep:
    __slots__ = ("src", "idx", "out", "carried")

    def __init__(self, src, idx, out, carried):
        self.src, self.idx, self.out, self.carried = src, idx, out, carried

    def run(self, slots, ex, datas):
        v = slots[self.src]
        slots[self.out] = lanes_of(v, self.idx) if self.carried else gather(v, self.idx)

    def reads(self):
        return (self.src,)


class _MergeStep:
    __slots__ = ("full", "idx", "part", "lanes", "out")

    def __init__(self, full, idx, part, lanes, out):
        self.full, self.idx, self.part, self.lanes, self.out = full, idx, part, lanes, out

    def run(self, slots, ex, datas):
        full = None if self.full is None else slots[self.full]
        slots[self.out] = merge_lanes(full, self.idx, slots[self.part], self.lanes)

    def reads(self):
        return (self.part,) if self.full is None else (self.full, self.part)


class _LoadStep:
    __slots__ = ("buffer", "plain", "geometry", "inv", "copy", "shape", "out")

    def __init__(self, buffer, plain, geometry, inv, copy, shape, out):
        self.buffer, self.plain, self.geometry, self.inv, self.copy, self.shape, self.out = \
            buffer, plain, geometry, inv, copy, shape, out

    def run(self, slots, ex, datas):
        data = datas[self.buffer]
        if self.plain:
            view = _view(data, self.geometry)
            if self.copy:
                view = np.array(view)
        else:
            rows, cols, rs, starts = self.geometry
            view = sliding_windows(data, rows, cols, rs)[starts]
        view = view.reshape((view.shape[0],) + self.shape)
        slots[self.out] = view if self.inv is None else Shared(view, self.inv)

    def reads(self):
        return ()


class _IndexedLoadStep:
    __slots__ = ("source", "buffer", "windows", "lanes", "fill", "shape", "out")

    def __init__(self, source, buffer, windows, lanes, fill, shape, out):
        self.source, self.buffer, self.windows, self.lanes, self.fill, self.shape, self.out = \
            source, buffer, windows, lanes, fill, shape, out

    def run(self, slots, ex, datas):
        out, undefined = gather_windows(datas[self.buffer], self.windows, self.lanes, self.fill,
                                        self.source is not None)
        out = out.reshape((out.shape[0],) + self.shape)
        # pad_value=None: the tail stays undefined, as ops.memory._exec_load leaves it
        slots[self.out] = out if undefined is None else wrap(out, undefined.reshape(out.shape), self.source)

    def reads(self):
        return ()


class _StoreStep:
    __slots__ = ("op", "name", "buffer", "geometry", "order", "windows", "indexed", "ref", "lanes", "blocks", "shape")

    def __init__(self, op, name, buffer, geometry, order, windows, indexed, ref, lanes, blocks, shape):
        self.op, self.name, self.buffer, self.geometry, self.order, self.windows, self.indexed, self.ref, \
            self.lanes, self.blocks, self.shape = op, name, buffer, geometry, order, windows, indexed, ref, lanes, \
            blocks, shape

    def elements(self, itemsize):
        """The buffer element each lane's tile element lands on, (lanes, rows * cols), as a store through a
        view wrote them (element-by-element stores keep their windows: ``chunks.window_parts``)."""
        L = self.lanes
        if self.windows is not None:
            rows, cols, rs, starts = self.windows
            base = np.asarray(starts).reshape(-1, 1, 1)
        else:
            start, shape, strides = self.geometry
            n, rows, cols = shape
            lane_step, rs, cs = (s // itemsize for s in strides)
            base = start + np.arange(n).reshape(-1, 1, 1) * lane_step
            if cs != 1:
                base = base + (np.arange(cols) * (cs - 1)).reshape(1, 1, -1)
        out = np.broadcast_to(base + np.arange(rows).reshape(1, -1, 1) * rs + np.arange(cols).reshape(1, 1, -1),
                              (max(L, base.shape[0]), rows, cols)).reshape(-1, rows * cols)
        if self.order is not None:
            by_lane = np.empty_like(out)
            by_lane[self.order] = out
            out = by_lane
        return np.broadcast_to(out, (L, rows * cols))

    def run(self, slots, ex, datas):
        """What ``ops.memory._exec_store`` and ``ops.gm_store._store_into`` do with the value on the recorded path."""
        is_slot, x = self.ref
        value = slots[x] if is_slot else x
        L = self.lanes
        if type(value) is Undef:   # undefined elements may only land outside the tensor (the clipped tail)
            if self.indexed is not None:
                windows, rows, cols = self.indexed
                mask = np.broadcast_to(value.mask, (value.mask.shape[0],) + tuple(self.shape))
                parts = window_parts(windows, L, mask.reshape((mask.shape[0], rows, cols)))
            else:
                inside = np.broadcast_to(value.mask, (L,) + tuple(self.shape)).reshape(L, -1)
                parts = [(0, inside, self.elements(datas[self.buffer].itemsize))]
            text = undefined_store_warning(self.op, self.name, parts, self.blocks, L, value.source)
            if text:
                ex.warn(self.op, text, UndefinedStoreWarning)
            value = value.data
        if type(value) is Shared:
            value = value.materialise()
        data = datas[self.buffer]
        if self.indexed is not None:
            windows, rows, cols = self.indexed
            scatter_windows(data, windows, L, stored_values(value, L, self.shape, rows, cols, False))
            return
        rows, cols = (self.geometry[1][1:] if self.windows is None else self.windows[:2])
        vals = stored_values(value, L, self.shape, rows, cols, True)
        if self.windows is not None:
            rows, cols, rs, starts = self.windows
            sliding_windows(data, rows, cols, rs)[starts] = vals.compute() if type(vals) is FreshBinary else vals
            return
        if self.order is not None:
            vals = (vals.compute() if type(vals) is FreshBinary else vals)[self.order]
        _write(_view(data, self.geometry), vals)

    def reads(self):
        return (self.ref[1],) if self.ref[0] else ()


class _FoldStep:
    __slots__ = ("fold_values", "plan", "refs", "lanes", "tmax", "outs")

    def __init__(self, fold_values, plan, refs, lanes, tmax, outs):
        self.fold_values, self.plan, self.refs, self.lanes, self.tmax, self.outs = \
            fold_values, plan, refs, lanes, tmax, outs

    def run(self, slots, ex, datas):
        vals = [slots[x] if is_slot else x for is_slot, x in self.refs]
        n = len(self.plan)
        out = self.fold_values(self.plan, dict(zip((hid for _, _, hid in self.plan), vals[:n])), vals[n:],
                               self.lanes, self.tmax)
        for s, o in zip(self.outs, out):
            slots[s] = o

    def reads(self):
        return [x for is_slot, x in self.refs if is_slot]


class Tape:
    """The data steps of a recorded launch, in order; after each, the slots no later step reads are let go
    (a long loop's values do not pile up)."""

    def __init__(self, steps, nslots):
        self.steps = steps
        self.nslots = nslots
        last = [-1] * nslots
        for i, step in enumerate(steps):
            for s in step.reads():
                last[s] = i
        free = [[] for _ in steps]
        for s, i in enumerate(last):
            if i >= 0:
                free[i].append(s)
        for i, step in enumerate(steps):   # results nothing reads go at once
            for s in getattr(step, "outs", ()) or ((step.out,) if hasattr(step, "out") else ()):
                if last[s] < 0:
                    free[i].append(s)
        self.plan = [(step, tuple(f)) for step, f in zip(steps, free)]
        self.report = None
        seen = set()   # the arrays the tape keeps (what runtime.caches.REPLAY charges for it)
        self.nbytes = sum(array_bytes(getattr(step, a), seen) for step in steps for a in step.__slots__
                          if a not in ("op", "fold_values", "plan", "execute"))

    def replay(self, ex, datas):
        """Run the steps on the buffers ``datas`` (in argument order); ``ex`` is a fresh executor whose
        lanes the steps set (data ops read them) and which collects data-dependent warnings."""
        slots = [None] * self.nslots
        with launch_scope():
            for step, free in self.plan:
                step.run(slots, ex, datas)
                for s in free:
                    slots[s] = None


def verify_tape(tape, name, args, executor, values):
    """``ASC_REPLAY=verify`` (for testing the engine): the recorded launch is run again in full and
    replayed, both on the same changed copy of the buffers it started from (``args``: name, data before the
    launch, written by the kernel); any difference in the buffers, the warnings or the error raised is an
    engine bug. Changed data show a data value the recording took for a constant."""
    from .executor import KernelRuntimeError
    from .memory import PtrVal, bind_buffers
    outcomes = []
    for replayed in (False, True):
        datas = [_changed(d) for _, d, _ in args]
        buffers, _ = bind_buffers([(n, d, w) for (n, _, w), d in zip(args, datas)])
        ex = executor()
        try:
            if replayed:
                tape.replay(ex, datas)
            else:
                ex.run([PtrVal(buffers[v.buffer.name], v.off) if type(v) is PtrVal else v for v in values])
            error = None
        except KernelRuntimeError as e:
            error = str(e)
        outcomes.append(([d.view(np.uint8).copy() for d in datas], list(ex.warnings), error))
    (full, full_warn, full_err), (rep, rep_warn, rep_err) = outcomes
    diffs = [n for (n, _, _), a, b in zip(args, full, rep) if not np.array_equal(a, b)]
    if diffs or full_warn != rep_warn or full_err != rep_err:
        raise RuntimeError(f"replaying kernel '{name}' differs from running it: buffers {diffs}, warnings "
                           f"{full_warn} / {rep_warn}, errors {full_err!r} / {rep_err!r}")


def _changed(data):
    """Other data of the same kind, every element changed: integers plus one, booleans negated, floats
    mapped by x -> -x / 2 - 1/4 (signs flip, so comparisons change too; its fixed point, -1/6, is not a
    binary fraction)."""
    if data.dtype == np.bool_:
        return ~data
    if data.dtype.kind in "iu":
        return data + np.asarray(1, data.dtype)
    with np.errstate(all="ignore"):
        return (data.astype(np.float32) * -0.5 - 0.25).astype(data.dtype)

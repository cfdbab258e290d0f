"""Replaying a v1 launch: the data steps of a launch whose structure ran before, without the kernel's Python.

A v1 kernel's instruction stream is decided by its Python body from the arguments' values, sizes and dtypes,
the block index and the kernel's constants; only ``get_value`` hands data back to Python (and the cube's
Matmul keeps state between calls). A launch that used neither, warned nothing and raised nothing records
each block's data ops (``freeze``: the op with its tensors as they were at issue); its checks, ticks and
report depend on the structure alone, so a later launch of the same structure runs only the data ops on
its own buffers (``Tape.replay``) and reuses the report.

Blocks run one after another in a full launch. When no block reads or writes GM another block writes, the
blocks are independent and the replay runs instruction by instruction across the blocks: op ``k`` of every
block at once when the blocks' ops differ only by a per-block GM offset (lanes = blocks: one numpy call
over a ``(blocks, bytes)`` view of GM and of the blocks' stacked on-chip memories), else op ``k`` of each
block in turn. Otherwise the blocks replay one after another, as they ran.
"""
from __future__ import annotations

from functools import cached_property
from types import SimpleNamespace

import numpy as np

from ..sizes import array_bytes
from .instructions import IMPLS, PURE
from .lane_steps import ELEMENTWISE as _ELEMENTWISE, lanes_step
from .lane_trips import fold_steps
from .written import WrittenBytes
_REPLAYABLE = _ELEMENTWISE | PURE | {"data_copy", "set_value", "bilinear_interpolation", "softmax", "quant"}
_SCRATCH_BUDGET = 64 << 20    # bytes of stacked on-chip memory a tape may keep


class MemoryViews:
    """Typed and byte views of a block's tensors (``self.launch.gm``: GM buffers, ``self.memory(space)``:
    the block's on-chip memory as bytes)."""

    def view(self, t):
        """(typed array, element index of ``t``'s start) of a tensor."""
        dt = t.np_dtype
        if t.space == "GM":
            arr = self.launch.gm[t.buf]
            return arr.view(dt) if arr.dtype != dt else arr, t.addr // dt.itemsize
        m = self.memory(t.space)
        usable = (m.size - t.addr) // dt.itemsize * dt.itemsize
        return m[t.addr: t.addr + usable].view(dt), 0

    def byte_view(self, t):
        if t.space == "GM":
            return self.launch.gm[t.buf].view(np.uint8), t.addr
        return self.memory(t.space), t.addr


def replayable(op):
    """Whether an op's effect is data in, data out (no value handed back to Python, no state kept)."""
    return op.name in _REPLAYABLE and not op.attrs.get("atomic")     # an atomic copy's result depends on GM


def _snapshot(t):
    """A shallow copy of a tensor (``copy.copy`` without its generic machinery: this runs per instruction)."""
    c = object.__new__(type(t))
    c.__dict__.update(t.__dict__)
    return c


def freeze(op):
    """The op with copies of the tensors it names (a kernel may re-point a tensor after issuing it)."""
    attrs = {}
    for k, v in op.attrs.items():
        if type(v) is list:
            v = [_snapshot(t) if hasattr(type(t), "np_dtype") else t for t in v]
        elif hasattr(type(v), "np_dtype"):     # a tensor (its class's property; not computed here)
            v = _snapshot(v)
        attrs[k] = v
    return type(op)(op.name, op.pipe, op.reads, op.writes, attrs, op.loc)


class _BlockMemory(MemoryViews):
    """One block's rows of a replay's stacked on-chip memories."""

    def __init__(self, gm, scratch, b):
        self.launch = SimpleNamespace(gm=gm)
        self.rows = {s: m[b] for s, m in scratch.items()}

    def memory(self, space):
        return self.rows[space]


class Tape:
    def __init__(self, steps, scratch, init, report):
        self.steps, self.scratch, self.init, self.report = steps, scratch, init, report
        self.batched = any(kind == "lanes" for kind, _ in steps)

    @cached_property
    def nbytes(self):
        """What runtime.caches.REPLAY charges for the tape (counted when it is kept, not per launch)."""
        return array_bytes(self.scratch) + array_bytes(self.steps)

    def replay(self, gm, first=0):
        """Run the recorded data ops on the GM buffers ``gm`` (name -> host view), of blocks ``first`` on."""
        scratch = self.scratch
        for space in self.init:
            scratch[space].fill(0xFF)     # unwritten on-chip memory reads as a full run's does
        blocks = {}
        ctx = SimpleNamespace(gm=gm, raw={n: v.view(np.uint8) for n, v in gm.items()}, typed={}, rows={},
                              first=first)
        outer = np.geterr()
        with np.errstate(all="ignore"):     # as the elementwise instructions run in full
            for kind, step in self.steps:
                if kind == "lanes":
                    step(ctx, scratch)
                    continue
                b, op = step
                if b < first:
                    continue
                mem = blocks.get(b)
                if mem is None:
                    mem = blocks[b] = _BlockMemory(gm, scratch, b)
                if op.name in _ELEMENTWISE:
                    IMPLS[op.name](mem, op)
                else:
                    with np.errstate(**outer):
                        IMPLS[op.name](mem, op)


def build_tape(block_ops, capacity, report):
    """The tape of a launch whose blocks ran ``block_ops`` (per block, the frozen data ops), or None when its
    blocks write GM elements another block writes too (the values decide whether that is an error)."""
    nblk = len(block_ops)
    spaces = {r.space for ops in block_ops for op in ops for r in op.reads + op.writes if r.space != "GM"}
    if nblk * sum(capacity[s] for s in spaces) > _SCRATCH_BUDGET:
        return None
    reads, writes = _gm_spans(block_ops)
    if any(_across(w, w) for w in writes.values()):
        return None
    independent = not any(_across(reads.get(buf, []), w) for buf, w in writes.items())
    scratch = {s: np.empty((nblk, capacity[s]), np.uint8) for s in sorted(spaces)}
    init = _reads_unwritten(block_ops, capacity)
    steps = []
    if not independent:
        steps = [("block", (b, op)) for b, ops in enumerate(block_ops) for op in ops]
    else:
        for k in range(max(len(ops) for ops in block_ops)):
            here = [ops[k] for ops in block_ops if k < len(ops)]
            step = lanes_step(here) if len(here) == nblk and nblk > 1 else None
            if step is not None:
                steps.append(("lanes", step))
            else:
                steps.extend(("block", (b, ops[k])) for b, ops in enumerate(block_ops) if k < len(ops))
        if all(kind == "lanes" for kind, _ in steps):
            steps = [("lanes", st) for st in fold_steps([st for _, st in steps], nblk)]
    return Tape(steps, scratch, sorted(s for s in spaces if init.get(s)), report)


# -- GM independence -----------------------------------------------------------------------------------
def _gm_spans(block_ops):
    """Per GM buffer, (lo, hi, block) byte spans each block reads and writes (a block's spans merged)."""
    reads, writes = {}, {}
    for b, ops in enumerate(block_ops):
        mine = {}
        for op in ops:
            for regions, into in ((op.reads, reads), (op.writes, writes)):
                for r in regions:
                    if r.space == "GM" and r.hi > r.lo:
                        mine.setdefault((id(into), r.buf), (into, []))[1].append((r.lo, r.hi))
        for (_, buf), (into, spans) in mine.items():
            into.setdefault(buf, []).extend((lo, hi, b) for lo, hi in _merge(spans))
    return reads, writes


def _merge(spans):
    out = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def _across(a, b):
    """Whether a span of ``a`` and a span of ``b`` of different blocks share a byte."""
    items = sorted([(lo, hi, blk, 0) for lo, hi, blk in a] + [(lo, hi, blk, 1) for lo, hi, blk in b])
    same = a is b
    tops = ([], [])     # per side, the two furthest-reaching spans of distinct blocks so far: (hi, block)
    for lo, hi, blk, side in items:
        other = tops[side] if same else tops[1 - side]
        if any(h > lo and ob != blk for h, ob in other):
            return True
        t = tops[side]
        t.append((hi, blk))
        t.sort(reverse=True)
        if len(t) > 2:
            first = t[0]
            second = next((x for x in t[1:] if x[1] != first[1]), None)
            t[:] = [first] + ([second] if second else [])
    return False


def _reads_unwritten(block_ops, capacity):
    """Per on-chip memory, whether some block may read bytes of it it has not written (then the replay
    starts from the full run's unwritten pattern). Only writes known to cover their whole range count."""
    need = {}
    for ops in block_ops:
        written = {}
        for op in ops:
            for r in op.reads:
                if r.space != "GM" and not need.get(r.space):
                    w = written.get(r.space)
                    if w is None or not w.covers(r.lo, r.hi):
                        need[r.space] = True
            exact = op.name in ("data_copy", "set_value") or (op.name in _ELEMENTWISE and op.attrs["idx"] is None)
            if exact:
                for r in op.writes:
                    if r.space != "GM" and r.granules is None:
                        w = written.get(r.space)
                        if w is None:
                            w = written[r.space] = WrittenBytes(capacity[r.space])
                        w.add(r.lo, r.hi)
    return need


# -- one op of every block at once ---------------------------------------------------------------------

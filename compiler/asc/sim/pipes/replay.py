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

import copy
from types import SimpleNamespace

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .compute import _BINARY, _UNARY, IMPLS, binary_values, scalar_values, unary_values

_ELEMENTWISE = frozenset(_BINARY) | frozenset(_UNARY) | {"adds", "muls", "leaky_relu", "maxs", "mins", "axpy",
                                                          "duplicate"}
_REPLAYABLE = _ELEMENTWISE | {"data_copy", "set_value", "bilinear_interpolation", "softmax", "quant"}
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
    return op.name in _REPLAYABLE


def freeze(op):
    """The op with copies of the tensors it names (a kernel may re-point a tensor after issuing it)."""
    attrs = {}
    for k, v in op.attrs.items():
        if isinstance(v, list):
            v = [copy.copy(t) if hasattr(t, "np_dtype") else t for t in v]
        elif hasattr(v, "np_dtype"):
            v = copy.copy(v)
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

    def replay(self, gm):
        """Run the recorded data ops on the GM buffers ``gm`` (name -> host view)."""
        scratch = self.scratch
        for space in self.init:
            scratch[space].fill(0xFF)     # unwritten on-chip memory reads as a full run's does
        blocks = {}
        ctx = SimpleNamespace(gm=gm, raw={n: v.view(np.uint8) for n, v in gm.items()}, typed={}, rows={})
        outer = np.geterr()
        with np.errstate(all="ignore"):     # as the elementwise instructions run in full
            for kind, step in self.steps:
                if kind == "lanes":
                    step(ctx, scratch)
                    continue
                b, op = step
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
            step = _lanes_step(here) if len(here) == nblk and nblk > 1 else None
            if step is not None:
                steps.append(("lanes", step))
            else:
                steps.extend(("block", (b, ops[k])) for b, ops in enumerate(block_ops) if k < len(ops))
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
                    if w is None or not w[r.lo:r.hi].all():
                        need[r.space] = True
            exact = op.name in ("data_copy", "set_value") or (op.name in _ELEMENTWISE and op.attrs["idx"] is None)
            if exact:
                for r in op.writes:
                    if r.space != "GM" and r.granules is None:
                        w = written.get(r.space)
                        if w is None:
                            w = written[r.space] = np.zeros(capacity[r.space], bool)
                        w[r.lo:r.hi] = True
    return need


# -- one op of every block at once ---------------------------------------------------------------------
def _affine(addrs):
    """The per-block stride of GM addresses ``addrs`` (one per block), or None when not a constant one."""
    stride = addrs[1] - addrs[0]
    if stride < 0 or any(a != addrs[0] + b * stride for b, a in enumerate(addrs)):
        return None
    return stride


def _operand(ts):
    """A tensor operand of every block: ("GM", buf, first address, stride) or (space, None, address, 0),
    or None when the blocks' operands differ otherwise."""
    t0 = ts[0]
    if any(t.space != t0.space or t.buf != t0.buf or t.dtype != t0.dtype for t in ts):
        return None
    if t0.space == "GM":
        stride = _affine([t.addr for t in ts])
        return None if stride is None else ("GM", t0.buf, t0.addr, stride)
    if any(t.addr != t0.addr for t in ts):
        return None
    return (t0.space, None, t0.addr, 0)


def _rows(ctx, scratch, opnd, nblk):
    """The (blocks, bytes) array an operand's windows are columns of: a block's on-chip memory per row, or
    for GM row b the buffer's bytes from b * stride on (as far as the last block reaches)."""
    space, buf, _, stride = opnd
    if space != "GM":
        return scratch[space]
    rows = ctx.rows.get((buf, stride))
    if rows is None:
        raw = ctx.raw[buf]
        rows = ctx.rows[(buf, stride)] = as_strided(raw, shape=(nblk, raw.size - (nblk - 1) * stride),
                                                    strides=(stride, 1))
    return rows


def _lanes_step(ops):
    op0 = ops[0]
    if any(op.name != op0.name for op in ops):
        return None
    if op0.name == "data_copy":
        return _copy_step(ops)
    if op0.name in _ELEMENTWISE:
        return _vector_step(ops)
    return None


def _copy_step(ops):
    a0 = ops[0].attrs
    if any(op.attrs["segments"] != a0["segments"] for op in ops):
        return None
    dst, src = _operand([op.attrs["dst"] for op in ops]), _operand([op.attrs["src"] for op in ops])
    if dst is None or src is None:
        return None
    nblk = len(ops)
    cols = [(slice(dst[2] + d_off, dst[2] + d_off + n), slice(src[2] + s_off, src[2] + s_off + n))
            for s_off, d_off, n in a0["segments"]]

    def run(ctx, scratch):
        d, s = _rows(ctx, scratch, dst, nblk), _rows(ctx, scratch, src, nblk)
        for dc, sc in cols:
            d[:, dc] = s[:, sc]
    return run


def _vector_step(ops):
    a0 = ops[0].attrs
    name = ops[0].name
    tensors = [[op.attrs["dst"]] + list(op.attrs["srcs"]) for op in ops]
    opnds = [_operand([ts[i] for ts in tensors]) for i in range(len(tensors[0]))]
    if any(o is None or o[0] == "GM" for o in opnds):
        return None
    idx = a0["idx"]
    for op in ops[1:]:
        a = op.attrs
        if a["count"] != a0["count"] or a["scalar"] != a0["scalar"] or (a["idx"] is None) != (idx is None):
            return None
        if idx is not None and not all(np.array_equal(i, j) for i, j in zip(idx, a["idx"])):
            return None
    dtypes = [t.np_dtype for t in tensors[0]]
    count, scalar = a0["count"], a0["scalar"]
    # element windows of each operand in its typed (blocks, elements) view
    where = []
    for k, ((space, _, addr, _), dt) in enumerate(zip(opnds, dtypes)):
        base = addr // dt.itemsize
        where.append(slice(base, base + count) if idx is None else base + idx[k])
    keys = [(o[0], dt) for o, dt in zip(opnds, dtypes)]
    # one ufunc into the destination where it rounds as binary_values does (floats: numpy computes a half in
    # float and rounds once; integer division truncates, which true division would not)
    ufunc = _BINARY.get(name) if idx is None and len(set(dtypes)) == 1 else None
    if ufunc is not None and name == "div" and dtypes[0].kind != "f":
        ufunc = None

    def run(ctx, scratch):
        views = []
        for key in keys:
            v = ctx.typed.get(key)
            if v is None:
                v = ctx.typed[key] = scratch[key[0]].view(key[1])
            views.append(v)
        d = views[0]
        if ufunc is not None:
            ufunc(views[1][:, where[1]], views[2][:, where[2]], out=d[:, where[0]])
        elif name in _BINARY:
            d[:, where[0]] = binary_values(name, views[1][:, where[1]], views[2][:, where[2]], d.dtype)
        elif name in _UNARY:
            d[:, where[0]] = unary_values(name, views[1][:, where[1]], d.dtype)
        elif name == "duplicate":
            d[:, where[0]] = d.dtype.type(scalar)
        else:
            old = d[:, where[0]] if name == "axpy" else None
            d[:, where[0]] = scalar_values(name, views[1][:, where[1]], scalar, old, d.dtype)
    return run

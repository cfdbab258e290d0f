"""Sanitizers that look at a whole loop or a whole launch rather than at one access: global-memory
dependencies between iterations of un-barriered loops, output elements no block wrote, and scalar
stores of different blocks sharing a 32-byte DMA block."""
from __future__ import annotations

import functools
import re

import numpy as np

from ..ir.kernel_warnings import UncoveredOutputWarning, UnmodelledHardwareWarning, located
from .errors import SimError
from .lanes import per_lane

_NONE = np.iinfo(np.int64).max
_DMA_BLOCK = 32


class LoopDependencyError(SimError):
    pass


class GmLoopTracker:
    """Which iteration of one run of an un-barriered loop (``parallel=True`` / ``gm_barrier=False``)
    stored and loaded each global-memory element. Without the loop-end MTE3 -> MTE2 barrier the
    hardware may issue an iteration's loads before an earlier iteration's stores land, so one iteration
    loading what another stores is a hazard, whatever order the simulator ran them in.

    Iterations are numbered ``instance * span + trip``: lanes that entered the loop separately (blocks,
    iterations of enclosing loops) are different instances and never conflict here (blocks are the
    race checks' concern)."""

    def __init__(self, loop, span):
        self.loop = loop
        self.key = ("gm-iteration", loop.id)
        self.span = span
        self.logs = {}           # id(log) -> [writer, writer line, reader lo, reader hi, reader line]

    def _arrays(self, buf):
        st = self.logs.get(id(buf.log))
        if st is None:
            n = buf.log.n
            st = [np.full(n, -1, np.int64), np.zeros(n, np.int32), np.full(n, _NONE, np.int64),
                  np.full(n, -1, np.int64), np.zeros(n, np.int32)]
            self.logs[id(buf.log)] = st
        return st

    def _loop_text(self):
        line = self.loop.loc.line if self.loop.loc is not None else "?"
        return f"the un-barriered loop at line {line} (parallel=True, or gm_barrier=False)"

    _HINT = ("iterations of a loop without the loop-end barrier may overlap: drop parallel=True (or pass "
             "gm_barrier=True) so each iteration's stores land before the next one loads, or let every "
             "iteration load only what it stores itself")

    def note_load(self, buf, flat, ids, op, disjoint=False):
        """``flat``: element indices (lanes, k) in the buffer; ``ids``: the iteration of each lane."""
        w, wline, lo, hi, rline = self._arrays(buf)
        flat = flat + buf.off
        ids = np.broadcast_to(np.asarray(ids).reshape(-1, 1), flat.shape)
        prev = w[flat]
        bad = (prev >= 0) & (prev != ids) & (prev // self.span == ids // self.span)
        if np.any(bad):
            e = int(flat[bad][0]) - buf.off
            raise LoopDependencyError(
                f"load of '{buf.name}' reads element {e}, which another iteration of {self._loop_text()} stores "
                f"(the store at line {int(wline[flat[bad][0]])}): the load may see the old or the new value",
                self._HINT)
        f, i = flat.reshape(-1), ids.reshape(-1)
        if disjoint:   # each element read by one lane (repeats within a lane carry its own id)
            lo[f] = np.minimum(lo[f], i)
            hi[f] = np.maximum(hi[f], i)
        else:
            np.minimum.at(lo, f, i)
            np.maximum.at(hi, f, i)
        rline[flat] = op.loc.line if op.loc is not None else 0

    def note_store(self, buf, flat, ids, op):
        w, wline, lo, hi, rline = self._arrays(buf)
        flat = flat + buf.off
        ids = np.broadcast_to(np.asarray(ids).reshape(-1, 1), flat.shape)
        inst = ids // self.span
        rl, rh = lo[flat], hi[flat]
        bad = ((rh >= 0) & (rl != ids) & (rl // self.span == inst)) | \
              ((rh >= 0) & (rh != ids) & (rh // self.span == inst))
        if np.any(bad):
            e = int(flat[bad][0]) - buf.off
            raise LoopDependencyError(
                f"store to '{buf.name}' writes element {e}, which another iteration of {self._loop_text()} loads "
                f"(the load at line {int(rline[flat[bad][0]])}): that load may see the old or the new value",
                self._HINT)
        w[flat] = ids
        wline[flat] = op.loc.line if op.loc is not None else 0


# Words of an argument's name that make it a result the kernel produces, rather than data it updates.
_RESULT_WORDS = frozenset({"out", "outs", "output", "outputs", "dst", "dest", "res", "result", "results", "ret",
                           "o", "z"})


@functools.lru_cache(maxsize=1024)   # asked for every pointer argument of every launch
def names_a_result(name):
    """Whether an argument's name reads as a result the kernel produces (``out_ptr``, ``dst``, ``z``,
    ``y_out``, ``outputGm``), rather than data it updates in place (``y`` of y = a * x + y, ``c`` of a GEMM
    with beta, ``acc``, ``grad_sum``)."""
    words = re.split(r"[_\W\d]+|(?<=[a-z])(?=[A-Z])", name)
    return any(w.lower() in _RESULT_WORDS for w in words)


def output_role(name, stored, after_inputs):
    """Whether an argument plays the output role, whose contents the host need not have set (it may pass
    ``np.empty``), so that reading an element of it before any block wrote it is worth a warning: the kernel
    stores through it, it comes after every argument the kernel only reads (pyasc's inputs-then-outputs
    order), and its name reads as a result. An argument updated in place -- passed before its inputs
    (``x += y`` as kernel(x, y)) or named as data (``y`` of axpy, passed last) -- holds the host's data."""
    return stored and after_inputs and names_a_result(name)


def track_gm_access(ex, op, buf, acc, lanes, load, disjoint=False):
    """Record an access of ``op`` to ``buf`` in every un-barriered loop being run (``ex.trackers``), which
    reports a load of what another iteration stores (and the reverse). ``acc``: the elements per lane
    (``indices(lanes)`` -> (lanes, ...) linear indices and which of them the access touches);
    ``disjoint``: no two lanes share an element (the loads' records then take plain assignments)."""
    idx, valid = acc.indices(lanes)
    idx = idx.reshape(lanes, -1)
    valid = np.broadcast_to(valid, np.shape(idx) if np.ndim(valid) == 0 else valid.shape).reshape(lanes, -1)
    if valid[:, :1].all():
        # Untouched elements (a clipped tail) stand in as the lane's first element, which it touches:
        # harmless repeats that keep one row per lane.
        flat, lane_of = np.where(valid, idx, idx[:, :1]), None
    else:   # (an indexed access skipping its first row): only the touched elements, one row each
        flat, lane_of = idx[valid].reshape(-1, 1), np.nonzero(valid)[0]
    for tr in ex.trackers:
        ids = per_lane(ex.env[tr.key], lanes)
        if lane_of is not None:
            ids = ids[lane_of]
        if load:
            tr.note_load(buf, flat, ids, op, disjoint=disjoint)
        else:
            tr.note_store(buf, flat, ids, op)


def _merged(starts, ends):
    """Sorted, merged [start, end) intervals."""
    order = np.argsort(starts, kind="stable")
    s, e = starts[order], ends[order]
    reach = np.maximum.accumulate(e)
    new = np.ones(s.shape[0], bool)
    new[1:] = s[1:] > reach[:-1]
    first = np.nonzero(new)[0]
    last = np.r_[first[1:] - 1, s.shape[0] - 1]
    return s[first], reach[last]


def _first_gap_of_intervals(spans, lo, hi):
    """The first element of [lo, hi) outside every [start, end) of ``spans`` (a short list), or None."""
    reach = lo
    for start, end in sorted(spans):
        if start > reach:
            return reach
        if end > reach:
            reach = end
            if reach >= hi:
                return None
    return reach if reach < hi else None


def coverage_warnings(buffers):
    """A warning per buffer some store wrote to, naming how many of its elements no block wrote (without a
    line: the launcher puts it at the kernel's definition)."""
    out = []
    for buf in buffers:
        if not buf.written or buf.has_reads():
            continue  # not written, or updated in place (the kernel reads it too): partial writes are by design
        log = buf.log
        starts, ends = [], []
        # A scalar store's DMA writes its whole 32-byte block (the padding of a padded scalar output).
        per_block = max(1, _DMA_BLOCK // buf.data.itemsize)
        for other in buffers:
            if other.log is log:
                for _, flat, _ in other.narrow:
                    g = (flat + other.off) // per_block * per_block
                    starts.append(g)
                    ends.append(g + per_block)
        if not starts and all(len(c) == 2 for c in log.cover):
            gap = _first_gap_of_intervals(log.cover, buf.off, buf.off + buf.n)
            if gap is None:
                continue    # the common case: stores that tile contiguous ranges cover the buffer
        spans = [c for c in log.cover if len(c) == 2]
        if spans:
            starts.append(np.array([s for s, _ in spans], np.int64))
            ends.append(np.array([e for _, e in spans], np.int64))
        for entry in log.cover:
            if len(entry) == 2:
                continue
            off, st, rows, rs, vc, vr = entry
            st = st.reshape(-1, 1) + off
            vc = np.broadcast_to(np.asarray(vc).reshape(-1, 1), (st.shape[0], 1))
            if vr is None and rows > 1 and rs == vc.max() == vc.min():   # whole rows: one interval per lane
                starts.append(st.ravel())
                ends.append((st + rows * rs).ravel())
                continue
            row = st + np.arange(rows).reshape(1, -1) * rs
            end = row + vc
            if vr is not None:   # real_shape: rows past it are not written
                end = np.where(np.arange(rows).reshape(1, -1) < np.asarray(vr).reshape(-1, 1), end, row)
            starts.append(row.ravel())
            ends.append(end.ravel())
        lo, hi = buf.off, buf.off + buf.n
        if starts:
            s, e = _merged(np.concatenate(starts), np.concatenate(ends))
            s, e = np.maximum(s, lo), np.minimum(e, hi)
            keep = e > s
            s, e = s[keep], e[keep]
        else:
            s = e = np.zeros(0, np.int64)
        covered = int((e - s).sum())
        if covered >= buf.n:
            continue
        gap_lo = lo if s.size == 0 or s[0] > lo else int(e[0])
        nxt = s[s > gap_lo]
        gap_hi = int(nxt[0]) if nxt.size else hi
        out.append(located(None, f"'{buf.name}': {buf.n - covered} of {buf.n} element(s) were never written by "
                           f"any block (the first uncovered range is [{gap_lo - lo}, {gap_hi - lo})); if this is an "
                           "output, check that the tiling covers all of it (e.g. a loop bound from a floor division "
                           "drops the tail: use asc.ceildiv)", UncoveredOutputWarning))
    return out


def narrow_store_warnings(buffers):
    """Scalar stores of different blocks into one 32-byte block: the DMA writes the whole block, so on
    the hardware one block's write may overwrite the other's element."""
    out = []
    for buf in buffers:
        if not buf.narrow:
            continue
        tags = buf.writer_tags()
        es = buf.data.itemsize
        per_block = max(1, _DMA_BLOCK // es)
        # Device buffers start on a DMA block: count blocks from the start of the (shared) memory.
        gran = (buf.off + np.arange(buf.n, dtype=np.int64)) // per_block
        written = tags >= 0
        lo = np.full(int(gran[-1]) + 1, np.iinfo(np.int32).max, np.int64)
        hi = np.full(int(gran[-1]) + 1, -1, np.int64)
        np.minimum.at(lo, gran[written], tags[written])
        np.maximum.at(hi, gran[written], tags[written])
        for op, flat, blocks in buf.narrow:
            g = gran[flat]
            shared = (hi[g] >= 0) & (lo[g] != hi[g])
            if not np.any(shared):
                continue
            k = int(np.nonzero(shared)[0][0])
            e, b = int(flat[k]), int(blocks[k])
            in_block = np.nonzero((gran == g[k]) & written & (tags != b))[0]
            first = int(in_block[0])
            text = (f"scalar stores to '{buf.name}' from different blocks share a 32-byte block (element {e} by "
                    f"block {b}, element {first} by block {int(tags[first])}): the DMA writes whole 32-byte "
                    "blocks, so on the hardware one block's store can overwrite the other's; pad each block's "
                    f"result to 32 bytes (e.g. an output of shape [blocks, {per_block}] stored at [block, 0])")
            out.append(located(op.loc, text, UnmodelledHardwareWarning))
            break
    return out

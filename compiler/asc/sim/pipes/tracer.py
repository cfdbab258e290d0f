"""A v1 kernel traced once for every block, then run with the blocks as lanes.

The kernel's Python body runs once with a symbolic block index (``ir/block_index.py``): the instructions it
issues (``SymbolicTrace``) have GM addresses that are affine functions of the block, and every block issues
that stream at its own addresses. Where a decision differs between blocks (``BlockSplit``: the last block's
shorter tile, ``if block < used``) the body is traced again for each run of consecutive blocks that agree on
it, a class of blocks with its own stream (``trace_classes``, at most ``MAX_CLASSES``); each class then runs
as below, the classes in block order. The body stops the trace (``Untraced``) where the stream could depend
on data or on the block in a way a class cannot hold: Python asking for the block index as a float or text,
an instruction that hands a value back or keeps state (``replay.replayable`` is false), too many classes, or
any error; the launch then runs block by block as before.

Block 0 (a class's first block) runs the stream in full (every check, its numerics, its schedule). When it
neither warned nor held a pipe, each GM access of the stream stays inside its argument in the last block too,
and no block's window of an argument written meets another block's (of any class), blocks 1.. need nothing
of the engine: their on-chip checks,
warnings and schedule are block 0's, their GM checks pass (bounds, cross-block races: checked over every
block with the affine ranges), and their data runs as lanes (``lane_steps``: one numpy call per instruction
over a ``(blocks, bytes)`` view; instructions of other families block by block). Otherwise blocks 1.. run
the stream in full one after another (``concrete``): the same checks, in the same order, as running the
body per block.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ...ir.block_index import BlockIndex, BlockSplit, at, stride
from ...ir.pipe_ops import Region
from .engine import _SYNC, BlockEngine
from .lane_steps import ELEMENTWISE, LaneCopy, LaneVector
from .lane_trips import fold_steps
from .replay import _SCRATCH_BUDGET, Tape, _reads_unwritten, freeze, replayable
from .steady import find_loop, run_stream
from .uniform import _run_each

STATS = Counter()     # how launches went: "lanes", "per block: <why>", "untraced: <why>"
MAX_CLASSES = 8       # classes of blocks a launch is traced in before it runs block by block instead


class Untraced(Exception):
    """The stream cannot be traced once for every block (the reason in the message)."""


def where(loc):
    """`` at file:line`` of a kernel position (file, line), or nothing."""
    return f" at {loc[0].rsplit('/', 1)[-1]}:{loc[1]}" if loc else ""


class SymbolicTrace(BlockEngine):
    """The body of the blocks ``dom`` at once: allocations and queues as its first block's, instructions
    collected."""

    def __init__(self, launch, dom):
        super().__init__(launch, dom.start)
        # what the kernel's get_block_idx() returns (one block's class: its number)
        self.block_idx = BlockIndex(dom=dom) if len(dom) > 1 else dom.start
        self.trace = self.recorded = None
        self.stream = []
        self.scalar_calls = []      # (how many ops of the stream came before, site) per scalar-side call

    def scalar_call(self, loc):
        self.scalar_calls.append((len(self.stream), loc))

    def issue(self, op):
        if op.name not in _SYNC:
            if not replayable(op):
                raise Untraced(f"instruction {op.name}{where(op.loc)}")
            op = freeze(op)
        self.n += 1
        self.ops.append(None)
        self.ends.append(0.0)
        self.stream.append(op)
        return None

    def finish(self):
        pass


def _tensor(x):
    return hasattr(type(x), "np_dtype")     # a v1 tensor (the class's property, not computed)


_PLAIN = frozenset((int, float, bool, str, bytes, type(None), np.ndarray))


def _classify(op, walked):
    """Whether the op differs per block (a block value in a GM region's bounds, an attribute itself, an
    item of a list attribute or a tensor's own field: where ``concrete`` substitutes it). A block value
    anywhere else (an on-chip address, a parameter object, a nested container) raises ``Untraced``.
    ``walked``: id -> depth of the objects found clean so far."""
    variant = False
    for r in op.reads + op.writes:
        if type(r.lo) is BlockIndex or type(r.hi) is BlockIndex:
            if r.space != "GM":
                raise Untraced(f"{op.name}{where(op.loc)}: an on-chip address depends on the block")
            variant = True
    for v in op.attrs.values():
        for x in (v if type(v) is list else (v,)):
            t = type(x)
            if t in _PLAIN:
                continue
            if t is BlockIndex:
                variant = True
                continue
            for y in (x.__dict__.values() if _tensor(x) else (x,)):
                ty = type(y)
                if ty is BlockIndex:
                    variant = True
                elif ty not in _PLAIN and _holds_index(y, 3, walked):
                    raise Untraced(f"{op.name}{where(op.loc)}: a parameter depends on the block")
    return variant


def _holds_index(x, depth, walked):
    t = type(x)
    if t is BlockIndex:
        return True
    if t in _PLAIN or not depth or walked.get(id(x), -1) >= depth:
        return False
    if t in (list, tuple, set, frozenset):
        items = x
    elif t is dict:
        items = x.values()
    else:
        d = getattr(x, "__dict__", None)
        items = d.values() if d else ()
    for y in items:
        if _holds_index(y, depth - 1, walked):
            return True
    walked[id(x)] = depth
    return False


def _tensor_at(t, b):
    if not _tensor(t):
        return at(t, b)
    c = None
    for k, v in t.__dict__.items():
        if type(v) is BlockIndex:
            if c is None:
                c = object.__new__(type(t))
                c.__dict__.update(t.__dict__)
            c.__dict__[k] = at(v, b)
    return t if c is None else c


def _region_at(r, b):
    if type(r.lo) is not BlockIndex and type(r.hi) is not BlockIndex:
        return r
    return Region(r.space, r.buf, at(r.lo, b), at(r.hi, b), r.granules, r.position, r.owner, r.exact)


def concrete(op, b, variant=True):
    """The op block ``b`` issues."""
    if not variant:
        return op
    attrs = {k: [_tensor_at(x, b) for x in v] if type(v) is list else _tensor_at(v, b) for k, v in op.attrs.items()}
    return type(op)(op.name, op.pipe, tuple(_region_at(r, b) for r in op.reads),
                    tuple(_region_at(r, b) for r in op.writes), attrs, op.loc)


class Stream:
    """A traced stream: per op, whether it differs per block; ``of(b)``: block ``b``'s ops. Raises ``Untraced``
    where a block value sits where ``concrete`` does not substitute it: once, over the whole stream, after
    the body ran (the ops' shared objects as they are then), walking each distinct object once."""

    def __init__(self, ops, scalar_calls=()):
        self.ops = ops
        walked = {}
        self.variant = [op.name not in _SYNC and _classify(op, walked) for op in ops]
        self.scalar_calls = {}      # op index -> the sites of the scalar-side calls made before it
        for i, loc in scalar_calls:
            self.scalar_calls.setdefault(i, []).append(loc)

    def of(self, b):
        return [concrete(op, b, v) for op, v in zip(self.ops, self.variant)]

    def issue(self, eng, ops):
        """``eng`` issues ``ops`` (``of(b)``) with the kernel's scalar-side calls where the body made them."""
        calls = self.scalar_calls
        if eng.deferred is not None and not eng.auto_sync and eng.timing.events is None:
            loop = find_loop(ops, calls)      # block 0 of blocks apart: a loop's repeating trips added up
            if loop is not None:
                return run_stream(eng, ops, calls, loop)
        if not calls:
            for op in ops:
                eng.issue(op)
            return
        for i, op in enumerate(ops):
            for loc in calls.get(i, ()):
                eng.scalar_call(loc)
            eng.issue(op)
        for loc in calls.get(len(ops), ()):
            eng.scalar_call(loc)


def trace_classes(launch, body, nblk):
    """[(blocks, Stream)]: the body traced for every block, in classes of consecutive blocks where a decision
    differs between blocks (``body(engine)`` runs the kernel's body on a ``SymbolicTrace``)."""
    pending, classes = [range(nblk)], []
    while pending:
        dom = pending.pop(0)
        tr = SymbolicTrace(launch, dom)
        try:
            body(tr)
        except BlockSplit as e:
            if len(classes) + len(pending) + len(e.runs) > MAX_CLASSES or len(e.runs) < 2:
                raise Untraced(f"the stream differs in more than {MAX_CLASSES} classes of blocks "
                               f"({e.where()})") from None
            pending[:0] = e.runs
            continue
        classes.append((dom, Stream(tr.stream, tr.scalar_calls)))
    return classes


# -- blocks 1.. as lanes ------------------------------------------------------------------------------
def _gm_spans(stream, gm, dom):
    """Per GM argument, [(lo, hi, stride, write)] of the first block's accesses, or the reason the blocks
    ``dom`` cannot run as lanes (an access outside its argument in some block, one moving backwards)."""
    spans = {}
    for op, v in zip(stream.ops, stream.variant):
        if op.name in _SYNC:
            continue
        for regions, write in ((op.reads, False), (op.writes, True)):
            for r in regions:
                if r.space != "GM":
                    continue
                s = stride(r.lo)
                if s is None or stride(r.hi) is None:
                    return "an access that does not move by one step per block"
                if stride(r.hi) != s:
                    return "an access whose size depends on the block"
                if s < 0:
                    return "an access moving backwards with the block"
                lo, hi = at(r.lo, dom.start), at(r.hi, dom.start)
                if hi + s * (len(dom) - 1) > gm[r.buf].nbytes:
                    return "an access past its argument's end in a later block"
                if r.granules is not None or r.exact is not None:
                    if s:
                        return "a strided GM access that moves with the block"
                spans.setdefault(r.buf, []).append((lo, hi, s, write))
    return spans


def _disjoint(spans, gm):
    """Whether no block's accesses of an argument some block writes meet another block's (each argument's
    accesses move by one stride, and one block's span of it fits in that stride)."""
    for buf, acc in spans.items():
        if not any(w for *_, w in acc):
            continue
        isz = gm[buf].itemsize
        strides = {s for _, _, s, _ in acc}
        if len(strides) != 1:
            return False
        s = strides.pop()
        lo = min(a for a, _, _, _ in acc) // isz
        hi = max(-(-h // isz) for _, h, _, _ in acc)
        if s % isz or (hi - lo) * isz > s:
            return False
    return True


def _classes_apart(all_spans, doms, gm):
    """Whether no two blocks of the classes ``doms`` touch the same element of an argument some block writes
    (each class's accesses of an argument moving by one stride)."""
    written = {buf for spans in all_spans for buf, acc in spans.items() if any(w for *_, w in acc)}
    for buf in written:
        isz = gm[buf].itemsize
        hulls = []
        for spans, dom in zip(all_spans, doms):
            acc = [a for a in spans.get(buf, ()) if a[1] > a[0]]
            if not acc:
                continue
            if len({s for _, _, s, _ in acc}) != 1:
                return False
            lo, hi, s = min(a[0] for a in acc), max(a[1] for a in acc), acc[0][2]
            hulls.extend(((lo + j * s) // isz, -(-(hi + j * s) // isz)) for j in range(len(dom)))
        hulls.sort()
        if any(nxt[0] < cur[1] for cur, nxt in zip(hulls, hulls[1:])):
            return False
    return True


def _operand(t, v, first):
    a = t.addr
    if t.space == "GM":
        return ("GM", t.buf, at(a, first), stride(a) if v else 0)
    return (t.space, None, a, 0)


def _lane_step(op, variant, dom):
    a = op.attrs
    if op.name == "data_copy":
        dst, src = _operand(a["dst"], variant, dom.start), _operand(a["src"], variant, dom.start)
        if dst[3] is None or src[3] is None:
            return None       # an address not one step per block: block by block
        return LaneCopy(dst, src, a["segments"], len(dom))
    if op.name in ELEMENTWISE:
        ts = [a["dst"]] + list(a["srcs"])
        if any(t.space == "GM" for t in ts):
            return None
        return LaneVector(op.name, [_operand(t, False, 0) for t in ts], [t.np_dtype for t in ts], a["idx"],
                          a["count"], a["scalar"], len(dom))
    return None


def apart(launch, classes, nblk):
    """Why the blocks of ``classes`` ([(blocks, stream)]) cannot run as lanes whatever their first blocks do
    (an access outside its argument in some block, blocks meeting in GM, too much on-chip memory to stack),
    or None: then no two blocks touch the same GM bytes, and the launch's GM log keeps only what the coverage
    warning needs."""
    all_spans = []
    for dom, stream in classes:
        spans = _gm_spans(stream, launch.gm, dom)
        if isinstance(spans, str):
            return spans
        if len(dom) > 1 and not _disjoint(spans, launch.gm):
            return "blocks whose GM windows overlap"
        all_spans.append(spans)
    if len(classes) > 1 and not _classes_apart(all_spans, [dom for dom, _ in classes], launch.gm):
        return "blocks of different classes whose GM windows overlap"
    cap = BlockEngine.capacities(launch.hw)
    spaces = {r.space for _, stream in classes for op in stream.ops for r in op.reads + op.writes
              if r.space != "GM"}
    if nblk * sum(cap[s] for s in spaces) > _SCRATCH_BUDGET:
        return "on-chip memory of every block past the scratch budget"
    launch.gm_races.apart = True
    return None


def run_data(launch, ops):
    """The data of one block's ops, in the order its engine ran them (on fresh on-chip memory, as its
    engine's)."""
    _run_each(launch, [ops])


def run_class(launch, dom, stream, why, recording, paths):
    """The blocks ``dom`` of one class, in turn: (their timings, their data ops when ``recording``, the tape of
    their data or None); the path taken is appended to ``paths`` once the first block ran. The first block
    runs in full; when the launch's blocks are apart (``why`` None) and it neither warned nor held a pipe, the
    others run as lanes, else in full."""
    timings, recorded = [], []
    bytes0, warned = dict(launch.bytes), len(launch.warnings)
    for b in dom:
        ops = stream.of(b)
        eng = BlockEngine(launch, b)
        eng.recorded = None
        if b == dom.start and why is None:
            eng.deferred = []       # blocks apart: the first block's data may run with the others' as lanes
        try:
            stream.issue(eng, ops)
            eng.finish()
        except Exception:
            if eng.deferred:
                run_data(launch, eng.deferred)    # what the first block ran before the error, as in full
            raise
        timings.append(eng.timing)
        recorded.append([op for op in ops if op.name not in _SYNC] if recording else None)
        if b == dom.start:
            why = why or (f"block {b} warned" if len(launch.warnings) > warned else
                          f"block {b} held a pipe" if eng.reordered else None)
            paths.append("lanes" if why is None else "per block: " + why)
            if why is None:
                tape = run_as_lanes(launch, stream, ops, dom, bytes0)
                return [eng.timing] * len(dom), recorded * len(dom), tape
            if eng.deferred:
                run_data(launch, eng.deferred)
    return timings, recorded, None


def run_as_lanes(launch, stream, ops0, dom, bytes0):
    """Every block's data of ``stream`` as lanes (``apart``; the first block's checks ran ``ops0`` in full,
    from ``bytes0`` GM bytes moved); returns the tape of the blocks ``dom``, for a later launch."""
    gm = launch.gm
    cap = BlockEngine.capacities(launch.hw)
    nblk, first = len(dom), dom.start
    data = [(op, v) for op, v in zip(stream.ops, stream.variant) if op.name not in _SYNC]
    data0 = [op for op in ops0 if op.name not in _SYNC]
    spaces = {r.space for op in data0 for r in op.reads + op.writes if r.space != "GM"}
    steps = []
    for op, v in data:
        st = _lane_step(op, v, dom)
        if st is not None:
            steps.append(("lanes", st))
        else:
            steps.extend(("block", (j, concrete(op, b, v))) for j, b in enumerate(dom))
    if all(kind == "lanes" for kind, _ in steps):
        steps = [("lanes", st) for st in fold_steps([st for _, st in steps], nblk)]
    scratch = {s: np.empty((nblk, cap[s]), np.uint8) for s in sorted(spaces)}
    init = _reads_unwritten([data0], cap)
    tape = Tape(steps, scratch, sorted(s for s in spaces if init.get(s)), None)
    # their GM checks hold (``apart``); what they moved, and wrote for the coverage warning
    for key in ("in", "out"):
        launch.bytes[key] += (launch.bytes[key] - bytes0[key]) * (nblk - 1)
    if launch.checks:
        for op, v in data:
            for r in op.writes:
                if r.space == "GM":
                    launch.gm_races.cover_blocks(_region_at(r, first), stride(r.lo), 1, nblk)
    tape.replay(gm)
    return tape


class ClassTapes:
    """The tapes of a launch's classes of blocks, replayed in block order (as one ``replay.Tape``)."""

    def __init__(self, tapes):
        self.tapes, self.report = tapes, None
        self.batched = any(t.batched for t in tapes)

    @property
    def nbytes(self):
        return sum(t.nbytes for t in self.tapes)

    def replay(self, gm):
        for t in self.tapes:
            t.replay(gm)

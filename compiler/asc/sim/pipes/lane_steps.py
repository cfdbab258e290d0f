"""One recorded op of every block at once (a replay's "lanes" step), and the copies a replay need not make.

A step runs op ``k`` of every block as one numpy call over ``(blocks, bytes)`` views: of GM (row ``b`` starts
at the block's offset) and of the blocks' stacked on-chip memories. Its operands are
``(space, GM buffer or None, block 0's byte address, per-block stride)``.

``forward_copies``: a GM -> on-chip copy whose destination is only read, before anything overwrites it or
the source, by vector instructions (or copies) reading inside it needs no on-chip round trip: those readers
read the GM source directly and the copy is dropped (on-chip memory is dead at the end of a launch). A copy
whose destination is read any other way, or partly overwritten, or whose source is written meanwhile, is
made at that point, as recorded. The result is the same bytes in GM as running every step.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .compute import _BINARY, _UNARY, binary_values, scalar_values, unary_values

ELEMENTWISE = frozenset(_BINARY) | frozenset(_UNARY) | {"adds", "muls", "leaky_relu", "maxs", "mins", "axpy",
                                                         "duplicate"}


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


def _rows(ctx, scratch, opnd, nblk, trip=None):
    """The (blocks, bytes) array an operand's windows are columns of: a block's on-chip memory per row, or
    for GM row b the buffer's bytes from b * stride on (as far as the last block reaches); from block
    ``ctx.first`` on. ``trip`` (trips, byte step) on GM: (blocks, trips, bytes), trip t moved t steps on."""
    space, buf, _, stride = opnd
    if space != "GM":
        return scratch[space][ctx.first:] if ctx.first else scratch[space]
    rows = ctx.rows.get((buf, stride, trip))
    if rows is None:
        raw = ctx.raw[buf]
        if trip is None:
            shape, strides = (nblk, raw.size - (nblk - 1) * stride), (stride, 1)
        else:
            shape = (nblk, trip[0], raw.size - (nblk - 1) * stride - (trip[0] - 1) * trip[1])
            strides = (stride, trip[1], 1)
        rows = ctx.rows[(buf, stride, trip)] = as_strided(raw, shape=shape, strides=strides)[ctx.first:]
    return rows


def _typed_rows(ctx, scratch, opnd, dt, nblk, trip=None):
    key = (opnd[0], opnd[1], opnd[3], dt, trip)
    v = ctx.typed.get(key)
    if v is None:
        rows = _rows(ctx, scratch, opnd, nblk, trip)
        usable = rows.shape[-1] // dt.itemsize * dt.itemsize
        v = ctx.typed[key] = rows[..., :usable].view(dt)
    return v


def _place(opnd):
    """An operand without its GM address: (space, buffer, on-chip address or None, per-block stride)."""
    return (opnd[0], opnd[1], None if opnd[0] == "GM" else opnd[2], opnd[3])


def _moved(opnd, shift):
    return (opnd[0], opnd[1], opnd[2] + shift[opnd[1]], opnd[3]) if opnd[0] == "GM" else opnd


def lanes_step(ops):
    """The step running ``ops`` (op k of every block), or None when the blocks' ops differ beyond a per-block
    GM offset."""
    op0 = ops[0]
    if any(op.name != op0.name for op in ops):
        return None
    if op0.name == "data_copy":
        return LaneCopy.of(ops)
    if op0.name in ELEMENTWISE:
        return LaneVector.of(ops)
    return None


class LaneCopy:
    def __init__(self, dst, src, segments, nblk):
        self.dst, self.src, self.segments, self.nblk = dst, src, segments, nblk
        # its columns and spans, made when first asked for (then kept: the copy passes look at a step's many
        # times; the steps of a loop's later trips are only compared, ``lane_trips``)
        self.cols = self._reads = self._writes = None

    @classmethod
    def of(cls, ops):
        a0 = ops[0].attrs
        if any(op.attrs["segments"] != a0["segments"] for op in ops):
            return None
        dst, src = _operand([op.attrs["dst"] for op in ops]), _operand([op.attrs["src"] for op in ops])
        if dst is None or src is None:
            return None
        return cls(dst, src, a0["segments"], len(ops))

    def reads(self):
        """[(operand index, operand, block 0's first byte, end)] of what the step reads."""
        if self._reads is None:
            src = self.src
            self._reads = [(1, src, src[2] + s, src[2] + s + n) for s, _, n in self.segments]
        return self._reads

    def writes(self):
        if self._writes is None:
            dst = self.dst
            self._writes = [(0, dst, dst[2] + d, dst[2] + d + n) for _, d, n in self.segments]
        return self._writes

    def operand(self, k):
        return self.dst if k == 0 else self.src

    def read_through(self, k, opnd):
        """This copy with its source replaced by ``opnd`` (a GM operand holding the same bytes)."""
        return LaneCopy(self.dst, opnd, self.segments, self.nblk) if k == 1 else None

    def shape(self):
        """What the step is apart from its GM addresses (``lane_trips``: steps of a loop's trips)."""
        return ("copy", self.segments, _place(self.dst), _place(self.src))

    def operands(self):
        return (self.dst, self.src)

    def moved(self, shift):
        """This step with each GM operand moved ``shift[buffer]`` bytes on."""
        return LaneCopy(_moved(self.dst, shift), _moved(self.src, shift), self.segments, self.nblk)

    def __call__(self, ctx, scratch):
        d, s = _rows(ctx, scratch, self.dst, self.nblk), _rows(ctx, scratch, self.src, self.nblk)
        if self.cols is None:
            dst, src = self.dst[2], self.src[2]
            self.cols = [(slice(dst + d_off, dst + d_off + n), slice(src + s_off, src + s_off + n))
                         for s_off, d_off, n in self.segments]
        for dc, sc in self.cols:
            d[:, dc] = s[:, sc]


class LaneVector:
    def __init__(self, name, opnds, dtypes, idx, count, scalar, nblk):
        self.name, self.opnds, self.dtypes, self.idx = name, opnds, dtypes, idx
        self.count, self.scalar, self.nblk = count, scalar, nblk
        # element windows of each operand in its typed (blocks, elements) view
        self.where = [self._where(k) for k in range(len(opnds))]
        # one ufunc into the destination where it rounds as binary_values does (floats: numpy computes a half
        # in float and rounds once; integer division truncates, which true division would not)
        ufunc = _BINARY.get(name) if idx is None and all(d == dtypes[0] for d in dtypes) else None
        if ufunc is not None and name == "div" and dtypes[0].kind != "f":
            ufunc = None
        self.ufunc = ufunc
        self.trips = None     # (trips, per operand its byte step): a loop's trips as a second lane axis
        self._reads = self._writes = None

    def _where(self, k):
        base = self.opnds[k][2] // self.dtypes[k].itemsize
        return slice(base, base + self.count) if self.idx is None else base + self.idx[k]

    def _spans(self):
        """Its spans, made when first asked for (a step does not change: the copy passes look at each step's
        many times)."""
        srcs = [self._span(k) for k in range(1, len(self.opnds))]
        self._reads = srcs + [self._span(0)] if self.name == "axpy" else srcs
        self._writes = [self._span(0)]

    def _with(self, k, opnd):
        """This step with operand ``k`` at ``opnd`` (the rest as it is)."""
        c = object.__new__(LaneVector)
        c.__dict__.update(self.__dict__)
        c.opnds = list(self.opnds)
        c.opnds[k] = opnd
        c.where = list(self.where)
        c.where[k] = c._where(k)
        c._reads = c._writes = None
        return c

    @classmethod
    def of(cls, ops):
        a0 = ops[0].attrs
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
        return cls(ops[0].name, opnds, [t.np_dtype for t in tensors[0]], idx, a0["count"], a0["scalar"], len(ops))

    def _span(self, k):
        o, dt = self.opnds[k], self.dtypes[k]
        if self.idx is None:
            reach = (self.trips[0] - 1) * self.trips[1][k] if self.trips else 0
            return (k, o, o[2], o[2] + self.count * dt.itemsize + reach)
        ix = self.idx[k]
        if not ix.size:
            return (k, o, o[2], o[2])
        return (k, o, o[2] + int(ix.min()) * dt.itemsize, o[2] + (int(ix.max()) + 1) * dt.itemsize)

    def operand(self, k):
        return self.opnds[k]

    def reads(self):
        if self._reads is None:
            self._spans()
        return self._reads

    def writes(self):
        if self._writes is None:
            self._spans()
        return self._writes

    def read_through(self, k, opnd):
        """This step with source operand ``k`` replaced by ``opnd`` (a GM operand holding the same bytes), or
        None when its elements cannot be addressed there."""
        if k == 0 or opnd[2] < 0 or opnd[2] % self.dtypes[k].itemsize or opnd[3] % self.dtypes[k].itemsize:
            return None
        return self._with(k, opnd)

    def shape(self):
        idx = self.idx
        if idx is not None:
            idx = tuple(tuple(i.tolist()) for i in idx)
        return (self.name, tuple(self.dtypes), self.count, self.scalar, idx, self.trips,
                tuple(_place(o) for o in self.opnds))

    def operands(self):
        return self.opnds

    def moved(self, shift):
        c = object.__new__(LaneVector)
        c.__dict__.update(self.__dict__)
        c.opnds = [_moved(o, shift) for o in self.opnds]
        c.where = [c._where(k) for k in range(len(c.opnds))]
        c._reads = c._writes = None
        return c

    def over_trips(self, trips, deltas):
        """This step over ``trips`` trips, operand k moved ``deltas[k]`` bytes a trip (``merge_trips``)."""
        c = self._with(0, self.opnds[0])
        c.trips = (trips, tuple(deltas))
        c._reads = c._writes = None
        return c

    def write_to(self, opnd):
        """This step writing its result to ``opnd`` (a GM operand) instead of its on-chip destination, or None
        when its elements cannot be addressed there."""
        dt = self.dtypes[0]
        if self.name == "axpy" or self.idx is not None or opnd[2] % dt.itemsize or opnd[3] % dt.itemsize:
            return None
        return self._with(0, opnd)

    def __call__(self, ctx, scratch):
        trips = self.trips
        views = [_typed_rows(ctx, scratch, o, dt, self.nblk, trips and (trips[0], trips[1][k]))
                 for k, (o, dt) in enumerate(zip(self.opnds, self.dtypes))]
        where, name = self.where, self.name
        d = views[0]
        if self.ufunc is not None:
            self.ufunc(views[1][..., where[1]], views[2][..., where[2]], out=d[..., where[0]])
        elif name in _BINARY:
            d[..., where[0]] = binary_values(name, views[1][..., where[1]], views[2][..., where[2]], d.dtype)
        elif name in _UNARY:
            d[..., where[0]] = unary_values(name, views[1][..., where[1]], d.dtype)
        elif name == "duplicate":
            d[..., where[0]] = d.dtype.type(self.scalar)
        else:
            old = d[..., where[0]] if name == "axpy" else None
            d[..., where[0]] = scalar_values(name, views[1][..., where[1]], self.scalar, old, d.dtype)


# -- copies a replay need not make ---------------------------------------------------------------------
def _gm_overlap(a, lo, hi, b, lo2, hi2, nblk):
    """Whether the GM bytes two operands' windows touch over every block may share a byte (same buffer)."""
    if a[1] != b[1]:
        return False
    return lo < hi2 + (nblk - 1) * b[3] and lo2 < hi + (nblk - 1) * a[3]


def forward_copies(steps, nblk):
    """``steps`` (LaneCopy / LaneVector, in order) with GM -> on-chip copies read through where they can be."""
    out = []
    deferred = []     # [copy, on-chip space, lo, hi]: made later, or never

    def make(entry):
        deferred.remove(entry)
        out.append(entry[0])

    for st in steps:
        # an operand read inside one deferred copy's destination reads its source; any other read of a
        # deferred destination makes the copy first
        spans = {}
        for k, o, lo, hi in st.reads():
            if o[0] != "GM" and hi > lo:
                spans.setdefault(k, []).append((o[0], lo, hi))
        for k, rs in spans.items():
            hit = [e for e in deferred if any(e[1] == sp and e[2] < hi and lo < e[3] for sp, lo, hi in rs)]
            if not hit:
                continue
            through = None
            if len(hit) == 1 and all(hit[0][2] <= lo and hi <= hit[0][3] for _, lo, hi in rs):
                copy, _, dlo, _ = hit[0]
                src = copy.src
                through = st.read_through(k, (src[0], src[1], src[2] + st.operand(k)[2] - dlo, src[3]))
            if through is None:
                for e in hit:
                    make(e)
            else:
                st = through
        # writes: a deferred copy whose source is overwritten is made first; one whose destination is
        # overwritten is dead if wholly covered, made first if partly
        for _, o, lo, hi in st.writes():
            if hi <= lo:
                continue
            for entry in list(deferred):
                copy, space, dlo, dhi = entry
                if o[0] == "GM":
                    if any(_gm_overlap(src, s_lo, s_hi, o, lo, hi, nblk) for _, src, s_lo, s_hi in copy.reads()):
                        make(entry)
                elif space == o[0] and dlo < hi and lo < dhi:
                    if lo <= dlo and dhi <= hi:
                        deferred.remove(entry)
                    else:
                        make(entry)
        if isinstance(st, LaneCopy) and st.src[0] == "GM" and st.dst[0] != "GM" and len(st.segments) == 1:
            (_, _, lo, hi), = st.writes()
            deferred.append([st, st.dst[0], lo, hi])
        else:
            out.append(st)
    return out


def _touches(st, space, lo, hi, gm=None, nblk=1):
    """Whether step ``st`` reads or writes on-chip bytes [lo, hi) of ``space`` (or, given ``gm``: an operand
    with its span, the GM bytes it covers)."""
    for _, o, a, b in st.reads() + st.writes():
        if b <= a:
            continue
        if o[0] == space and a < hi and lo < b:
            return True
        if gm is not None and o[0] == "GM" and _gm_overlap(gm[0], gm[1], gm[2], o, a, b, nblk):
            return True
    return False


def sink_copies(steps, nblk):
    """``steps`` with copy-outs of a vector result folded into the vector instruction where possible."""
    steps = list(steps)
    for c, st in enumerate(steps):
        if not (isinstance(st, LaneCopy) and st.dst[0] == "GM" and st.src[0] != "GM" and len(st.segments) == 1):
            continue
        (_, src, lo, hi), = st.reads()
        (_, dst, glo, ghi), = st.writes()
        space, gm = src[0], (dst, glo, ghi)
        v = None
        for j in range(c - 1, -1, -1):
            o = steps[j]
            if o is None:
                continue
            w = o.writes()
            if isinstance(o, LaneVector) and w[0][1][0] == space and (w[0][2], w[0][3]) == (lo, hi) and \
                    not _touches(o, "", 0, 0, gm, nblk) and not any(k and op[0] == space and a < hi and lo < b
                                                                   for k, op, a, b in o.reads()):
                v = j
                break
            if _touches(o, space, lo, hi, gm, nblk):
                break
        if v is None:
            continue
        later = True
        for o in steps[c + 1:]:
            if o is None:
                continue
            if any(op[0] == space and a < hi and lo < b for _, op, a, b in o.reads()):
                later = False
                break
            if any(op[0] == space and a <= lo and hi <= b for _, op, a, b in o.writes()):
                break
            if any(op[0] == space and a < hi and lo < b for _, op, a, b in o.writes()):
                later = False
                break
        if not later:
            continue
        vec = steps[v].write_to((dst[0], dst[1], glo, dst[3]))
        if vec is not None:
            steps[v], steps[c] = vec, None
    return [st for st in steps if st is not None]


"""A loop's trips in a lane tape (``lane_steps``): folded once, and run as one step where they can.

A kernel's loop issues the same instructions trip after trip, its GM addresses moved on and its on-chip
buffers the same (or alternating: a period of two trips when it double-buffers). ``fold_steps`` finds that
period in a tape's steps: steps ``i`` and ``i + P`` alike but for their GM addresses, each GM buffer's moved
by one shift a period. When every period reads only on-chip bytes it wrote itself (it depends on GM and
its own steps alone), the copy passes (``forward_copies``, ``sink_copies``) run over one period, and the
other periods are that result moved by their shifts: the same steps the passes give over the whole tape
for what reaches GM, in a fraction of the time. ``merge_trips`` then runs consecutive trips of one
elementwise instruction on GM as one numpy call over (blocks, trips) lanes.
"""
from __future__ import annotations

from .lane_steps import LaneCopy, LaneVector, forward_copies, sink_copies


def fold_steps(steps, nblk):
    """Lane steps without the copies a replay need not make, a loop's trips merged."""
    period = _period(steps)
    if period is not None:
        p, shift = period
        one = sink_copies(forward_copies(steps[:p], nblk), nblk)
        folded = []
        for k in range(len(steps) // p):
            at = {buf: k * d for buf, d in shift.items()}
            folded.extend(one if not k else [st.moved(at) for st in one])
    else:
        folded = sink_copies(forward_copies(steps, nblk), nblk)
    return merge_trips(folded, nblk)


def _period(steps):
    """(P, bytes each GM buffer moves a period) of steps that repeat every P steps (at least twice, with
    nothing before or after), each period reading only on-chip bytes it wrote first; or None."""
    n = len(steps)
    if n < 2:
        return None
    shapes = [st.shape() for st in steps]
    for p in range(1, n // 2 + 1):
        if n % p or shapes[p] != shapes[0] or shapes[p:] != shapes[:-p]:
            continue
        shift = _shift(steps, p)
        if shift is not None and _self_contained(steps[:p]):
            return p, shift
    return None


def _shift(steps, p):
    """Per GM buffer the one shift between every step and the one P steps on, or None."""
    shift = {}
    for a, b in zip(steps, steps[p:]):
        for x, y in zip(a.operands(), b.operands()):
            if x[0] == "GM" and shift.setdefault(x[1], y[2] - x[2]) != y[2] - x[2]:
                return None
    return shift


def _self_contained(steps):
    """Whether every on-chip byte the steps read was written before by one of them (a whole write: a copy, or
    an elementwise instruction without an index; reads as the hull of what they touch)."""
    written = {}      # space -> [(lo, hi)] written
    for st in steps:
        for _, o, lo, hi in st.reads():
            if o[0] != "GM" and hi > lo and not any(a <= lo and hi <= b for a, b in written.get(o[0], ())):
                return False
        if isinstance(st, LaneCopy) or st.idx is None:
            for _, o, lo, hi in st.writes():
                if o[0] != "GM":
                    written.setdefault(o[0], []).append((lo, hi))
    return True


# -- a loop's trips as one step ------------------------------------------------------------------------
def merge_trips(steps, nblk):
    """``steps`` with each run of consecutive elementwise steps on GM alone that repeat with every operand
    moved by a step of its own (a loop's trips, after the copies were folded away) as one step over
    (blocks, trips) lanes, where no lane writes bytes another lane reads or writes (then their order does
    not matter)."""
    out, i = [], 0
    while i < len(steps):
        st, j = steps[i], i + 1
        if _gm_elementwise(st) and j < len(steps) and _like(st, steps[j]):
            deltas = [b[2] - a[2] for a, b in zip(st.opnds, steps[j].opnds)]
            while j < len(steps) and _like(st, steps[j]) and \
                    all(o[2] == a[2] + (j - i) * d for o, a, d in zip(steps[j].opnds, st.opnds, deltas)):
                j += 1
            if _trips_apart(st, j - i, deltas, nblk):
                out.append(st.over_trips(j - i, deltas))
                i = j
                continue
            j = i + 1
        out.append(st)
        i = j
    return out


def _gm_elementwise(st):
    return isinstance(st, LaneVector) and st.trips is None and st.idx is None and \
        all(o[0] == "GM" for o in st.opnds)


def _like(a, b):
    """Whether step ``b`` is step ``a`` at other GM addresses (the same buffers and per-block strides)."""
    return _gm_elementwise(b) and (a.name, a.dtypes, a.count, a.scalar) == (b.name, b.dtypes, b.count, b.scalar) \
        and all(x[1] == y[1] and x[3] == y[3] for x, y in zip(a.opnds, b.opnds))


def _trips_apart(st, trips, deltas, nblk):
    """Whether the destination windows of every (block, trip) lane are disjoint, and a source in the
    destination's buffer is the destination itself (an in-place instruction reads only its own lane)."""
    dst, width, d = st.opnds[0], st.count * st.dtypes[0].itemsize, deltas[0]
    if trips < 2 or d < width or min(deltas) < 0 or (nblk > 1 and (trips - 1) * d + width > dst[3]):
        return False
    return all(o[1] != dst[1] or (o[2], o[3], dk) == (dst[2], dst[3], d) for o, dk in zip(st.opnds[1:], deltas[1:]))

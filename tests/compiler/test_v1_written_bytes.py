"""The initcheck's record of written on-chip bytes (``sim/pipes/written.py``): ranges while writes are
contiguous, the byte array after a strided or masked write. Either form must answer as a plain byte array
would: a read one byte past what was written has one unwritten byte, two writes that touch cover a read
across their seam."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from asc.ir.pipe_ops import Region
from asc.sim.pipes.written import WrittenBytes

CAP = 1024


def _r(lo, hi, granules=None, exact=None):
    return Region("UB", None, lo, hi, granules=granules, exact=exact)


def test_a_read_one_byte_past_the_write_has_one_unwritten_byte():
    w = WrittenBytes(CAP)
    w.mark(_r(64, 128))
    assert w.unwritten(_r(64, 128)).size == 0
    assert w.unwritten(_r(64, 129)).tolist() == [128]
    assert w.unwritten(_r(63, 128)).tolist() == [63]


def test_writes_that_touch_cover_a_read_across_their_seam():
    w = WrittenBytes(CAP)
    w.mark(_r(128, 192))
    w.mark(_r(64, 128))
    assert w.ranges == [(64, 192)]
    assert w.unwritten(_r(100, 150)).size == 0
    w.mark(_r(256, 320))          # a gap: [192, 256) stays unwritten
    assert w.unwritten(_r(64, 320)).tolist() == list(range(192, 256))


_write = st.one_of(
    st.tuples(st.just("range"), st.integers(0, CAP), st.integers(0, 96)),
    st.tuples(st.just("granules"), st.lists(st.integers(0, CAP // 32 - 1), min_size=1, max_size=4), st.just(0)),
    st.tuples(st.just("exact"), st.lists(st.integers(0, CAP - 1), min_size=1, max_size=6), st.just(0)))


def _region(w):
    kind, a, n = w
    if kind == "range":
        return _r(min(a, CAP), min(a + n, CAP))
    if kind == "granules":
        g = np.array(sorted(set(a)))
        return _r(int(g[0]) * 32, int(g[-1]) * 32 + 32, granules=g)
    e = np.array(sorted(set(a)))
    return _r(int(e[0]), int(e[-1]) + 1, exact=e)


@settings(max_examples=200, deadline=None)
@given(st.lists(_write, max_size=40), st.lists(_write, min_size=1, max_size=4))
def test_either_form_answers_as_a_byte_array(writes, reads):
    w, ref = WrittenBytes(CAP), np.zeros(CAP, bool)
    for x in writes:
        r = _region(x)
        w.mark(r)
        if r.exact is not None:
            ref[r.exact] = True
        elif r.granules is not None:
            ref.reshape(-1, 32)[r.granules] = True
        else:
            ref[r.lo:r.hi] = True
    for x in reads:
        r = _region(x)
        if r.exact is not None:
            expect = r.exact[~ref[r.exact]]
        elif r.granules is not None:
            expect = (r.granules[:, None] * 32 + np.arange(32))[~ref.reshape(-1, 32)[r.granules]]
        else:
            expect = r.lo + np.flatnonzero(~ref[r.lo:r.hi])
        assert w.unwritten(r).tolist() == expect.reshape(-1).tolist()

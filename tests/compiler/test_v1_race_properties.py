"""Random software-pipelined copy-in / compute / copy-out programs: flagged on every cross-pipe dependency
they run clean and compute the right result; with one flag pair removed, the detector reports exactly what
an independent happens-before check (graph reachability) finds, naming a pair of pipes it finds."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import asc
from asc.sim.executor import KernelRuntimeError

N = 64   # fp32 elements per tile
PIPE = {"in": "MTE2", "c": "V", "out": "MTE3"}


@asc.jit
def pipelined(x: asc.GlobalAddress, z: asc.GlobalAddress, buffers: asc.ConstExpr[int], program: asc.ConstExpr[tuple]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    x_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, N * buffers)
    z_ub = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, N * 4 * buffers, N * buffers)
    for kind, a, b in program:
        if kind == "in":
            asc.data_copy(x_ub[b * N:], x_gm[a * N:], N)
        elif kind == "c":
            asc.muls(z_ub[b * N:], x_ub[b * N:], 3.0, N)
        elif kind == "out":
            asc.data_copy(z_gm[a * N:], z_ub[b * N:], N)
        elif kind == "set":
            asc.set_flag(asc.HardEvent[a], b)
        else:
            asc.wait_flag(asc.HardEvent[a], b)


def _edges(tiles, buffers):
    """Dependencies (producer stage, consumer stage, HardEvent name, id) between pipes."""
    out = []
    for t in range(tiles):
        b = t % buffers
        out += [(("in", t), ("c", t), "MTE2_V", b), (("c", t), ("out", t), "V_MTE3", b)]
        if t >= buffers:
            out += [(("c", t - buffers), ("in", t), "V_MTE2", b), (("out", t - buffers), ("c", t), "MTE3_V", b)]
    return out


@st.composite
def programs(draw):
    tiles = draw(st.integers(1, 6))
    buffers = draw(st.integers(1, 3))
    edges = _edges(tiles, buffers)
    stages = [(k, t) for t in range(tiles) for k in ("in", "c", "out")]
    preds = {s: {p for p, c, _, _ in edges if c == s} for s in stages}
    preds.update({("c", t): preds[("c", t)] | {("in", t)} for t in range(tiles)})
    done, order = set(), []
    while len(order) < len(stages):        # a random topological order of the stages
        ready = [s for s in stages if s not in done and preds[s] <= done]
        s = ready[draw(st.integers(0, len(ready) - 1))]
        order.append(s)
        done.add(s)
    removed = draw(st.one_of(st.none(), st.integers(0, len(edges) - 1))) if edges else None
    return tiles, buffers, order, edges, removed


def _program(tiles, buffers, order, edges, removed):
    kept = [e for i, e in enumerate(edges) if i != removed]
    prog = []
    for s in order:
        prog += [("wait", ev, i) for p, c, ev, i in kept if c == s]
        prog.append((s[0], s[1], s[1] % buffers))
        prog += [("set", ev, i) for p, c, ev, i in kept if p == s]
    return tuple(prog)


def _oracle(prog, buffers):
    """Pairs (kind, earlier pipe, later pipe) of the first access not ordered after an earlier conflicting
    one, by reachability over pipe order and set -> wait edges; [] when every conflict is ordered."""
    nodes = []   # (pipe, accesses)
    for kind, a, b in prog:
        if kind in PIPE:
            acc = {"in": [("x", b, "w"), ("gx", a, "r")], "c": [("x", b, "r"), ("z", b, "w")],
                   "out": [("z", b, "r"), ("gz", a, "w")]}[kind]
            nodes.append((PIPE[kind], acc))
        else:
            src, dst = a.split("_")
            nodes.append((src if kind == "set" else dst, []))
    succ = {i: set() for i in range(len(nodes))}
    last = {}
    pending = {}
    for i, ((kind, a, b), (pipe, _)) in enumerate(zip(prog, nodes)):
        if pipe in last:
            succ[last[pipe]].add(i)
        last[pipe] = i
        if kind == "set":
            pending[(a, b)] = i
        elif kind == "wait":
            succ[pending.pop((a, b))].add(i)
    reach = {}
    for i in reversed(range(len(nodes))):
        r = set()
        for j in succ[i]:
            r |= {j} | reach[j]
        reach[i] = r
    for j, (pj, accj) in enumerate(nodes):
        found = []
        for i in range(j):
            pi, acci = nodes[i]
            if pi == pj or j in reach[i]:
                continue
            for (m1, k1, rw1) in acci:
                for (m2, k2, rw2) in accj:
                    if (m1, k1) == (m2, k2) and "w" in (rw1, rw2):
                        found.append(({("w", "r"): "read-after-write", ("r", "w"): "write-after-read",
                                       ("w", "w"): "write-after-write"}[(rw1, rw2)], pi, pj))
        if found:
            return found
    return []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_random_pipelines_report_exactly_the_unordered_pairs(case):
    tiles, buffers, order, edges, removed = case
    prog = _program(tiles, buffers, order, edges, removed)
    expected = _oracle(prog, buffers)
    x = np.arange(tiles * N, dtype=np.float32)
    z = np.zeros_like(x)
    if not expected:
        pipelined[1](x, z, buffers, prog)
        np.testing.assert_array_equal(z, x * 3)
        assert asc.runtime.last_launch_report()["warnings"] == []
        return
    assert removed is not None, "a fully flagged program must be race free"
    with pytest.raises(KernelRuntimeError) as e:
        pipelined[1](x, z, buffers, prog)
    text = str(e.value)
    assert any(f"{kind} race" in text and f"between pipes {p1} and {p2}" in text for kind, p1, p2 in expected), \
        (text, expected)


def test_the_oracle_sees_a_removed_flag():
    edges = _edges(1, 1)
    order = [("in", 0), ("c", 0), ("out", 0)]
    assert _oracle(_program(1, 1, order, edges, None), 1) == []
    assert _oracle(_program(1, 1, order, edges, 0), 1) == [("read-after-write", "MTE2", "V")]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.integers(0, 2047), st.integers(0, 2048), st.booleans(), st.integers(0, 6),
                          st.integers(0, 40), st.booleans()), min_size=1, max_size=80))
def test_the_range_tracker_answers_as_the_granule_array(accesses):
    """The race detector's per-memory record of the latest access per pipe, kept as granule ranges, gives
    what the granule array gives for every access: partial overlaps, accesses sharing a 32-byte granule at
    either end, an op recorded after a later one (held behind a wait), a strided access or too many ranges
    switching it to the array."""
    from asc.ir.pipe_ops import Region
    from asc.sim.pipes.ordering import NPIPES, Tracker
    ranges, array = Tracker(2048), Tracker(2048)
    array._array()
    for i, (lo, hi, write, pipe, n, strided) in enumerate(accesses):
        lo, hi = min(lo, hi), max(lo, hi)
        granules = np.arange(lo // 32, -(-hi // 32), 2, dtype=np.int64) if strided and i % 7 == 6 else None
        r = Region("UB", "UB", lo, hi, granules)
        assert ranges.latest(r, write) == array.latest(r, write)
        ranges.record(r, pipe % NPIPES, n, write)
        array.record(r, pipe % NPIPES, n, write)

"""The simulator's fast paths give exactly the results of running every lane and trip in program order,
and step aside where their condition does not hold."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.sim.batching import _interleaved

from kernel_checks import randn


# -- grid-stride loops run trip by trip (ascending induction values) -------------------------------------------
@asc2.jit
def last_row_kernel(out_ptr: asc.GlobalAddress, rows: int, START: asc.ConstExpr[int], STEP: asc.ConstExpr[int]):
    """Every iteration of a block stores its row index into the block's own slot: the last one must win."""
    o_gm = asc2.tensor(out_ptr, [asc2.block_num() * 8])
    for r in asc2.range(asc2.block_idx() * START, rows, STEP, parallel=True):
        asc2.store(asc2.full([8], r, dtype=asc.int32), o_gm, offsets=[asc2.block_idx() * 8])


@pytest.mark.parametrize("start,step,expected", [
    (1, 4, [8, 9, 6, 7]),        # grid stride, unequal trip counts: blocks 0 and 1 run one trip more
    (3, 2, [8, 9, 8, 9]),        # starts 0, 3, 6, 9 are more than a step apart: lane by lane
])
def test_a_block_writing_one_slot_in_every_iteration_keeps_the_last_iteration(start, step, expected):
    out = np.full(32, -1, np.int32)
    last_row_kernel[4](out, 10, start, step)
    np.testing.assert_array_equal(out.reshape(4, 8)[:, 0], expected)


def test_grid_stride_condition():
    trips = np.array([3, 3, 2])
    assert _interleaved(np.array([0, 1, 2]), np.asarray(3), trips)
    assert not _interleaved(np.array([0, 3, 6]), np.asarray(3), trips)      # a step or more apart
    assert not _interleaved(np.array([2, 1, 0]), np.asarray(3), trips)      # not ascending (shuffled blocks)
    assert not _interleaved(np.array([0, 1, 2]), np.array([3, 3, 4]), trips)  # no common step
    assert not _interleaved(np.array([0, 1, 2]), np.asarray(-3), trips)     # counting down
    assert not _interleaved(np.asarray(0), np.asarray(3), trips)            # the same start in every lane


@pytest.mark.parametrize("order", ["natural", "shuffle:3"])
def test_grid_stride_rows_give_the_same_result_in_any_block_order(order, monkeypatch):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [rows, C])
        o_gm = asc2.tensor(out_ptr, [rows, C])
        for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
            row = asc2.load(x_gm, [1, C], offsets=[r, 0])
            asc2.store(row * asc2.reduce_sum(row), o_gm, offsets=[r, 0])
    monkeypatch.setenv("ASC_BLOCK_ORDER", order)
    x = randn((37, 64), np.float32, seed=11)
    out = np.zeros_like(x)
    k[5](x, out, 37, 64)
    np.testing.assert_array_equal(out, x * x.sum(axis=1, keepdims=True, dtype=np.float32))


# -- a carried chain acc = acc <op> h runs trip after trip without the rest of the loop ----------------------------
@asc2.jit
def chain_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress, rows: int,
                 cols: asc.ConstExpr[int], C: asc.ConstExpr[int], DT: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, 3 * C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        s = asc2.zeros([1, C], dtype=DT)
        hi = asc2.full([1, C], -1.0, dtype=DT)
        lo = asc2.full([1, C], 1.0, dtype=DT)
        for j in asc2.range(cols // C):
            t = asc2.load(x_gm, [1, C], offsets=[r, j * C])
            s = t + s                       # the carried value second
            hi = asc2.maximum(t, hi)        # max / min of +0 and -0 depend on the operand order
            lo = asc2.minimum(lo, t)
        asc2.store(s, o_gm, offsets=[r, 0])
        asc2.store(hi, o_gm, offsets=[r, C])
        asc2.store(lo, o_gm, offsets=[r, 2 * C])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_a_folded_chain_gives_the_bits_of_the_trip_by_trip_run(dtype):
    rng = np.random.default_rng(12)
    x = (rng.standard_normal((10, 256)) * 300).astype(dtype)
    x[:, ::7] = 0.0
    x[:, ::5] = -0.0                        # signed zeros reach max / min
    compiled, _ = chain_kernel.compile((x, np.zeros((10, 96), dtype), x, 10, 256, 32, asc.float16
                                        if dtype == np.float16 else asc.float32), {})
    inner = [op for op in compiled.fn.walk() if op.name == "scf.for"][1]
    assert inner.id in compiled.hoistable
    dt = asc.float16 if dtype == np.float16 else asc.float32
    folded = np.zeros((10, 96), dtype)
    chain_kernel[3](x, folded, np.zeros(1, dtype), 10, 256, 32, dt)
    alone = np.zeros((10, 96), dtype)
    chain_kernel[3](x, alone, x, 10, 256, 32, dt)     # aliased arguments: the trips run one by one
    np.testing.assert_array_equal(folded.view(np.uint16 if dtype == np.float16 else np.uint32),
                                  alone.view(np.uint16 if dtype == np.float16 else np.uint32))
    seq = np.zeros((10, 32), dtype)
    for j in range(8):
        seq = (x[:, j * 32:(j + 1) * 32].astype(np.float32) + seq.astype(np.float32)).astype(dtype)
    np.testing.assert_array_equal(folded[:, :32], seq)


# -- coverage: stores that tile contiguous ranges are merged as intervals -----------------------------------------
@asc2.jit
def two_ranges_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, SECOND: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    b = asc2.block_idx()
    asc2.store(asc2.load(x_gm, [64], offsets=[b * 64]), o_gm, offsets=[b * 64])
    asc2.store(asc2.load(x_gm, [64], offsets=[b * 64]), o_gm, offsets=[SECOND + b * 64])


@pytest.mark.parametrize("n,second,warning", [
    (256, 128, None),                                            # [0, 128) + [128, 256): all of it
    (320, 192, "'out_ptr': 64 of 320 element(s) were never written by any block (the first uncovered range "
               "is [128, 192))"),                                # a hole between the two ranges
    (320, 128, "'out_ptr': 64 of 320 element(s) were never written by any block (the first uncovered range "
               "is [256, 320))"),                                # the tail
])
def test_ranges_stored_in_two_ops_are_checked_for_gaps(n, second, warning):
    x = randn(n, np.float32, seed=13)
    out = np.zeros(n, np.float32)
    two_ranges_kernel[2](x, out, n, second)
    found = [w for w in two_ranges_kernel.last_launch["warnings"] if "never written" in w]
    assert [w.split(";")[0] for w in found] == ([] if warning is None else [warning])


# -- which carried chains fold, and that folding never changes a bit --------------------------------------------
@asc2.jit
def stepped_chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress, rows: int,
                  cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """Odd column tiles only: a start of 1 and a step of 2 for every lane."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.full([1, C], 0.5, dtype=asc.float32)
        for j in asc2.range(1, cols // C, 2):
            acc = acc + asc2.load(x_gm, [1, C], offsets=[r, j * C])
        asc2.store(acc, o_gm, offsets=[r, 0])


@asc2.jit
def per_lane_start_chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress,
                         rows: int, cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """Even rows sum the even column tiles, odd rows the odd ones: the start differs per lane."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.full([1, C], 0.5, dtype=asc.float32)
        for j in asc2.range(r % 2, cols // C, 2):
            acc = acc + asc2.load(x_gm, [1, C], offsets=[r, j * C])
        asc2.store(acc, o_gm, offsets=[r, 0])


@asc2.jit
def invariant_operand_chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress,
                            rows: int, cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """The chain's other operand is the same tile in every trip and lane (built in the body)."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.load(x_gm, [1, C], offsets=[r, 0])
        for j in asc2.range(cols // C):
            acc = acc * asc2.full([1, C], 1.1, dtype=asc.float32)
        asc2.store(acc, o_gm, offsets=[r, 0])


@asc2.jit
def two_op_chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress, rows: int,
                 cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """Two ops on the chain (a decaying sum): not a fold, the trips run in turn."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        acc = asc2.full([1, C], 0.5, dtype=asc.float32)
        for j in asc2.range(cols // C):
            acc = acc * 0.5 + asc2.load(x_gm, [1, C], offsets=[r, j * C])
        asc2.store(acc, o_gm, offsets=[r, 0])


@asc2.jit
def crossed_chains(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress, rows: int,
                   cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """Two carried values, one op per trip each: p folds on its own, q is an op of p's previous value,
    so the chain is not a fold."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        p = asc2.full([1, C], 0.5, dtype=asc.float32)
        q = asc2.full([1, C], 2.0, dtype=asc.float32)
        for j in asc2.range(cols // C):
            t = asc2.load(x_gm, [1, C], offsets=[r, j * C])
            p, q = p + t, t * p
        asc2.store(p - q, o_gm, offsets=[r, 0])


@asctile.jit
def broadcast_chain(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, spare_ptr: asctile.GlobalAddress,
                    rows: int, cols: asctile.ConstExpr, C: asctile.ConstExpr):
    """The August dialect broadcasts: a [C] operand added to a [1, C] carried tile is broadcast by an op of
    its own (off the chain), so the chain is still a fold of same-shaped tiles."""
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    o_gm = asctile.global_tensor(out_ptr, [rows, C])
    for r in range(asctile.block_idx(), rows, asctile.block_num()):
        acc = asctile.full([1, C], 0.5, dtype=asctile.float32)
        for j in range(cols // C):
            acc = acc + asctile.copy_in(x_gm, [r, j * C], [1, C]).reshape(C)
        asctile.copy_out(acc, o_gm, [r, 0])


def _crossed(x, C, n):
    p = np.full((x.shape[0], C), 0.5, np.float32)
    q = np.full((x.shape[0], C), 2.0, np.float32)
    for j in range(n):
        t = x[:, j * C:(j + 1) * C]
        p, q = p + t, t * p
    return p - q


def _sequential(x, C, tiles, start, step_fn):
    acc = np.full((x.shape[0], C), start, np.float32)
    for j in tiles:
        acc = step_fn(acc, j)
    return acc


@pytest.mark.parametrize("kernel,folds,reference", [
    (stepped_chain, True, lambda x, C, n: np.stack([
        _sequential(x[i:i + 1], C, range(1, n, 2), 0.5, lambda a, j: a + x[i:i + 1, j * C:(j + 1) * C])[0]
        for i in range(x.shape[0])])),
    (per_lane_start_chain, True, lambda x, C, n: np.stack([
        _sequential(x[i:i + 1], C, range(i % 2, n, 2), 0.5, lambda a, j: a + x[i:i + 1, j * C:(j + 1) * C])[0]
        for i in range(x.shape[0])])),
    (invariant_operand_chain, True, lambda x, C, n: _sequential(
        x[:, :C], C, range(n), 0.0, lambda a, j: (a if j else x[:, :C]) * np.float32(1.1))),
    (two_op_chain, False, lambda x, C, n: _sequential(
        x, C, range(n), 0.5, lambda a, j: a * np.float32(0.5) + x[:, j * C:(j + 1) * C])),
    (crossed_chains, False, _crossed),
    (broadcast_chain, True, lambda x, C, n: _sequential(
        x, C, range(n), 0.5, lambda a, j: a + x[:, j * C:(j + 1) * C])),
])
def test_a_carried_chain_folds_exactly_when_it_is_one_op_per_trip(kernel, folds, reference, monkeypatch):
    import asc.sim.executor as executor
    outcomes = []
    real = executor.fold

    def spy(*args):
        out = real(*args)
        outcomes.append(out is not None)
        return out
    monkeypatch.setattr(executor, "fold", spy)
    rows, C, n = 12, 32, 8
    x = randn((rows, n * C), np.float32, seed=21)
    out = np.zeros((rows, C), np.float32)
    kernel[3](x, out, np.zeros(1, np.float32), rows, n * C, C)
    assert outcomes and all(o == folds for o in outcomes)
    alone = np.zeros_like(out)
    kernel[3](x, alone, x, rows, n * C, C)               # aliased arguments: the trips run one by one
    np.testing.assert_array_equal(out.view(np.uint32), alone.view(np.uint32))
    np.testing.assert_array_equal(out, reference(x, C, n).astype(np.float32))


@pytest.mark.parametrize("lanes_per_chunk", [1, 5, 12])
def test_a_fold_in_lane_chunks_gives_the_bits_of_the_trip_by_trip_run(lanes_per_chunk, monkeypatch):
    import asc.sim.carried as carried
    rows, C, n = 12, 32, 8
    # each lane's operands: n trips of a [1, C] float32 tile; 12 lanes in chunks of 1, 5 (5 + 5 + 2) or all
    monkeypatch.setattr(carried, "_CHUNK_BYTES", lanes_per_chunk * n * C * 4)
    rng = np.random.default_rng(13)
    x = (rng.standard_normal((rows, n * C)) * 300).astype(np.float32)
    x[:, ::7] = 0.0
    x[:, ::5] = -0.0
    folded = np.zeros((rows, 3 * C), np.float32)
    chain_kernel[3](x, folded, np.zeros(1, np.float32), rows, n * C, C, asc.float32)
    alone = np.zeros_like(folded)
    chain_kernel[3](x, alone, x, rows, n * C, C, asc.float32)     # aliased arguments: the trips run one by one
    np.testing.assert_array_equal(folded.view(np.uint32), alone.view(np.uint32))
    seq = np.zeros((rows, C), np.float32)
    for j in range(n):
        seq = x[:, j * C:(j + 1) * C] + seq
    np.testing.assert_array_equal(folded[:, :C], seq)


@asc2.jit
def reversed_crossed_chains(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress,
                            rows: int, cols: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    """The first carried value is not a binary op of itself (abs of the second's previous value), the
    second folds on its own."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        p = asc2.full([1, C], 0.5, dtype=asc.float32)
        q = asc2.full([1, C], 2.0, dtype=asc.float32)
        for j in asc2.range(cols // C):
            t = asc2.load(x_gm, [1, C], offsets=[r, j * C])
            p, q = asc2.abs(q), q + t
        asc2.store(p - q, o_gm, offsets=[r, 0])


def test_a_chain_whose_first_value_does_not_fold_runs_trip_by_trip():
    rows, C, n = 6, 32, 8
    x = randn((rows, n * C), np.float32, seed=41)
    out = np.zeros((rows, C), np.float32)
    reversed_crossed_chains[3](x, out, np.zeros(1, np.float32), rows, n * C, C)
    p = np.full((rows, C), 0.5, np.float32)
    q = np.full((rows, C), 2.0, np.float32)
    for j in range(n):
        t = x[:, j * C:(j + 1) * C]
        p, q = np.abs(q), q + t
    np.testing.assert_array_equal(out, p - q)


@asc2.jit
def long_small_chain(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, spare_ptr: asc.GlobalAddress,
                     n: asc.ConstExpr[int]):
    """64 trips over an [8] tile: more trips than the carried tile has bytes."""
    x_gm = asc2.tensor(x_ptr, [asc2.block_num() * n * 8])
    acc = asc2.zeros([8], dtype=asc.float32)
    for j in asc2.range(n):
        acc = acc + asc2.load(x_gm, [8], offsets=[(asc2.block_idx() * n + j) * 8])
    asc2.store(acc, asc2.tensor(out_ptr, [asc2.block_num() * 8]), offsets=[asc2.block_idx() * 8])


def test_a_fold_of_more_trips_than_its_tile_has_bytes():
    n = 64
    x = randn(3 * n * 8, np.float32, seed=42)
    out = np.zeros(3 * 8, np.float32)
    long_small_chain[3](x, out, np.zeros(1, np.float32), n)
    ref = np.zeros((3, 8), np.float32)
    for j in range(n):
        ref = ref + x.reshape(3, n, 8)[:, j]
    np.testing.assert_array_equal(out.reshape(3, 8), ref)


TAIL = 16


@asc2.jit
def chain_from_a_tail(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int,
                      T: asc2.ConstExpr, REDUCE: asc2.ConstExpr):
    """The carried tile starts from a load past the tensor's end (undefined tail) and the trips add defined
    tiles: a clipped store drops the tail, a sum over the tile mixes it in."""
    acc = asc2.copy_in(asc2.global_tensor(x_ptr, [n]), [0], [TAIL])
    y_gm = asc2.global_tensor(y_ptr, [T * TAIL])
    for j in range(T):
        acc = acc + asc2.copy_in(y_gm, [j * TAIL], [TAIL])
    if REDUCE:
        asc2.copy_out(asc2.full([TAIL], asc2.reduce_sum(acc), dtype=asc2.float32),
                      asc2.global_tensor(out_ptr, [TAIL]), [0])
    else:
        asc2.copy_out(acc, asc2.global_tensor(out_ptr, [n]), [0])


@asc2.jit
def chain_over_a_tail(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, T: asc2.ConstExpr,
                      REDUCE: asc2.ConstExpr):
    """The last trip's tile runs past the tensor's end: its tail is undefined and so is the sum's."""
    x_gm = asc2.global_tensor(x_ptr, [n])
    acc = asc2.zeros([TAIL], dtype=asc2.float32)
    for j in range(T):
        acc = acc + asc2.copy_in(x_gm, [j * TAIL], [TAIL])
    if REDUCE:
        asc2.copy_out(asc2.full([TAIL], asc2.reduce_sum(acc), dtype=asc2.float32),
                      asc2.global_tensor(out_ptr, [TAIL]), [0])
    else:
        asc2.copy_out(acc, asc2.global_tensor(out_ptr, [TAIL - 4]), [0])


def test_chains_through_undefined_tails_keep_the_defined_sums_and_the_undefined_tail():
    from asc.runtime import last_launch_report
    x = randn(12, np.float32, seed=43)
    y = randn(4 * TAIL, np.float32, seed=44)
    out = np.zeros(12, np.float32)
    chain_from_a_tail[1](x, y, out, 12, 4, False)
    ref = x.copy()
    for j in range(4):
        ref = ref + y[j * TAIL:j * TAIL + 12]
    np.testing.assert_array_equal(out, ref)
    assert last_launch_report()["warnings"] == []
    chain_from_a_tail[1](x, y, np.zeros(TAIL, np.float32), 12, 4, True)
    assert any("reads 4 undefined element(s)" in w for w in last_launch_report()["warnings"])
    x = randn(4 * TAIL - 4, np.float32, seed=45)
    out = np.zeros(TAIL - 4, np.float32)
    chain_over_a_tail[1](x, out, x.size, 4, False)
    ref = np.zeros(TAIL - 4, np.float32)
    for j in range(4):
        ref = ref + x[j * TAIL:j * TAIL + TAIL - 4]
    np.testing.assert_array_equal(out, ref)
    assert last_launch_report()["warnings"] == []
    chain_over_a_tail[1](x, np.zeros(TAIL, np.float32), x.size, 4, True)
    assert any("reads 4 undefined element(s)" in w for w in last_launch_report()["warnings"])


# -- a batched matmul over output tiles reads, per K step, a few of its loads' windows ----------------------------
@asc2.jit
def tiled_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, M: int,
                        K: int, N: int, TM: asc.ConstExpr[int], TK: asc.ConstExpr[int], TN: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    c_gm = asc2.tensor(c_ptr, [M, N])
    n_tiles = N // TN
    for t in asc2.range(asc2.block_idx(), (M // TM) * n_tiles, asc2.block_num()):
        m_off = (t // n_tiles) * TM
        n_off = (t % n_tiles) * TN
        acc = asc2.zeros_acc([TM, TN], asc.float32)
        for kk in asc2.range(K // TK):
            a = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L0A)
            b = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a, b, acc)
        asc2.store(acc, c_gm, offsets=[m_off, n_off])


@pytest.mark.parametrize("blocks", [1, 3, 7])
def test_a_tiled_matmul_pairs_each_tile_with_its_own_row_and_column_windows(blocks):
    """Each K step's lanes read one window per row / column of tiles out of every window the loads cover: an
    output tile computed from another tile's row or column would differ (the rows and columns differ)."""
    rng = np.random.default_rng(5)
    m, k, n = 64, 96, 48
    a = rng.integers(-4, 5, (m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    tiled_matmul_kernel[blocks](a, b, c, m, k, n, 16, 16, 16)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


# -- a float16 matmul operand takes torch's cast when the program has torch loaded ---------------------------------
def test_a_float16_product_operand_has_every_number_of_the_exact_cast_and_keeps_nans():
    """Every float16 bit pattern, past the size that takes torch's cast and one past a whole number of its
    pieces (the last piece is short), read-only as a load's view of an input is: the same float32 numbers
    as the table, NaN where it is NaN, and no warning from torch about the read-only array."""
    import warnings
    import torch  # noqa: F401  (the cast is torch's only in a program that has torch loaded)
    from asc.sim.convert import _TORCH_PIECE, as_float32, product_operand
    patterns = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    a = np.concatenate([patterns, patterns[:_TORCH_PIECE + 7]]).reshape(-1, 1)
    a.flags.writeable = False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = product_operand(a)
    want = as_float32(a)
    assert got.dtype == np.float32 and got.shape == a.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))  # (-0.0 is not 0.0)


@asc2.jit
def whole_k_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                          M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int], T: asc.ConstExpr[int]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    c_gm = asc2.tensor(c_ptr, [M, N])
    m_off = (asc2.block_idx() // (N // T)) * T
    n_off = (asc2.block_idx() % (N // T)) * T
    a = asc2.load(a_gm, [T, K], offsets=[m_off, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(b_gm, [K, T], offsets=[0, n_off], location=asc2.TileLocation.L0B)
    asc2.store(a @ b, c_gm, offsets=[m_off, n_off])


def test_a_matmul_of_float16_operands_large_enough_for_torchs_cast_is_exact():
    """A 256^3 product of 16 tiles: its stacked operands (65536 elements each) take torch's cast; integer
    values make the float32 products and sums exact, so each tile must equal numpy's product bit for bit
    (a piece cast to the wrong place, or a transposed B, would not)."""
    import torch
    rng = np.random.default_rng(11)
    a = torch.from_numpy(rng.integers(-8, 9, (256, 256)).astype(np.float16))
    b = torch.from_numpy(rng.integers(-8, 9, (256, 256)).astype(np.float16))
    c = np.zeros((256, 256), np.float32)
    whole_k_matmul_kernel[16](a, b, c, 256, 256, 256, 64)
    np.testing.assert_array_equal(c, a.numpy().astype(np.float32) @ b.numpy().astype(np.float32))

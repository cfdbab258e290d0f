"""Loads and stores whose per-block windows are irregular: blocks sharing windows, 2-D grids in any block
order, overlapping windows. Every placement is checked against a plain sequential reference, and two
blocks writing a common element must be reported as a race whatever the layout."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import asc
import asc2
from asc.sim.executor import KernelRuntimeError

L0A, L0B = asc2.TileLocation.L0A, asc2.TileLocation.L0B


@asc2.jit
def placed_copy(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, place_ptr: asc.GlobalAddress,
                rows: int, cols: int, R: asc.ConstExpr[int], C: asc.ConstExpr[int], SCALE: asc.ConstExpr[bool]):
    """Block b copies the [R, C] window of x at place[b, 0:2] to out at place[b, 2:4]."""
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, cols])
    p_gm = asc2.tensor(place_ptr, [asc2.block_num() * 4])
    p = asc2.block_idx() * 4
    t = asc2.load(x_gm, [R, C], offsets=[asc2.load(p_gm, offsets=[p]), asc2.load(p_gm, offsets=[p + 1])])
    if SCALE:
        t = t * 2.0
    asc2.store(t, o_gm, offsets=[asc2.load(p_gm, offsets=[p + 2]), asc2.load(p_gm, offsets=[p + 3])])


def _windows(r, c, R, C, cols):
    return {(r + i) * cols + c + j for i in range(R) for j in range(C)}


def _reference(x, place, R, C, scale, in_place=False):
    """The result of running the blocks one after another, and whether two blocks write a common element
    (or, in place, one block writes what another reads)."""
    out = x.copy() if in_place else np.zeros_like(x)
    writer, readers = {}, {}
    for b, (sr, sc, dr, dc) in enumerate(place):
        for e in _windows(sr, sc, R, C, x.shape[1]):
            readers.setdefault(e, set()).add(b)
        for e in _windows(dr, dc, R, C, x.shape[1]):
            writer.setdefault(e, set()).add(b)
        out[dr:dr + R, dc:dc + C] = x[sr:sr + R, sc:sc + C] * (2 if scale else 1)
    race = any(len(w) > 1 or (in_place and readers.get(e, w) - w) for e, w in writer.items())
    return out, race


def _random_placement(rng, blocks, rows, cols, R, C, distinct_sources, spread):
    """Sources drawn from a few distinct windows (blocks share them); destinations either on a grid of
    disjoint tiles in a shuffled block order, or anywhere (they may overlap)."""
    srcs = np.stack([rng.integers(0, rows - R + 1, distinct_sources),
                     rng.integers(0, (cols - C) // 8 + 1, distinct_sources) * 8], axis=1)
    src = srcs[rng.integers(0, distinct_sources, blocks)]
    if spread == "grid":
        cells = [(i * R, j * C) for i in range(rows // R) for j in range(cols // C)]
        dst = np.array([cells[k] for k in rng.permutation(len(cells))[:blocks]])
    else:
        dst = np.stack([rng.integers(0, rows - R + 1, blocks), rng.integers(0, (cols - C) // 8 + 1, blocks) * 8], axis=1)
    return np.concatenate([src, dst], axis=1).astype(np.int32)


@pytest.mark.parametrize("in_place", [False, True], ids=["copy", "in-place"])
@pytest.mark.parametrize("seed", range(24))
def test_irregular_placements_match_a_sequential_reference_or_race(seed, in_place):
    rng = np.random.default_rng(seed)
    R, C = [(4, 8), (1, 16), (3, 8), (8, 24)][seed % 4]
    rows, cols = 6 * R, 4 * C + 8 * (seed % 3)
    spread = "grid" if seed % 2 else "anywhere"
    blocks = int(rng.integers(2, 20)) if spread == "anywhere" else int(rng.integers(2, (rows // R) * (cols // C) + 1))
    place = _random_placement(rng, blocks, rows, cols, R, C, int(rng.integers(1, 5)), spread)
    if in_place and seed % 4 < 2:
        place[:, :2] = place[:, 2:]  # every block updates the tile it reads
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    out = x if in_place else np.zeros_like(x)
    scale = bool(seed % 3)
    expected, race = _reference(x, place, R, C, scale, in_place)
    if race:
        with pytest.raises(KernelRuntimeError, match="two blocks write the same elements|overlaps elements written|"
                                                     "overwrites elements block [0-9]+ read"):
            placed_copy[blocks](x, out, place.reshape(-1), rows, cols, R, C, scale)
    else:
        placed_copy[blocks](x, out, place.reshape(-1), rows, cols, R, C, scale)
        np.testing.assert_array_equal(out, expected)
    assert spread == "anywhere" or in_place or not race


def test_collision_rule_agrees_with_element_sets():
    from asc.sim.ops.gm_store import _blocks_collide
    rng = np.random.default_rng(3)
    for _ in range(2000):
        rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 9))
        row_stride, lanes = int(rng.integers(cols, cols + 10)), int(rng.integers(2, 6))
        starts, blocks = rng.integers(0, 60, lanes), rng.integers(0, 3, lanes)
        sets = [{s + i * row_stride + j for i in range(rows) for j in range(cols)} for s in starts]
        brute = any(sets[a] & sets[b] for a in range(lanes) for b in range(lanes) if blocks[a] != blocks[b])
        assert _blocks_collide(starts, blocks, rows, cols, row_stride) == brute, (rows, cols, row_stride, starts, blocks)


def test_windows_touching_only_at_a_corner_or_an_edge_are_not_a_race():
    R, C, rows, cols = 4, 8, 16, 32
    x = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    #            src     dst: diagonal neighbours, side by side, one below the other
    place = np.array([[0, 0, 0, 0], [4, 8, 4, 8], [0, 8, 0, 8], [8, 0, 4, 0]], np.int32)
    out = np.zeros_like(x)
    placed_copy[4](x, out, place.reshape(-1), rows, cols, R, C, False)
    np.testing.assert_array_equal(out, _reference(x, place, R, C, False)[0])


def test_overlap_reaching_into_the_next_row_is_a_race():
    # Window 2 starts one row lower and 8 columns to the left: only its top-right corner meets window 1.
    # The blocks copy different source windows, so the shared element gets two different values.
    place = np.array([[0, 0, 0, 8], [8, 0, 3, 0]], np.int32)
    x = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
    with pytest.raises(KernelRuntimeError, match="two blocks write the same elements"):
        placed_copy[2](x, np.zeros_like(x), place.reshape(-1), 16, 32, 4, 16, False)


def test_overlapping_windows_with_identical_values_are_not_a_race():
    # The same overlap, but both blocks copy the same source window: every shared element gets one value.
    place = np.array([[0, 0, 0, 8], [0, 0, 3, 0]], np.int32)
    x = np.ones((16, 32), np.float32)
    out = np.zeros_like(x)
    placed_copy[2](x, out, place.reshape(-1), 16, 32, 4, 16, False)
    assert out[0:4, 8:24].min() == 1 and out[3:7, 0:16].min() == 1 and out.sum() == 2 * 64 - 8


def test_many_blocks_with_irregular_windows():
    # More blocks than the pairwise collision check takes: the element-wise path gives the same answer.
    rng = np.random.default_rng(7)
    R, C, rows, cols = 2, 8, 64, 80
    place = _random_placement(rng, 300, rows, cols, R, C, 3, "grid")
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    out = np.zeros_like(x)
    placed_copy[300](x, out, place.reshape(-1), rows, cols, R, C, True)
    np.testing.assert_array_equal(out, _reference(x, place, R, C, True)[0])
    bad = place.copy()
    bad[-1, 2:] = bad[0, 2:] + [1, 0]   # the last block's tile overlaps the first one's by a row
    with pytest.raises(KernelRuntimeError, match="two blocks write the same elements"):
        placed_copy[300](x, np.zeros_like(x), bad.reshape(-1), rows, cols, R, C, True)


def test_a_store_onto_what_another_block_stored_earlier_is_a_race_in_any_layout():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, place_ptr: asc.GlobalAddress):
        o_gm = asc2.tensor(out_ptr, [16, 32])
        p_gm = asc2.tensor(place_ptr, [asc2.block_num() * 2])
        b = asc2.block_idx()
        asc2.store(asc2.full([4, 8], 1.0), o_gm, offsets=[b * 4, 0])
        asc2.store(asc2.full([4, 8], 2.0), o_gm, offsets=[asc2.load(p_gm, offsets=[b * 2]),
                                                           asc2.load(p_gm, offsets=[b * 2 + 1])])
    out = np.zeros((16, 32), np.float32)
    k[3](out, np.array([0, 8, 4, 24, 8, 16], np.int32))          # second tiles beside the first ones
    assert np.all(out[:12, :8] == 1) and np.all(out[0:4, 8:16] == 2) and np.all(out[4:8, 24:32] == 2)
    with pytest.raises(KernelRuntimeError, match="overlaps elements written by block"):
        k[3](out, np.array([0, 8, 0, 24, 4, 4], np.int32))      # block 2's second tile covers block 1's first


def test_loading_irregular_windows_another_block_wrote_is_a_race():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, src_ptr: asc.GlobalAddress):
        g = asc2.tensor(buf_ptr, [16, 32])
        s = asc2.tensor(src_ptr, [asc2.block_num()])
        b = asc2.block_idx()
        asc2.store(asc2.full([4, 8], 1.0), g, offsets=[b * 4, 0])
        t = asc2.load(g, [4, 8], offsets=[asc2.load(s, offsets=[b]), 0])
        asc2.store(t, g, offsets=[b * 4, 8])
    buf = np.zeros((16, 32), np.float32)
    k[3](buf, np.array([0, 4, 8], np.int32))                     # each block reads its own tile
    assert np.all(buf[:12, :16] == 1)
    with pytest.raises(KernelRuntimeError, match="reads data written by block"):
        k[3](buf, np.array([0, 0, 8], np.int32))                 # block 1 reads block 0's tile


@asc2.jit
def placed_matmul(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                  place_ptr: asc.GlobalAddress, m: int, k: int, n: int,
                  MT: asc.ConstExpr[int], K: asc.ConstExpr[int], NT: asc.ConstExpr[int]):
    """Block b multiplies A rows place[b, 0] by B columns place[b, 1] into C at place[b, 2:4]."""
    a_gm = asc2.tensor(a_ptr, [m, k])
    b_gm = asc2.tensor(b_ptr, [k, n])
    c_gm = asc2.tensor(c_ptr, [asc2.block_num() * MT, NT])
    p_gm = asc2.tensor(place_ptr, [asc2.block_num() * 2])
    blk = asc2.block_idx()
    a = asc2.load(a_gm, [MT, K], offsets=[asc2.load(p_gm, offsets=[blk * 2]), 0], location=L0A)
    b = asc2.load(b_gm, [K, NT], offsets=[0, asc2.load(p_gm, offsets=[blk * 2 + 1])], location=L0B)
    asc2.store(a @ b, c_gm, offsets=[blk * MT, 0])


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
@pytest.mark.parametrize("a_rows,b_cols", [
    ([0, 16, 32, 48] * 4, [0] * 4 + [16] * 4 + [32] * 4 + [48] * 4),  # a grid: every pair once
    ([0, 0, 16, 16, 32, 32, 48, 48], [0, 16] * 4),                      # 4 x 2 distinct windows, 8 blocks
    ([0, 16, 32, 32], [0, 16, 32, 0]),                                  # 3 x 3 distinct pairs > 2 x blocks
    ([48, 0, 40, 8, 8], [32, 8, 32, 48, 8]),                            # irregular spacing, shared windows
    ([0, 16, 32], [16, 16, 16]),                                        # every block the same B
], ids=["grid", "pairs", "few-pairs", "irregular", "one-b"])
def test_matmul_of_shared_and_distinct_operand_windows(dtype, a_rows, b_cols):
    MT, K, NT, m, n = 16, 64, 16, 64, 64
    g = torch.Generator().manual_seed(len(a_rows))
    a = torch.rand((m, K), generator=g).to(dtype)
    b = torch.rand((K, n), generator=g).to(dtype)
    blocks = len(a_rows)
    c = torch.zeros((blocks * MT, NT), dtype=torch.float32)
    place = np.array([a_rows, b_cols], np.int32).T.reshape(-1)
    placed_matmul[blocks](a, b, c, place, m, K, n, MT, K, NT)
    expected = torch.cat([a[r:r + MT].float() @ b[:, col:col + NT].float() for r, col in zip(a_rows, b_cols)])
    torch.testing.assert_close(c, expected, atol=1e-5, rtol=1e-5)

"""Element-by-element accesses run a chunk of lanes at a time (sim/chunks.py): with chunks of one lane,
results and every check are those of one pass over all lanes (a fault between two chunks is still found,
and names the right block)."""
from __future__ import annotations

import numpy as np
import pytest

from asc.experimental import asctile
from asc.sim import chunks

TILE = 64


@pytest.fixture
def one_lane_chunks(monkeypatch):
    monkeypatch.setattr(chunks, "CHUNK_ELEMS", TILE)
    monkeypatch.setenv("ASC_REPLAY", "verify")   # and the recording replays what the chunked run did


@asctile.jit
def add_tail(x_ptr, y_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    y_gm = asctile.global_tensor(y_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        asctile.copy_out(asctile.copy_in(x_gm, [t * TILE], [TILE]) + asctile.copy_in(y_gm, [t * TILE], [TILE]),
                         out_gm, [t * TILE])


@asctile.jit
def pairs_store_one_tile(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    t = asctile.block_idx() // 2        # blocks 2k and 2k + 1 write the same tile, each with its own values
    asctile.copy_out(asctile.copy_in(x_gm, [t * TILE], [TILE]) + asctile.block_idx(), out_gm, [t * TILE])


@asctile.jit
def reads_the_next_blocks_tile(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    b = asctile.block_idx()
    asctile.copy_out(asctile.copy_in(x_gm, [b * TILE], [TILE]), out_gm, [b * TILE])
    nxt = asctile.copy_in(out_gm, [(b + 1) % asctile.block_num() * TILE], [TILE], pad_value=0.0)
    asctile.copy_out(nxt, x_gm, [b * TILE])


@asctile.jit
def atomic_total(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [TILE])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        asctile.atomic_add(asctile.copy_in(x_gm, [t * TILE], [TILE], pad_value=0.0), out_gm, [0])


def test_a_clipped_tail_add_in_one_lane_chunks_matches_numpy_and_its_replay(one_lane_chunks):
    n = 37 * TILE + 5                       # the last tile holds 5 elements
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    out = np.zeros_like(x)
    for _ in range(2):                       # recorded, then replayed (and verified against a full run)
        add_tail[8](x, y, out, n, asctile.ConstExpr(TILE))
        np.testing.assert_array_equal(out, x + y)


def test_two_blocks_storing_one_tile_in_different_chunks_is_still_a_race(one_lane_chunks):
    n = 4 * TILE - 3                         # the last tile is clipped: the store goes element by element
    x = np.arange(n, dtype=np.float32)
    with pytest.raises(Exception, match="overlaps elements written by block 0") as info:
        pairs_store_one_tile[8](x, np.zeros_like(x), n, asctile.ConstExpr(TILE))
    assert "pairs_store_one_tile" not in str(info.value) and "copy_out" in str(info.value)   # at the store


def test_a_read_race_found_in_every_chunk_names_each_chunks_block(one_lane_chunks):
    n = 4 * TILE - 3
    x = np.arange(n, dtype=np.float32)
    with pytest.raises(Exception, match="reads data written by block 1") as info:
        reads_the_next_blocks_tile[4](x, np.zeros_like(x), n, asctile.ConstExpr(TILE))
    assert "in block(s) [0, 1, 2, 3] of 4" in str(info.value)   # every chunk's faulty lane, as one pass names them


def test_atomic_updates_of_many_blocks_across_chunks_sum_every_tile(one_lane_chunks):
    n = 29 * TILE + 7
    x = np.arange(n, dtype=np.float32) % 5
    out = np.zeros(TILE, dtype=np.float32)
    atomic_total[8](x, out, n, asctile.ConstExpr(TILE))
    padded = np.concatenate([x, np.zeros(30 * TILE - n, np.float32)]).reshape(-1, TILE)
    np.testing.assert_array_equal(out, padded.sum(axis=0))

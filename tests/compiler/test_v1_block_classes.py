"""A traced v1 launch whose stream differs between blocks at a decision (the last block's shorter tile, a
branch on the block index) is traced once per class of consecutive blocks that agree on it
(sim/pipes/tracer.py ``trace_classes``); each class runs as lanes when every block's GM windows are apart.
Whatever the classes, a launch must leave every buffer, report (ticks included) and error exactly as running
each block in full does (``ASC_V1_BLOCKS=each``), and take the path its streams allow."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime.config as config
from asc.sim.pipes import tracer

from test_v1_uniform_blocks import _outcome

N = 256


@asc.jit
def tiles_with_a_short_last_block(x: asc.GlobalAddress, z: asc.GlobalAddress, core_len: int, total: int,
                                  tile: int, spill: int):
    """As the Ascend C references tile: block b takes core_len elements from b * core_len, the last block
    what remains (``if length > core_len``), in tiles of ``tile`` with a shorter last tile; ``spill``
    elements more for the last block only (0: none; > 0 reaches into nothing or past the end of z)."""
    start = asc.get_block_idx() * core_len
    length = total - start
    if length > core_len:
        length = core_len
    else:
        length = length + spill
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, tile)
    for i in range((length + tile - 1) // tile):
        count = length - i * tile
        if count > tile:
            count = tile
        asc.data_copy(a, x_gm[start + i * tile:], count)
        asc.set_flag(asc.HardEvent.MTE2_V, 0)
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
        asc.muls(a, a, 2.0, count)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[start + i * tile:], a, count)
        asc.set_flag(asc.HardEvent.MTE3_MTE2, 0)
        asc.wait_flag(asc.HardEvent.MTE3_MTE2, 0)


@asc.jit
def last_block_differs(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, kind: asc.ConstExpr[str]):
    """Blocks 0..2 copy x[b] * 3 to z[b]; the last block alone (``kind``): skips the wait before its vector
    instruction ("race"), reads its buffer past what it copied in ("uninit"), or writes into the window of
    the block before it ("overlap")."""
    b = asc.get_block_idx()
    last = b == asc.get_block_num() - 1
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + (b * n - n // 2 if last and kind == "overlap" else b * n))
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 2 * n)
    asc.data_copy(a, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    if not (last and kind == "race"):
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.muls(a, a, 3.0, 2 * n if last and kind == "uninit" else n)
    if last and kind == "race":
        asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)
    asc.data_copy(z_gm, a, n)


@asc.jit
def tiles_per_block(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    """Block b copies its window b + 1 times (``range`` of a value differing in every block)."""
    b = asc.get_block_idx()
    x_gm, z_gm = asc.GlobalTensor(), asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z + b * n, n)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    for _ in range(b + 1):
        asc.data_copy(a, x_gm, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)
        asc.data_copy(z_gm, a, n)
        asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def _x(n):
    return np.arange(n, dtype=np.float32) - 100


LAUNCHES = [
    # name, kernel, blocks, make, the path
    ("short last block", tiles_with_a_short_last_block, 4,
     lambda: (_x(3 * 1000 + 200), np.zeros(3 * 1000 + 200, np.float32), 1000, 3200, 384, 0),
     "lanes in 2 classes of blocks"),
    ("short last tile in every block and the last block", tiles_with_a_short_last_block, 5,
     lambda: (_x(4 * 520 + 8), np.zeros(4 * 520 + 8, np.float32), 520, 4 * 520 + 8, 128, 0),
     "lanes in 2 classes of blocks"),
    ("the last block writes one element past the end", tiles_with_a_short_last_block, 4,
     lambda: (_x(3 * 1000 + 201), np.zeros(3 * 1000 + 200, np.float32), 1000, 3200, 384, 1),
     "per block: block 3 warned"),      # its past-the-end warning: blocks 0..2 as lanes, block 3 in full
    ("every block a whole core_len (one class)", tiles_with_a_short_last_block, 4,
     lambda: (_x(4000), np.zeros(4000, np.float32), 1000, 4000, 384, 0), "lanes"),
    ("a race only the last block has", last_block_differs, 4,
     lambda: (_x(4 * N), np.zeros(4 * N, np.float32), N, "race"), "lanes in 2 classes of blocks"),
    ("an uninitialised read only the last block has", last_block_differs, 4,
     lambda: (_x(4 * N), np.zeros(4 * N, np.float32), N, "uninit"), "per block: block 3 warned"),
    ("the last block writes into its neighbour's window", last_block_differs, 4,
     lambda: (_x(4 * N), np.zeros(4 * N, np.float32), N, "overlap"),
     "per block: blocks of different classes whose GM windows overlap"),
    ("a range differing in 4 blocks", tiles_per_block, 4, lambda: (_x(4 * N), np.zeros(4 * N, np.float32), N),
     "lanes in 4 classes of blocks"),
    ("a range differing in 9 blocks", tiles_per_block, 9, lambda: (_x(9 * 64), np.zeros(9 * 64, np.float32), 64),
     "untraced: the stream differs in more than 8 classes of blocks (a concrete value of the block index that "
     "differs between blocks at test_v1_block_classes.py:"),
]


@pytest.mark.parametrize("platform", [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599])
@pytest.mark.parametrize("name,kernel,blocks,make,path", LAUNCHES, ids=[c[0] for c in LAUNCHES])
def test_classes_of_blocks_leave_what_running_each_block_leaves(name, kernel, blocks, make, path, platform,
                                                                 monkeypatch):
    config.set_platform(config.Backend.Model, platform)
    monkeypatch.setenv("ASC_REPLAY", "off")
    results = {}
    for mode in ("", "each"):
        monkeypatch.setenv("ASC_V1_BLOCKS", mode)
        args = make()
        tracer.STATS.clear()
        with pytest.warns() if "uninit" in name or "past the end" in name else _nothing():
            results[mode] = _outcome(kernel, blocks, args), [a.copy() for a in args if isinstance(a, np.ndarray)]
        if mode == "":
            taken = [k for k, v in tracer.STATS.items() if v]
            assert len(taken) == 1 and taken[0].startswith(path), taken
    (rep, err), bufs = results[""]
    (rep_e, err_e), bufs_e = results["each"]
    assert err == err_e
    assert rep == rep_e          # ticks, pipes, bytes moved, warnings in order
    for a, b in zip(bufs, bufs_e):
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_a_race_only_the_last_block_has_is_its_error(monkeypatch):
    """The last block's class runs its first block in full: its race is the launch's error, after blocks
    0..2 (one class, as lanes) wrote their windows and before block 3 copied out."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    monkeypatch.setenv("ASC_REPLAY", "off")
    monkeypatch.delenv("ASC_V1_BLOCKS", raising=False)
    x, z = _x(4 * N), np.zeros(4 * N, np.float32)
    tracer.STATS.clear()
    (rep, err) = _outcome(last_block_differs, 4, (x, z, N, "race"))
    assert rep is None and "race" in err and "muls" in err, err
    np.testing.assert_array_equal(z[:3 * N], x[:3 * N] * 3)
    assert not z[3 * N:].any()
    assert dict(tracer.STATS) == {"lanes in 2 classes of blocks": 1}    # blocks 0..2 ran, then block 3 raised

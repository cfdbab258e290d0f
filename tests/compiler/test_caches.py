"""What a process keeps between launches is bounded (runtime/caches.py), and a kernel read back from the
on-disk cache reports errors at the file that was run."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from asc.experimental import asctile
from asc.runtime import caches


@asctile.jit
def add_tiles(x_ptr, y_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    y_gm = asctile.global_tensor(y_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        x = asctile.copy_in(x_gm, [t * TILE], [TILE])
        y = asctile.copy_in(y_gm, [t * TILE], [TILE])
        asctile.copy_out(x + y, out_gm, [t * TILE])


@asctile.jit
def scale_tiles(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n])
    for t in range(asctile.block_idx(), asctile.ceildiv(n, TILE), asctile.block_num()):
        asctile.copy_out(asctile.copy_in(x_gm, [t * TILE], [TILE]) * 2.0, out_gm, [t * TILE])


@pytest.fixture
def small_caches(monkeypatch):
    """Bounds small enough to be reached: 6 kernels, 10 recorded launches, 1 KB of recorded arrays."""
    monkeypatch.setattr(caches.COMPILED, "max_entries", 6)
    monkeypatch.setattr(caches.REPLAY, "max_entries", 10)
    monkeypatch.setattr(caches.REPLAY, "max_bytes", 1024)
    monkeypatch.delenv("ASC_REPLAY", raising=False)
    yield
    caches.COMPILED.clear()
    caches.REPLAY.clear()


def test_launches_of_many_specialisations_stay_within_the_cache_bounds(small_caches):
    rng = np.random.default_rng(3)
    high = {"compiled": 0, "replay": 0, "bytes": 0}
    for i in range(60):
        tile = 256 * (1 + i % 15)
        n = 20_000 + 1000 * (i % 4)        # not a multiple of the tile: each launch has a clipped tail
        x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
        out = np.zeros_like(x)
        if i % 2:
            add_tiles[8](x, y, out, n, asctile.ConstExpr(tile))
            expect = x + y
        else:
            scale_tiles[8](x, out, n, asctile.ConstExpr(tile))
            expect = x * 2
        np.testing.assert_array_equal(out, expect)
        high["compiled"] = max(high["compiled"], len(caches.COMPILED))
        high["replay"] = max(high["replay"], len(caches.REPLAY))
        high["bytes"] = max(high["bytes"], caches.REPLAY.bytes)
    assert high["compiled"] == 6                     # the bound reached, never passed
    assert 0 < high["replay"] <= 10
    assert 0 < high["bytes"] <= 1024                 # (the tail windows keep per-lane arrays)


def test_a_bounded_cache_evicts_the_least_recently_used_entry_past_either_bound():
    evicted = []
    cache = caches.BoundedCache("test", 3, max_bytes=100, sizeof=len, on_evict=lambda k, v: evicted.append(k))
    for k in "abc":
        cache.put(k, "x" * 10)
    cache.get("a")                                   # now b is the least recently used
    cache.put("d", "x" * 10)
    assert evicted == ["b"] and cache.keys() == ["c", "a", "d"]
    cache.put("e", "x" * 75)                         # 105 bytes: the oldest goes
    assert evicted == ["b", "c"] and cache.keys() == ["a", "d", "e"] and cache.bytes == 95
    cache.put("f", "x" * 101)                        # larger than the whole budget: not kept
    assert "f" not in cache and cache.bytes == 0


def test_an_evicted_kernel_is_traced_again_and_its_recordings_go_with_it(small_caches):
    x = np.arange(4096, dtype=np.float32)
    out = np.zeros_like(x)
    scale_tiles[4](x, out, 4096, asctile.ConstExpr(512))
    scale_tiles[4](x, out, 4096, asctile.ConstExpr(512))       # replayed: one recording of it
    first = scale_tiles.cache.values()
    assert len(first) == 1 and len(first[0].tapes) == 1
    for tile in (256, 768, 1024, 1280, 1536, 1792):            # six other kernels push it out
        scale_tiles[4](x, out, 4096, asctile.ConstExpr(tile))
    assert len(caches.COMPILED) == 6 and len(first[0].tapes) == 0
    out[:] = 0
    scale_tiles[4](x, out, 4096, asctile.ConstExpr(512))
    np.testing.assert_array_equal(out, x * 2)
    assert scale_tiles.cache.values()[-1] is not first[0]      # traced (or read from disk) anew


def test_one_kernel_keeps_at_most_eight_recorded_structures(small_caches, monkeypatch):
    monkeypatch.setattr(caches.REPLAY, "max_entries", 100)
    x = np.ones(8192, dtype=np.float32)
    out = np.zeros_like(x)
    for n in range(1024, 8193, 512):                            # 15 structures (the size is a scalar)
        scale_tiles[4](x, out, n, asctile.ConstExpr(512))
    (compiled,) = scale_tiles.cache.values()
    assert len(compiled.tapes) == caches.MAX_TAPES_PER_KERNEL


_KERNEL = textwrap.dedent('''
    import sys
    import numpy as np
    import asc.runtime.config as config
    from asc.experimental import asctile


    @asctile.jit
    def copy_kernel(x_ptr, out_ptr, n: int, TILE: asctile.ConstExpr):
        x_gm = asctile.global_tensor(x_ptr, [n])
        out_gm = asctile.global_tensor(out_ptr, [n])
        x = asctile.copy_in(x_gm, [0], [TILE]) + asctile.block_idx()
        asctile.copy_out(x, out_gm, [asctile.block_idx() % 2 * TILE])


    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    blocks = int(sys.argv[1])
    x = np.ones(256, np.float32)
    copy_kernel[blocks](x, np.zeros_like(x), 256, asctile.ConstExpr(128))
    print("ok")
''')


def test_an_error_of_a_kernel_read_from_the_disk_cache_names_the_file_that_was_run(tmp_path):
    first, second = tmp_path / "a" / "kernel.py", tmp_path / "b" / "copy_of_kernel.py"
    for p in (first, second):
        p.parent.mkdir()
    first.write_text(_KERNEL)
    second.write_text("# a copy, one line lower\n" + _KERNEL)
    env = dict(os.environ, PYASC_CACHE_DIR=str(tmp_path / "cache"))
    run = lambda path, blocks: subprocess.run([sys.executable, str(path), str(blocks)], capture_output=True,
                                              text=True, env=env, cwd=tmp_path)
    ok = run(first, 2)
    assert ok.returncode == 0 and "ok" in ok.stdout, ok.stderr
    shutil.rmtree(first.parent)
    bad = run(second, 3)                     # block 2 stores other values over block 0's window: a race
    assert bad.returncode != 0
    store_line = _KERNEL.splitlines().index("    asctile.copy_out(x, out_gm, [asctile.block_idx() % 2 * TILE])") + 2
    assert f"{second}:{store_line}:" in bad.stderr, bad.stderr
    assert str(first) not in bad.stderr


# -- a batched loop's lane arrays, made once per shape (sim/batching.py, batch_lanes) ---------------------------
@asctile.jit
def window_from(out_ptr, n: int, start: int, per_block: int):
    """Block b writes start + b * per_block + i at element b * per_block + i, for i < per_block."""
    out_gm = asctile.global_tensor(out_ptr, [n, 8])
    for i in range(start, start + per_block, gm_barrier=False):
        row = asctile.block_idx() * per_block + i - start
        asctile.copy_out(asctile.full([1, 8], row + start, dtype=asctile.int32), out_gm, [row, 0])


@pytest.mark.parametrize("replay", ["off", "on"])
def test_a_loop_of_the_same_lanes_and_trips_from_another_start_gets_its_own_induction_values(replay, monkeypatch):
    """The lane arrays of a batched loop are kept per (lanes, trips, start, step): a launch with the same
    blocks and trip count but another start must not see the first one's induction values."""
    monkeypatch.setenv("ASC_REPLAY", replay)
    for start in (0, 5, 0, 7):
        out = np.full((32, 8), -1, np.int32)
        window_from[4](out, 32, start, 8)
        np.testing.assert_array_equal(out[:, 0], np.arange(32) + start)


def test_the_kept_lane_arrays_stay_within_their_bounds(monkeypatch):
    """Forty loop shapes keep at most the bound's count; a batch of more lanes than a kept one may have (16K
    plus one per block) is made for its launch and not kept."""
    from asc.sim import batching
    monkeypatch.setenv("ASC_REPLAY", "off")
    for start in range(40):
        out = np.full((32, 8), -1, np.int32)
        window_from[4](out, 32, start, 8)
    assert 0 < len(batching._BATCHES) <= batching._BATCHES_MAX
    batching._BATCHES.clear()
    n = batching._BATCH_MAX_LANES + 4
    out = np.full((n, 8), -1, np.int32)
    window_from[4](out, n, 0, n // 4)
    np.testing.assert_array_equal(out[:, 0], np.arange(n))
    assert not batching._BATCHES


# -- the on-disk entry keeps the tick schedules of its launches (runtime/cache.py) -------------------------
def _fresh(kernel):
    from asc.runtime.jit import JITFunction
    return JITFunction(kernel.fn, **kernel.options)


def test_the_disk_entry_is_written_after_the_first_launch_and_reused_with_its_ticks(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("ASC_REPLAY", raising=False)
    k = _fresh(scale_tiles)
    x = np.arange(4096, dtype=np.float32)
    out = np.zeros_like(x)
    k.compile((x, out, 4096, asctile.ConstExpr(256)), {})
    assert not list(tmp_path.glob("*.pkl")), "written before any launch ran"
    k[8](x, out, 4096, asctile.ConstExpr(256))
    first = k.last_launch["ticks"]
    assert len(list(tmp_path.glob("*scale_tiles.pkl"))) == 1
    again = _fresh(scale_tiles)                       # a program run again: read back, not traced
    out[:] = 0
    again[8](x, out, 4096, asctile.ConstExpr(256))
    np.testing.assert_array_equal(out, x * 2)
    assert again.last_launch["ticks"] == first
    assert not list(tmp_path.glob("*.tmp")), "a temporary file was left beside the entries"


@pytest.mark.parametrize("n", [4096 + 256, 4096 - 1])
def test_a_kernel_read_back_schedules_another_structure_afresh(n, tmp_path, monkeypatch):
    """The schedules in the entry are keyed by the loop and branch record: a launch of another structure (one
    more tile per block, a clipped tail) from the cached kernel ticks as a freshly traced kernel does."""
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    first = np.arange(4096, dtype=np.float32)
    _fresh(scale_tiles)[8](first, np.zeros_like(first), 4096, asctile.ConstExpr(256))
    x = np.arange(n, dtype=np.float32)
    out = np.zeros_like(x)
    cached = _fresh(scale_tiles)
    cached[8](x, out, n, asctile.ConstExpr(256))
    np.testing.assert_array_equal(out, x * 2)
    traced = _fresh(scale_tiles)
    traced[8](x, out, n, asctile.ConstExpr(256), always_compile=True)
    assert cached.last_launch["ticks"] == traced.last_launch["ticks"]
    assert cached.last_launch["pipes"] == traced.last_launch["pipes"]


def test_a_kernel_read_back_refers_to_this_processs_platform_table(tmp_path, monkeypatch):
    """The entry's schedules are keyed by the platform table: read back, they are keyed by this process's
    own table object (found by identity at every launch, not compared field by field); a tuned copy
    (calibration) is kept by value."""
    import pickle
    from asc.runtime import config
    from asc.runtime.platforms import hardware, tuned
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    x = np.arange(4096, dtype=np.float32)
    _fresh(scale_tiles)[8](x, np.zeros_like(x), 4096, asctile.ConstExpr(256))
    (entry,) = tmp_path.glob("*scale_tiles.pkl")
    compiled = pickle.loads(entry.read_bytes())
    hw = hardware(config.current_platform())
    keys = [key[0] for key in compiled._schedule_memo]
    assert keys and all(k is hw for k in keys)
    with tuned(config.current_platform(), launch_ticks=hw.launch_ticks + 1) as t:
        copy = pickle.loads(pickle.dumps(t))
    assert copy is not t and copy == t and copy.launch_ticks == hw.launch_ticks + 1

"""The tick model: each lever a user pulls moves modelled ticks the way the CANN simulator does, and the
schedule's shortcuts (shared schedules, steady-state extrapolation) change nothing."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

import asc
import asc2
import asc.runtime.config as config
from asc.runtime import launcher
from asc.runtime.platforms import hardware, tuned
from asc.sim import schedule


@asc2.jit
def unary_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, num_tiles: int,
                 tile: asc.ConstExpr[int], uf: asc.ConstExpr[int], par: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=uf, parallel=par):
        x = asc2.load(x_gm, [tile], offsets=[t * tile])
        y = asc2.exp(x * 0.5) + asc2.abs(x) * 0.25 - x
        asc2.store(y, out_gm, offsets=[t * tile])


@asc2.jit
def row_sum_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int],
                   scalar: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        row = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        if scalar:
            out = asc2.full([1, cols], asc2.reduce_sum(row), dtype=row.dtype)
        else:
            out = asc2.reduce_sum(row, 0, keep_dims=True)
        asc2.store(out, out_gm, offsets=[r, 0])


@asc2.jit
def ktiled_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                         M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int],
                         TM: asc.ConstExpr[int], TK: asc.ConstExpr[int], TN: asc.ConstExpr[int],
                         STAGE_IN_L1: asc.ConstExpr[bool]):
    a_gm = asc2.tensor(a_ptr, [M, K])
    b_gm = asc2.tensor(b_ptr, [K, N])
    c_gm = asc2.tensor(c_ptr, [M, N])
    m_off = (asc2.block_idx() // (N // TN)) * TM
    n_off = (asc2.block_idx() % (N // TN)) * TN
    acc = asc2.zeros_acc([TM, TN], asc.float32)
    if STAGE_IN_L1:  # the whole K extent of the block's operands in L1 once, then L1 -> L0 per K step
        a_l1 = asc2.load(a_gm, [TM, K], offsets=[m_off, 0], location=asc2.TileLocation.L1)
        b_l1 = asc2.load(b_gm, [K, TN], offsets=[0, n_off], location=asc2.TileLocation.L1)
        for kk in asc.static_range(K // TK):
            a = asc2.copy(a_l1, [TM, TK], offsets=[0, kk * TK], location=asc2.TileLocation.L0A)
            b = asc2.copy(b_l1, [TK, TN], offsets=[kk * TK, 0], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a, b, acc)
    else:
        for kk in asc.static_range(K // TK):
            a = asc2.load(a_gm, [TM, TK], offsets=[m_off, kk * TK], location=asc2.TileLocation.L0A)
            b = asc2.load(b_gm, [TK, TN], offsets=[kk * TK, n_off], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a, b, acc)
    asc2.store(acc, c_gm, offsets=[m_off, n_off])


@asc2.jit
def scale_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_tiles: int,
                 tile: asc.ConstExpr[int], uf: asc.ConstExpr[int], par: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [num_tiles * tile])
    g_gm = asc2.tensor(g_ptr, [num_tiles * tile])
    out_gm = asc2.tensor(out_ptr, [num_tiles * tile])
    for t in asc2.range(num_tiles, unroll_factor=uf, parallel=par):
        x = asc2.load(x_gm, [tile], offsets=[t * tile])
        g = asc2.load(g_gm, [tile], offsets=[t * tile])
        asc2.store(x * 0.5 * g, out_gm, offsets=[t * tile])


@asc2.jit
def chain_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, tile: asc.ConstExpr[int],
                 ops: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [tile])
    out_gm = asc2.tensor(out_ptr, [tile])
    y = asc2.load(x_gm, [tile], offsets=[0])
    for _ in asc.static_range(ops):
        y = y * 0.5
    asc2.store(y, out_gm, offsets=[0])


@asc2.jit
def f16_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, num_tiles: int,
               tile: asc.ConstExpr[int], op: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    for t in asc2.range(asc2.block_idx(), num_tiles, asc2.block_num(), unroll_factor=2, parallel=True):
        x = asc2.load(x_gm, [tile], offsets=[t * tile])
        if op == "abs":
            y = asc2.abs(x)
        elif op == "leaky":
            y = asc2.where(x >= 0, x, x * 0.01)
        else:
            y = x * (asc2.erf(x * 0.70710678) + 1.0) * 0.5
        asc2.store(y, out_gm, offsets=[t * tile])


def asc_erf(x):
    return torch.erf(torch.from_numpy(x.astype(np.float32) * 0.70710678)).numpy()


N = 32 * 4096


def _unary(tile=256, uf=2, par=True, cores=16, n=N):
    x = np.linspace(-2, 2, n, dtype=np.float32)
    out = np.zeros_like(x)
    tiles = n // tile
    unary_kernel[cores](x, out, n, tiles, tile, uf, par)
    np.testing.assert_allclose(out, np.exp(x * 0.5) + np.abs(x) * 0.25 - x, rtol=1e-5, atol=1e-6)
    return unary_kernel.last_launch["ticks"]


def test_bigger_tiles_amortise_dma_latency():
    small, large = _unary(tile=128), _unary(tile=2048)
    assert large < small / 2


def test_unroll_factor_2_overlaps_load_and_compute():
    assert _unary(uf=2) < _unary(uf=1) * 0.9


def test_unroll_factor_8_is_slower_than_2():
    assert _unary(uf=8) > _unary(uf=2)


def test_parallel_removes_the_loop_end_barrier_of_every_trip():
    hw = hardware(config.Platform.Ascend950PR_9599)
    trips = N // 256 // 16
    saved = _unary(uf=1, par=False) - _unary(uf=1, par=True)
    # the barrier waits for the trip's store to land, then syncs: about 500 ticks a trip on C310
    assert 300 * trips < saved < 700 * trips
    assert saved > hw.loop_barrier * trips


def test_unrolled_loops_pay_the_barrier_once_per_unrolled_group():
    one = _unary(uf=1, par=False) - _unary(uf=1, par=True)
    two = _unary(uf=2, par=False) - _unary(uf=2, par=True)
    assert 0 < two < one


def _scale(trips, uf, par, tile=64):
    x = np.ones(trips * tile, np.float32)
    out = np.zeros_like(x)
    scale_kernel[1](x, x, out, trips, tile, uf, par)
    np.testing.assert_array_equal(out, 0.5)
    return scale_kernel.last_launch["ticks"]


def test_a_single_buffer_serialises_loads_behind_compute_even_without_barriers():
    # two loads per trip (the rms_norm write-back pass): with one buffer set the next trip's loads wait for
    # this trip's compute to release them, so the load latency is exposed; ping-pong buffers hide it
    assert _scale(17, 2, True) < _scale(17, 1, True)


def test_the_remainder_trips_of_an_unrolled_loop_pay_their_own_barrier():
    # 3 trips at unroll_factor=2: one unrolled group plus a tail trip, each closed by a loop-end barrier
    two = _scale(2, 2, False) - _scale(2, 2, True)
    three = _scale(3, 2, False) - _scale(3, 2, True)
    hw = hardware(config.Platform.Ascend950PR_9599)
    assert three - two > hw.loop_barrier


def _scale_timeline(platform, **values):
    """Per pipe, the events of 4 trips of the scale kernel at unroll_factor=2 (two unrolled groups)."""
    from asc.sim import timeline
    config.set_platform(config.Backend.Model, platform)
    try:
        x = np.ones(4 * 64, np.float32)
        out = np.zeros_like(x)
        with tuned(platform, **values), timeline.recording():
            scale_kernel[1](x, x, out, 4, 64, 2, True)
        np.testing.assert_array_equal(out, 0.5)
        ev = scale_kernel.last_launch["timeline"]
        return {p: [e for e in ev if e["pipe"] == p] for p in ("MTE2", "V", "MTE3")}
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def test_c220_releases_a_clones_buffers_only_at_the_end_of_the_unrolled_body():
    # pyasc's A2 code frees its queue tiles after the last clone (each free a flag set on the reader's pipe):
    # the second group's first load (clone 0) waits for the first group's last vector op, which belongs to
    # clone 1, and its result tile for the group's last store -- not only for clone 0's own readers
    c220 = config.Platform.Ascend910B1
    hw = hardware(c220)
    ev = _scale_timeline(c220, cold_fetch=0.0)
    loads, vec, stores = ev["MTE2"], ev["V"], ev["MTE3"]
    end = lambda e: e["start"] + e["dur"]   # noqa: E731
    assert loads[4]["start"] == pytest.approx(end(vec[3]) + hw.sync)
    assert vec[5]["start"] == pytest.approx(end(stores[1]) + hw.mte3_latency + hw.sync)
    # C310's buffer-id sync releases a buffer right after its reader: clone 0's next load overlaps clone 1
    ev = _scale_timeline(config.Platform.Ascend950PR_9599)
    assert ev["MTE2"][4]["start"] < end(ev["V"][3])


def _chain(ops, tile=2048):
    x = np.ones(tile, np.float32)
    out = np.zeros_like(x)
    chain_kernel[1](x, out, tile, ops)
    np.testing.assert_array_equal(out, 0.5 ** ops)
    return chain_kernel.last_launch["ticks"]


def test_adjacent_vector_calls_fuse_into_one_vector_function_on_c310():
    hw = hardware(config.Platform.Ascend950PR_9599)
    repeats = 2048 * 4 // hw.vector_bytes
    # four more ops in the chain cost their latency and repeats, not four more call overheads
    assert _chain(5) - _chain(1) == pytest.approx(4 * (hw.vector_op + repeats * hw.vector_repeat), abs=1)
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    try:
        # with a warm instruction cache (fetching the calls' code is the test below)
        with tuned(config.Platform.Ascend910B1, cold_fetch=0.0):
            extra = _chain(5) - _chain(1)
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    c220 = hardware(config.Platform.Ascend910B1)
    # no fusion on C220: every call pays its issue overhead, and waits for the call it depends on to drain
    assert extra == pytest.approx(4 * (c220.vector_issue + c220.vector_op + repeats * c220.vector_repeat
                                       + c220.vector_chain), abs=1)


def test_the_reported_vector_busy_time_counts_a_fused_run_once():
    # the launch report's per-pipe figures follow the schedule: on C310 five fused calls pay one issue
    # overhead; on C220 each call pays its own
    hw = hardware(config.Platform.Ascend950PR_9599)
    repeats = 2048 * 4 // hw.vector_bytes
    _chain(5)
    assert chain_kernel.last_launch["pipes"]["V"] == round(hw.vector_issue + 5 * (hw.vector_op + repeats))
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    try:
        _chain(5)
        c220 = hardware(config.Platform.Ascend910B1)
        assert chain_kernel.last_launch["pipes"]["V"] == round(5 * (c220.vector_issue + c220.vector_op + repeats))
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def test_a_software_sequence_is_on_the_critical_path_on_c220():
    # abs, leaky_relu and gelu (erf) float16 at TILE 128: the same DMA, but erf expands to a long chain of
    # dependent vector instructions on C220 that no longer hides under the stores
    x = np.linspace(-3, 3, N, dtype=np.float32).astype(np.float16)
    out = np.zeros_like(x)
    ticks = {}
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    try:
        for op in ("abs", "leaky", "gelu"):
            f16_kernel[16](x, out, N, N // 128, 128, op)
            ticks[op] = f16_kernel.last_launch["ticks"]
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    np.testing.assert_allclose(out.astype(np.float32), (x * (asc_erf(x) + 1) * 0.5).astype(np.float16), atol=1e-2)
    assert ticks["abs"] <= ticks["leaky"] < ticks["gelu"]
    assert ticks["gelu"] > 1.25 * ticks["abs"]


def test_the_loop_end_barrier_is_a_c310_mechanism():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    assert _unary(uf=2, par=False) == _unary(uf=2, par=True)


def test_more_cores_help_until_blocks_run_in_waves():
    t8, t16, t32 = _unary(cores=8), _unary(cores=16), _unary(cores=32)
    assert t32 < t16 < t8
    # 33 blocks on 32 vector cores: one core runs two blocks, later than 32 blocks of the same work
    tile = 128
    x = np.zeros(33 * 32 * tile, np.float32)
    out = np.zeros_like(x)
    unary_kernel[32](x, out, x.size, x.size // tile, tile, 2, True)
    t_32 = unary_kernel.last_launch["ticks"]
    unary_kernel[33](x, out, x.size, x.size // tile, tile, 2, True)
    assert unary_kernel.last_launch["ticks"] > t_32


@asc2.jit
def block_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, blocks: int):
    a = asc2.load(asc2.tensor(a_ptr, [64, 64]), [64, 64], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [64, 64]), [64, 64], offsets=[0, 0], location=asc2.TileLocation.L0B)
    asc2.store(a @ b, asc2.tensor(c_ptr, [blocks * 64, 64]), offsets=[asc2.block_idx() * 64, 0])


def _one_tile_per_block(blocks, cube):
    if cube:
        a = torch.rand((64, 64), dtype=torch.float16)
        c = torch.zeros((blocks * 64, 64), dtype=torch.float32)
        block_matmul_kernel[blocks](a, a, c, blocks)
        torch.testing.assert_close(c[-64:], a.float() @ a.float(), atol=1e-2, rtol=1e-2)
        return block_matmul_kernel.last_launch["ticks"]
    tile = 2048
    x = np.linspace(-2, 2, blocks * tile, dtype=np.float32)
    out = np.zeros_like(x)
    unary_kernel[blocks](x, out, x.size, blocks, tile, 1, True)
    return unary_kernel.last_launch["ticks"]


@pytest.mark.parametrize("platform,cube,cores", [
    (config.Platform.Ascend950PR_9599, False, 32), (config.Platform.Ascend910B1, False, 48),
    (config.Platform.Ascend950PR_9599, True, 16), (config.Platform.Ascend910B1, True, 24),
], ids=["c310-vector", "c220-vector", "c310-cube", "c220-cube"])
def test_blocks_up_to_the_core_count_run_in_one_wave_and_one_more_waits(platform, cube, cores):
    """Vector kernels have one core per AIV core, cube kernels one per AIC core: the last block that fits only
    ends a stagger later, the first block past the cores waits for a core to finish a block."""
    config.set_platform(config.Backend.Model, platform)
    stagger = hardware(platform).block_stagger
    below, full, over = (_one_tile_per_block(n, cube) for n in (cores - 1, cores, cores + 1))
    assert full - below == stagger
    assert over - full > 2 * stagger


def test_a_scalar_read_back_of_a_reduction_stalls_each_row():
    hw = hardware(config.Platform.Ascend950PR_9599)
    x = np.ones((64, 1024), np.float32)
    out = np.zeros((64, 1024), np.float32)
    row_sum_kernel[16](x, out, 64, 1024, True)
    assert out[0, 0] == 1024
    read_back = row_sum_kernel.last_launch["ticks"]
    row_sum_kernel[16](x, out, 64, 1024, False)
    kept = row_sum_kernel.last_launch["ticks"]
    assert read_back - kept > 2 * hw.vector_to_scalar      # 4 rows per block, overlapped in pairs


def test_staging_k_tiled_matmul_operands_in_l1_helps():
    a = torch.rand((128, 512), dtype=torch.float16)
    b = torch.rand((512, 128), dtype=torch.float16)
    c = torch.zeros((128, 128), dtype=torch.float32)
    ticks = {}
    for stage in (False, True):
        ktiled_matmul_kernel[4](a, b, c, 128, 512, 128, 64, 128, 64, stage)
        torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
        ticks[stage] = ktiled_matmul_kernel.last_launch["ticks"]
    assert ticks[True] < ticks[False]


@pytest.mark.parametrize("uf,par,tile", [(1, False, 256), (2, True, 128), (2, False, 512), (4, True, 256),
                                         (3, False, 256)])
def test_steady_state_extrapolation_matches_scheduling_every_trip(monkeypatch, uf, par, tile):
    fast = _unary(tile=tile, uf=uf, par=par)
    monkeypatch.setattr(schedule, "WARM_GROUPS", 10 ** 6)
    full = _unary(tile=tile, uf=uf, par=par)
    assert abs(fast - full) <= 1


def test_blocks_with_different_trip_counts_get_their_own_schedule():
    # 65 tiles over 16 blocks: block 0 runs five trips, the others four; the launch lasts as long as block 0
    tile = 2048
    x = np.ones(65 * tile, np.float32)
    out = np.zeros_like(x)
    unary_kernel[16](x, out, x.size, 65, tile, 2, True)
    more = unary_kernel.last_launch["ticks"]
    unary_kernel[16](x[:64 * tile], out[:64 * tile], 64 * tile, 64, tile, 2, True)
    assert more > unary_kernel.last_launch["ticks"]


def test_platforms_have_their_own_fitted_tables():
    c310 = hardware(config.Platform.Ascend950PR_9599)
    c220 = hardware(config.Platform.Ascend910B1)
    assert c310 != c220
    assert c310.mte3_bytes_per_tick != c220.mte3_bytes_per_tick
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    b1 = _unary(tile=64)
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    # 256-byte stores (half a 512-byte line on C220) are several times slower on the C220 camodel: its gelu
    # float32 TILE 64 launch of 131072 elements takes ~2.7x the C310 one
    assert b1 > 2 * _unary(tile=64)


def test_every_table_number_has_a_source_a_confidence_and_a_physical_range():
    from asc.runtime.platforms import SOURCES
    for platform in (config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1):
        hw = hardware(platform)
        sources = SOURCES[hw.arch]
        fields = {f.name for f in dataclasses.fields(hw)} - {"arch"}
        assert set(sources) == fields
        assert all(src and conf in ("high", "medium", "low", "guess") for src, conf, _ in sources.values())
        # every tick-model number (all but capacities, core counts and flags) states its range
        unranged = {n for n, (_, _, r) in sources.items() if r is None}
        assert unranged == {"ub_bytes", "l1_bytes", "l0a_bytes", "l0b_bytes", "l0c_bytes", "aiv_cores",
                            "aic_cores", "vf_fusion", "interleave_clones", "release_at_body_end",
                            "vector_weights"}


@pytest.mark.parametrize("platform", [config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1])
def test_every_table_number_lies_inside_its_physical_range(platform):
    from asc.runtime.platforms import FITTED, SOURCES, WEIGHT_RANGES
    hw = hardware(platform)
    outside = [(n, getattr(hw, n), r) for n, (_, _, r) in SOURCES[hw.arch].items()
               if r is not None and not r[0] <= getattr(hw, n) <= r[1]]
    assert outside == []
    assert set(FITTED[hw.arch]) <= {n for n, (_, _, r) in SOURCES[hw.arch].items() if r is not None}
    weights = [(k, w) for k, w in hw.vector_weights if not WEIGHT_RANGES[k][0] <= w <= WEIGHT_RANGES[k][1]]
    assert weights == []
    # DMA rates: a core's share of the memory system, never below 4 nor above the MTE's 256-byte bus per tick
    for n in ("mte2_bytes_per_tick", "mte3_bytes_per_tick"):
        assert 4 <= getattr(hw, n) <= 256
        assert 4 <= SOURCES[hw.arch][n][2][0] and SOURCES[hw.arch][n][2][1] <= 256


def test_a_value_outside_its_range_is_reported():
    from asc.runtime.platforms import SOURCES
    platform = config.Platform.Ascend910B1
    with tuned(platform, mte3_bytes_per_tick=0.2) as hw:   # the old fitted store rate
        lo, hi = SOURCES[hw.arch]["mte3_bytes_per_tick"][2]
        assert not lo <= hw.mte3_bytes_per_tick <= hi
    assert hardware(platform).mte3_bytes_per_tick >= lo   # the table is back once the block ends


@asc2.jit
def straight_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int],
                    OPS: asc.ConstExpr[int], TRIPS: asc.ConstExpr[int], UF: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [T])
    out_gm = asc2.tensor(out_ptr, [T])
    for _ in asc2.range(TRIPS, unroll_factor=UF):
        x = asc2.load(x_gm, [T], offsets=[0])
        for _ in asc.static_range(OPS):
            x = x * 0.5
        asc2.store(x, out_gm, offsets=[0])


def test_code_runs_from_a_cold_instruction_cache_once_per_copy():
    # C220: straight-line code pays one fetch per op the first time it runs; later trips of a loop run from
    # the cache; a second unrolled clone is a second copy of the code, fetched on its first run
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    try:
        x = np.ones(64, np.float32)
        out = np.zeros_like(x)

        def ticks(ops, trips, uf, fetch):
            with tuned(config.Platform.Ascend910B1, cold_fetch=fetch):
                straight_kernel[1](x, out, 64, ops, trips, uf)
            return straight_kernel.last_launch["ticks"]
        fetch = hardware(config.Platform.Ascend910B1).cold_fetch
        assert fetch > 0
        # eight more multiplies in straight-line code: the fetch of each is on the critical path
        assert ticks(16, 1, 1, fetch) - ticks(8, 1, 1, fetch) >= 8 * fetch
        assert ticks(16, 1, 1, 0.0) - ticks(8, 1, 1, 0.0) < 8 * fetch
        # four trips of one copy cost the fetch once; two clones cost it twice
        assert ticks(8, 4, 1, fetch) - ticks(8, 4, 1, 0.0) < ticks(8, 4, 2, fetch) - ticks(8, 4, 2, 0.0)
        assert ticks(8, 4, 1, fetch) - ticks(8, 4, 1, 0.0) < 2 * (ticks(8, 1, 1, fetch) - ticks(8, 1, 1, 0.0))
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


@asc2.jit
def branch_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, heavy: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [T])
    out_gm = asc2.tensor(out_ptr, [T])
    x = asc2.load(x_gm, [T], offsets=[0])
    if heavy > 0:
        x = asc2.exp(asc2.exp(x * 0.5) * 0.5) + asc2.sqrt(asc2.abs(x))
    asc2.store(x, out_gm, offsets=[0])


def test_a_runtime_branch_costs_the_side_the_block_took():
    x = np.linspace(0, 1, 4096, dtype=np.float32)
    out = np.zeros_like(x)
    branch_kernel[1](x, out, 0, 4096)
    skipped = branch_kernel.last_launch["ticks"]
    np.testing.assert_array_equal(out, x)
    branch_kernel[1](x, out, 1, 4096)
    taken = branch_kernel.last_launch["ticks"]
    assert taken > skipped + 4 * 50       # vector calls over 4096 elements on the critical path


@pytest.mark.parametrize("trips,barriers", [(2, 1), (3, 2), (4, 2), (5, 3)])
def test_each_unrolled_group_and_the_tail_trip_pay_one_loop_end_barrier(monkeypatch, trips, barriers):
    # a sequential loop at unroll_factor=2: one barrier per group of two trips, one more for a tail trip;
    # each sits on the critical path, so a costlier barrier adds its extra cost that many times
    base = _scale(trips, 2, False)
    platform = config.Platform.Ascend950PR_9599
    real = launcher.hardware
    costlier = dataclasses.replace(real(platform), loop_barrier=real(platform).loop_barrier + 1000)
    monkeypatch.setattr(launcher, "hardware", lambda p: costlier if p == platform else real(p))
    assert _scale(trips, 2, False) - base == 1000 * barriers


@asc2.jit
def staircase_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, base: int, T: asc.ConstExpr[int]):
    """Block b runs base + b trips over its own rows."""
    x_gm = asc2.tensor(x_ptr, [8 * 8, T])
    out_gm = asc2.tensor(out_ptr, [8 * 8, T])
    for t in asc2.range(base + asc2.block_idx()):
        r = asc2.block_idx() * 8 + t
        asc2.store(asc2.exp(asc2.load(x_gm, [1, T], offsets=[r, 0])), out_gm, offsets=[r, 0])


def test_a_launch_lasts_as_long_as_its_longest_block_also_when_block_0_is_the_shortest():
    x = np.zeros((64, 1024), np.float32)
    out = np.zeros_like(x)
    staircase_kernel[1](x, out, 4, 1024)            # one block, four trips
    four = staircase_kernel.last_launch["ticks"]
    staircase_kernel[4](x, out, 1, 1024)            # blocks run 1, 2, 3, 4 trips
    assert staircase_kernel.last_launch["ticks"] >= four
    staircase_kernel[1](x, out, 1, 1024)
    assert staircase_kernel.last_launch["ticks"] < four


@asc2.jit
def accumulate_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_tiles: int,
                      tile: asc.ConstExpr[int], uf: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_tiles * tile])
    acc = asc2.full([tile], 0.0, dtype=asc.float32)
    for t in asc2.range(num_tiles, unroll_factor=uf):
        acc = asc2.exp(acc * 0.5 + asc2.load(x_gm, [tile], offsets=[t * tile]) * 0.25)
    asc2.store(acc, asc2.tensor(out_ptr, [tile]), offsets=[0])


@pytest.mark.parametrize("uf", [1, 2])
def test_steady_state_extrapolation_keeps_a_carried_values_chain(monkeypatch, uf):
    x = np.zeros(64 * 256, np.float32)
    out = np.zeros(256, np.float32)
    accumulate_kernel[1](x, out, 64, 256, uf)
    fast = accumulate_kernel.last_launch["ticks"]
    monkeypatch.setattr(schedule, "WARM_GROUPS", 10 ** 6)
    accumulate_kernel[1](x, out, 64, 256, uf)
    assert abs(accumulate_kernel.last_launch["ticks"] - fast) <= 1


@asc2.jit
def tile_per_block_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
                          tile: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    off = asc2.block_idx() * tile
    asc2.store(asc2.abs(asc2.load(x_gm, [tile], offsets=[off])), out_gm, offsets=[off])


def test_dmas_clamped_at_the_end_of_a_tensor_move_only_the_bytes_inside():
    # C220, 4 KiB tiles (8 bursts of 512 B): block 0's tile is whole, block 1's holds 400 bytes (one burst),
    # block 2's starts 924 elements past the end: its load reads nothing (setup only); its store writes
    # nothing of the tensor, but its length (numel - offset, -3696 bytes) keeps its low 21 bits in the DMA's
    # length field, so the engine moves 2 MiB - 3696 bytes past the tensor. The DMAs move the bursts of
    # what they cover and each pays its setup; a partial burst stored is read back first
    from asc.sim import timeline
    platform = config.Platform.Ascend910B1
    config.set_platform(config.Backend.Model, platform)
    try:
        hw = hardware(platform)
        x = -np.arange(1124, dtype=np.float32)
        out = np.zeros_like(x)
        with timeline.recording():
            tile_per_block_kernel[3](x, out, x.size, 1024)
        report = tile_per_block_kernel.last_launch
        np.testing.assert_array_equal(out, np.abs(x))
        assert any("wholly past the end" in w for w in report["warnings"])
        dur = {(e["block"], e["pipe"]): e["dur"] for e in report["timeline"] if e["pipe"] in ("MTE2", "MTE3")}
        load = [hw.mte2_setup + n * 512 / hw.mte2_bytes_per_tick for n in (8, 1, 0)]
        wrapped = 2 ** 21 - 924 * 4
        assert hw.dma_length_modulus == 2 ** 21
        store = [hw.mte3_setup + 8 * 512 / hw.mte3_bytes_per_tick,
                 hw.mte3_setup + hw.store_partial + 512 / hw.mte3_bytes_per_tick,
                 hw.mte3_setup + hw.store_partial + -(-wrapped // 512) * 512 / hw.mte3_bytes_per_tick]
        for b in range(3):
            assert dur[(b, "MTE2")] == pytest.approx(load[b], abs=0.01)
            assert dur[(b, "MTE3")] == pytest.approx(store[b], abs=0.01)
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def test_a_store_starting_exactly_at_the_end_moves_nothing_and_one_a_tile_later_wraps():
    # C220: numel - offset is 0 for a window starting at the end (no bytes, its setup only) and -1024 bytes
    # one tile later, which the length field wraps to 2 MiB - 1024: that block's store sets the launch
    platform = config.Platform.Ascend910B1
    config.set_platform(config.Backend.Model, platform)
    try:
        hw = hardware(platform)
        x = np.ones(512, np.float32)
        out = np.zeros_like(x)
        ends = {}
        for blocks in (3, 4):     # tiles of 256 elements: block 2 starts at the end, block 3 a tile past it
            with pytest.warns(asc.PastEndWarning):
                tile_per_block_kernel[blocks](x, out, x.size, 256)
            report = tile_per_block_kernel.last_launch
            ends[blocks] = report["ticks"]
            np.testing.assert_array_equal(out, x)
        moved = -(-(2 ** 21 - 1024) // 512) * 512 / hw.mte3_bytes_per_tick
        assert ends[4] - ends[3] == pytest.approx(moved + hw.store_partial, rel=0.02)
    finally:
        config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)


def test_a_clamped_tile_in_a_loop_charges_its_block_the_bytes_inside():
    # one block, 49 tiles of 1 KiB (8 bursts of 128 B on C310); the last holds 256 bytes (2 bursts): the
    # block's load engine time is 48 whole tiles and one of two bursts, not 49 whole tiles
    hw = hardware(config.Platform.Ascend950PR_9599)
    busy = {}
    for n in (48 * 256 + 64, 49 * 256):
        x = np.zeros(n, np.float32)
        unary_kernel[1](x, np.zeros_like(x), n, 49, 256, 2, True)
        busy[n] = unary_kernel.last_launch["pipes"]["MTE2"]
    assert busy[49 * 256] - busy[48 * 256 + 64] == pytest.approx(6 * 128 / hw.mte2_bytes_per_tick, abs=1.0)


@asc2.jit
def cube_loop_kernel(a_ptr, b_ptr, c_ptr, n_tiles: int):
    a_gm = asc2.tensor(a_ptr, [16, 16])
    b_gm = asc2.tensor(b_ptr, [16, 16 * n_tiles])
    c_gm = asc2.tensor(c_ptr, [16, 16 * n_tiles])
    for j in asc2.range(n_tiles):
        b = asc2.load(b_gm, [16, 16], offsets=[0, j * 16], location=asc2.TileLocation.L0B)
        a = asc2.load(a_gm, [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0A)
        asc2.store(a @ b, c_gm, offsets=[0, j * 16])


def test_a_cube_load_refills_its_l1_copy_while_the_previous_trip_still_holds_l0():
    # one buffer per tile (unroll_factor=1): trip 2's GM -> L1 copy of b needs only the L1 buffer, which
    # trip 1's L1 -> L0B copy has read; only its L1 -> L0B copy waits for trip 1's mmad to release L0B
    from asc.sim import timeline
    a = torch.rand((16, 16), dtype=torch.float16)
    b = torch.rand((16, 32), dtype=torch.float16)
    c = torch.zeros((16, 32), dtype=torch.float32)
    with timeline.recording():
        cube_loop_kernel[1](a, b, c, 2)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    ev = cube_loop_kernel.last_launch["timeline"]
    loads = [e for e in ev if e["pipe"] == "MTE2"]
    copies = [e for e in ev if e["pipe"] == "MTE1"]
    mmads = [e for e in ev if e["pipe"] == "M"]
    assert loads[2]["start"] < mmads[0]["start"]                          # b's refill overlaps trip 1
    assert copies[2]["start"] >= mmads[0]["start"] + mmads[0]["dur"]     # its L0B copy waits for the mmad


@asc2.jit
def nested_cube_kernel(a_ptr, b_ptr, c_ptr, n_tiles: int):
    a_gm = asc2.tensor(a_ptr, [16, 16])
    b_gm = asc2.tensor(b_ptr, [16, 16 * n_tiles])
    c_gm = asc2.tensor(c_ptr, [16, 16 * n_tiles])
    for j in asc2.range(n_tiles, unroll_factor=2):
        b = asc2.load(b_gm, [16, 16], offsets=[0, j * 16], location=asc2.TileLocation.L0B)
        for i in asc2.range(1):
            a = asc2.load(a_gm, [16, 16], offsets=[i * 16, 0], location=asc2.TileLocation.L0A)
            asc2.store(a @ b, c_gm, offsets=[0, j * 16])


def test_a_loop_inside_an_unrolled_clone_has_buffers_of_its_own():
    # unroll_factor=2 clones the outer body, inner loop included: the second clone's a has its own L1 and
    # L0A buffers, so its GM load follows the first clone's loads on MTE2 without waiting for a release
    from asc.sim import timeline
    a = torch.rand((16, 16), dtype=torch.float16)
    b = torch.rand((16, 32), dtype=torch.float16)
    c = torch.zeros((16, 32), dtype=torch.float32)
    with timeline.recording():
        nested_cube_kernel[1](a, b, c, 2)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    loads = [e for e in nested_cube_kernel.last_launch["timeline"] if e["pipe"] == "MTE2"]
    assert len(loads) == 4
    assert loads[3]["start"] == pytest.approx(loads[2]["start"] + loads[2]["dur"])

"""The v1 Matmul against numpy (transposes, bias, tails, both platforms), the host tiling rule (valid for
random shapes, dtypes, core counts and fixed splits; clear errors for impossible requests) and the checks
(L0 / L1 capacities, a too-small get_tensor_c destination, a vector read racing the delivery, a tiling
that does not cover the matrix)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import asc
import asc.lib.host as host
import asc.runtime as rt
import asc.runtime.config as config
from asc.language.v1 import cube_tiling
from asc.runtime.platforms import hardware
from asc.sim.executor import KernelRuntimeError

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]
DT = {np.float16: host.DataType.DT_FLOAT16, np.float32: host.DataType.DT_FLOAT}


@asc.jit
def mm_all(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, bias: asc.GlobalAddress,
           tiling: asc.adv.TCubeTiling, ws: asc.GlobalAddress, trans_a: asc.ConstExpr[bool],
           trans_b: asc.ConstExpr[bool], with_bias: asc.ConstExpr[bool]):
    """Tutorial 03's shape of kernel: one single-core tile per vector core, tails at the matrix edge."""
    idx = asc.get_block_idx()
    mb = tiling.m.ceildiv(tiling.single_core_m)
    mi, ni = idx % mb, idx // mb
    off_a = mi * tiling.single_core_m if trans_a else mi * tiling.k_a * tiling.single_core_m
    off_b = ni * tiling.k_b * tiling.single_core_n if trans_b else ni * tiling.single_core_n
    ag, bg, cg, biasg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a + off_a)
    bg.set_global_buffer(b + off_b)
    cg.set_global_buffer(c + mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n)
    biasg.set_global_buffer(bias + ni * tiling.single_core_n)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, ag.dtype, trans_a),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bg.dtype, trans_b),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, cg.dtype),
                        bias=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, biasg.dtype))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, tiling)
    if idx < tiling.used_core_num:
        mm.set_tensor_a(ag, trans_a)
        mm.set_tensor_b(bg, trans_b)
        if with_bias:
            mm.set_bias(biasg)
        tail_m = tiling.m - mi * tiling.single_core_m      # (no min in a kernel: compare and assign)
        if tail_m > tiling.single_core_m:
            tail_m = tiling.single_core_m
        tail_n = tiling.n - ni * tiling.single_core_n
        if tail_n > tiling.single_core_n:
            tail_n = tiling.single_core_n
        mm.set_tail(tail_m, tail_n)
        mm.iterate_all(cg)
        mm.end()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def make_tiling(m, n, k, dim, dtype=np.float16, bias=False, fixed=(-1, -1, -1), trans=(False, False)):
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, DT[dtype], trans[0])
    t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, DT[dtype], trans[1])
    t.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_bias_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT)
    t.set_dim(dim)
    t.set_org_shape(m, n, k)
    t.set_shape(m, n, k)
    t.enable_bias(bias)
    t.set_fix_split(*fixed)
    t.set_buffer_space(-1, -1, -1)
    tiling = asc.adv.TCubeTiling()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if t.get_tiling(tiling) != 0:       # upstream's -1; the reason comes as a TilingWarning
            raise host.TilingError(str(caught[-1].message))
    return tiling


def run_mm(m, n, k, dim, dtype=np.float16, trans_a=False, trans_b=False, bias=False, fixed=(-1, -1, -1), seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, (m, k)).astype(dtype)
    b = rng.integers(-4, 5, (k, n)).astype(dtype)
    bv = rng.integers(-4, 5, (1, n)).astype(np.float32)
    tiling = make_tiling(m, n, k, dim, dtype, bias, fixed, (trans_a, trans_b))
    c = np.zeros((m, n), np.float32)
    groups = -(-int(tiling.used_core_num) // 2)
    mm_all[groups](np.ascontiguousarray(a.T) if trans_a else a, np.ascontiguousarray(b.T) if trans_b else b, c, bv,
                   tiling, np.zeros(1024, np.uint8), trans_a, trans_b, bias)
    want = a.astype(np.float64) @ b.astype(np.float64) + (bv if bias else 0)
    return c, want, tiling


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_transposes_bias_and_tails(platform, trans_a, trans_b):
    config.set_platform(config.Backend.Model, platform)
    c, want, t = run_mm(100, 72, 40, 4, trans_a=trans_a, trans_b=trans_b, bias=True)  # no size a base multiple
    np.testing.assert_array_equal(c, want.astype(np.float32))
    assert t.used_core_num > 1 and rt.last_launch_report()["warnings"] == []


@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, True)])
def test_products_past_the_blas_threshold_keep_transposes_bias_and_tails(monkeypatch, trans_a, trans_b):
    """Large products go to BLAS instead of einsum's loop (the seed benchmark's sizes): the same values."""
    import asc.sim.pipes.cube as cube
    monkeypatch.setattr(cube, "_BLAS_MACS", 0)
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    c, want, _ = run_mm(100, 72, 40, 4, trans_a=trans_a, trans_b=trans_b, bias=True)
    np.testing.assert_array_equal(c, want.astype(np.float32))


def test_fp32_inputs_accumulate_exactly_enough():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(3)
    a, b = rng.random((48, 80), np.float32) * 10 - 5, rng.random((80, 40), np.float32) * 10 - 5
    t = make_tiling(48, 40, 80, 2, np.float32)
    c = np.zeros((48, 40), np.float32)
    mm_all[1](a, b, c, np.zeros((1, 40), np.float32), t, np.zeros(8, np.uint8), False, False, False)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, atol=1e-4)


# -- the tiling rule ----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 3000), n=st.integers(1, 3000), k=st.integers(1, 5000), dim=st.integers(1, 64),
       dtype=st.sampled_from([np.float16, np.float32]), platform=st.sampled_from(PLATFORMS),
       fixed=st.sampled_from([(-1, -1, -1), (64, 64, -1), (256, 128, -1), (16, 32, 16), (128, 256, 64)]),
       bias=st.booleans())
def test_tiling_rule_is_valid(m, n, k, dim, dtype, platform, fixed, bias):
    config.set_platform(config.Backend.Model, platform)
    hw = hardware(platform)
    sz = np.dtype(dtype).itemsize
    try:
        t = make_tiling(m, n, k, dim, dtype, bias, fixed)
    except host.TilingError as e:     # only a fixed split can make a request impossible
        assert fixed != (-1, -1, -1) and ("L0" in str(e) or "L1" in str(e))
        return
    assert cube_tiling.problems(t, hw, sz, sz, bias=bias) == []
    assert 1 <= t.used_core_num <= min(dim, hw.aiv_cores)
    for f, v in zip(("base_m", "base_n", "base_k"), fixed):
        assert v < 0 or getattr(t, f) == v          # what the caller fixed is kept
    assert t.single_core_k == k and t.m == m and t.n == n


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 200), n=st.integers(1, 200), k=st.integers(1, 160), dim=st.integers(1, 12),
       dtype=st.sampled_from([np.float16, np.float32]), fixed=st.sampled_from([(-1, -1, -1), (32, 32, -1),
                                                                              (16, 48, 32)]),
       trans=st.tuples(st.booleans(), st.booleans()))
def test_tiling_rule_kernel_matches_numpy(m, n, k, dim, dtype, fixed, trans):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    c, want, _ = run_mm(m, n, k, dim, dtype, trans[0], trans[1], bias=True, fixed=fixed)
    np.testing.assert_allclose(c, want, atol=1e-3 if dtype == np.float32 else 0)


def test_impossible_requests_return_minus_one_with_the_reason():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(host.TilingError, match=r"L0A.*65536"):
        make_tiling(1024, 1024, 1024, 8, np.float32, fixed=(256, 128, 128))   # 256 x 128 x 4 B = 128 KiB of L0A
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    assert t.set_fix_split(24, -1, -1) == -1           # not a multiple of 16: refused, not stored
    assert t.set_shape(64, 0, 64) == -1 and t.set_dim(0) == -1 and t.set_batch_num(0) == -1
    assert t.set_buffer_space(hardware(config.Platform.Ascend910B1).l1_bytes + 1) == -1
    assert t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_INT32) == -1
    tiling = asc.adv.TCubeTiling()
    with pytest.warns(host.TilingWarning, match="no shape set"):
        assert t.get_tiling(tiling) == -1
    assert t.set_shape(512, 512, 512) == 0 and t.fixed == (-1, -1, -1)
    assert t.set_buffer_space(4096, -1, -1) == 0
    with pytest.warns(host.TilingWarning, match=r"4096 bytes of L1"):
        assert t.get_tiling(tiling) == -1
    assert tiling.base_m == 0                          # left as it was
    assert t.get_base_m() == -1 and t.get_core_num() == -1


def test_dim_is_honoured_for_the_tutorial_05_request():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    t = make_tiling(1024, 640, 256, 2, fixed=(256, 128, -1), bias=True)
    assert (t.used_core_num, t.single_core_m % t.base_m, t.base_m, t.base_n) == (2, 0, 256, 128)


# -- checks -------------------------------------------------------------------------------------------
def _hand_tiling(**kw):
    base = dict(used_core_num=1, m=64, n=64, k_a=64, k_b=64, single_core_m=64, single_core_n=64, single_core_k=64,
                base_m=64, base_n=64, base_k=64, depth_a1=1, depth_b1=1, step_m=1, step_n=1)
    base.update(kw)
    return asc.adv.TCubeTiling(**base)


def _run_hand(tiling, m=64, n=64, k=64):
    a, b = np.ones((m, k), np.float16), np.ones((k, n), np.float16)
    mm_all[1](a, b, np.zeros((m, n), np.float32), np.zeros((1, n), np.float32), tiling, np.zeros(8, np.uint8),
              False, False, False)


def test_base_block_over_l0a_names_the_numbers():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(KernelRuntimeError, match=r"base_m x base_k = 256 x 256 takes 131072 bytes of L0A, which "
                       r"has 65536 bytes") as e:
        _run_hand(_hand_tiling(m=256, single_core_m=256, base_m=256, k_a=256, k_b=256, single_core_k=256,
                               base_k=256), m=256, k=256)
    assert "test_v1_matmul.py" in str(e.value)          # reported at the kernel's line


def test_l1_staging_over_capacity_names_the_numbers():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    with pytest.raises(KernelRuntimeError, match=r"take 1048576 bytes of L1, which has 524288 bytes"):
        _run_hand(_hand_tiling(depth_a1=64, depth_b1=64))


def test_tiling_that_does_not_cover_the_matrix():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(KernelRuntimeError, match=r"need 4 cores to cover the 128 x 128 .* used_core_num is 2"):
        _run_hand(_hand_tiling(used_core_num=2, m=128, n=128), m=128, n=128)


@asc.jit
def mm_iter(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
            ws: asc.GlobalAddress, ub_elems: asc.ConstExpr[int], sync: asc.ConstExpr[bool]):
    """Tutorial 05's loop: each base block into UB, a vector op on it, out to GM (one tile, block 0)."""
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    pipe = asc.TPipe()
    que = asc.TQue(asc.TPosition.VECOUT, 1)
    pipe.init_buffer(que=que, num=1, len=ub_elems * 4)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, ag.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bg.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.VECCALC, asc.CubeFormat.ND, cg.dtype))
    asc.adv.register_matmul(pipe, ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(ag)
        mm.set_tensor_b(bg)
        with mm.iterate() as count:
            out = que.alloc_tensor(cg.dtype)
            mm.get_tensor_c(out, en_sequential_write=True, sync=sync)
            asc.muls(out, out, 2.0, count=tiling.base_m * tiling.base_n)
            que.enque(out)
            out = que.deque(cg.dtype)
            rm = tiling.single_core_m // tiling.base_m
            start = count % rm * tiling.base_m * tiling.n + count // rm * tiling.base_n
            params = asc.DataCopyParams(block_count=tiling.base_m, block_len=tiling.base_n * 4 // 32, src_stride=0,
                                        dst_stride=(tiling.n - tiling.base_n) * 4 // 32)
            asc.data_copy(cg[start:], out, repeat_params=params)
            que.free_tensor(out)
        mm.end()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def _iter_case(ub_elems=32 * 32, sync=True):
    rng = np.random.default_rng(1)
    a, b = rng.integers(-3, 4, (64, 48)).astype(np.float16), rng.integers(-3, 4, (48, 96)).astype(np.float16)
    t = _hand_tiling(m=64, n=96, k_a=48, k_b=48, single_core_m=64, single_core_n=96, single_core_k=48, base_m=32,
                     base_n=32, base_k=16)
    c = np.zeros((64, 96), np.float32)
    mm_iter[1](a, b, c, t, np.zeros(8, np.uint8), ub_elems, sync)
    return c, 2 * (a.astype(np.float64) @ b)


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_iterate_get_tensor_c_blocks_in_m_fastest_order(platform):
    config.set_platform(config.Backend.Model, platform)
    c, want = _iter_case()
    np.testing.assert_array_equal(c, want)
    assert rt.last_launch_report()["warnings"] == []


def test_get_tensor_c_into_too_small_ub_tensor():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(KernelRuntimeError, match=r"32 x 32 = 1024 elements \(4096 bytes\) into .* which holds 512 "
                       r"elements \(2048 bytes\)"):
        _iter_case(ub_elems=512)


def test_vector_read_before_get_tensor_c_delivered_is_a_race():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(KernelRuntimeError) as e:
        _iter_case(sync=False)        # asynchronous get_tensor_c, nothing orders FIX before the vector read
    assert e.value.category == "RaceError" and "muls on V" in str(e.value) and "get_tensor_c on FIX" in str(e.value)
    assert "sync=True" in e.value.hint


def test_struct_argument_is_copied_per_block_and_fields_assignable():
    class Inner(asc.Struct):
        x = asc.Field(asc.int32, 3)

    class Tiling(asc.Struct):
        n = asc.Field(asc.int32, 0)
        inner = asc.StructField(Inner)

    @asc.jit(kernel_type=config.KernelType.AIV_ONLY)
    def k(out: asc.GlobalAddress, t: Tiling):
        g = asc.GlobalTensor()
        g.set_global_buffer(out + asc.get_block_idx() * 8)
        t.n = t.n + asc.get_block_idx()          # a block's assignment is its own
        buf = asc.LocalTensor(asc.int32, asc.TPosition.VECOUT, 0, 8)
        asc.duplicate(buf, t.n * 10 + t.inner.x, 8)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(g, buf, 8)

    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    out = np.zeros(24, np.int32)
    t = Tiling(n=5)
    k[3](out, t)
    np.testing.assert_array_equal(out.reshape(3, 8)[:, 0], [53, 63, 73])
    assert t.n == 5 and rt.last_launch_report()["kernel_type"] == "AIV_ONLY"
    with pytest.raises(AttributeError, match="does not have a field 'q'"):
        Tiling(q=1)


# -- the core split in the tick model -----------------------------------------------------------------
def _tiles_launch(groups, used, k=256):
    """``used`` single-core tiles of 64 x 64 x k, launched on ``groups`` MIX groups; returns the ticks."""
    m = 64 * used
    t = _hand_tiling(used_core_num=used, m=m, k_a=k, k_b=k, single_core_k=k)
    a, b = np.ones((m, k), np.float16), np.ones((k, 64), np.float16)
    c = np.zeros((m, 64), np.float32)
    mm_all[groups](a, b, c, np.zeros((1, 64), np.float32), t, np.zeros(8, np.uint8), False, False, False)
    np.testing.assert_array_equal(c, np.full_like(c, k))
    return rt.last_launch_report()["ticks"]


def test_two_vector_cores_share_their_groups_cube_core():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    floor = hardware(config.Platform.Ascend910B1).launch_ticks
    one, two = _tiles_launch(1, 1, 1024), _tiles_launch(1, 2, 1024)   # one group: one tile, then one per vector core
    assert two - floor > 1.6 * (one - floor)      # (each vector core with a cube of its own: about equal)


def test_more_groups_than_cube_cores_run_in_waves():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    aic = hardware(config.Platform.Ascend910B1).aic_cores
    floor = hardware(config.Platform.Ascend910B1).launch_ticks
    full, twice = _tiles_launch(aic, 2 * aic), _tiles_launch(2 * aic, 4 * aic)
    assert twice - floor > 1.6 * (full - floor)
    assert rt.last_launch_report()["blocks"] == 4 * aic


@asc.jit
def mm_to_gm_blocks(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                    ws: asc.GlobalAddress):
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, ag.dtype),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bg.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, cg.dtype))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(ag)
        mm.set_tensor_b(bg)
        mm.set_tail(tiling.m, tiling.n)
        with mm.iterate() as count:
            mm.get_tensor_c(cg)          # each block at its place in C, tails included
        mm.end()


def test_get_tensor_c_into_gm_places_every_block_with_tails():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(5)
    a, b = rng.integers(-3, 4, (70, 40)).astype(np.float16), rng.integers(-3, 4, (40, 50)).astype(np.float16)
    t = _hand_tiling(m=70, n=50, k_a=40, k_b=40, single_core_m=70, single_core_n=50, single_core_k=40, base_m=32,
                     base_n=32, base_k=16)
    c = np.zeros((70, 50), np.float32)
    mm_to_gm_blocks[1](a, b, c, t, np.zeros(8, np.uint8))
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b)


@asc.jit
def mm_batch(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
             ws: asc.GlobalAddress, batch_a: asc.ConstExpr[int], batch_b: asc.ConstExpr[int]):
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, ag.dtype, False,
                                             asc.LayoutMode.NORMAL),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bg.dtype, False,
                                             asc.LayoutMode.NORMAL),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, cg.dtype, False,
                                             asc.LayoutMode.NORMAL))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, tiling)
    if asc.get_block_idx() == 0:
        mm.set_tensor_a(ag)
        mm.set_tensor_b(bg)
        mm.iterate_batch(cg, batch_a, batch_b, False)
        mm.end()


def test_iterate_batch_normal_layout():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(9)
    a, b = rng.integers(-3, 4, (2, 32, 48)).astype(np.float16), rng.integers(-3, 4, (1, 48, 16)).astype(np.float16)
    tiler = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    tiler.set_dim(1)
    tiler.set_org_shape(32, 16, 48)
    tiler.set_shape(32, 16, 48)
    tiler.set_batch_num(2)
    t = asc.adv.TCubeTiling()
    tiler.get_tiling(t)
    c = np.zeros((2, 32, 16), np.float32)
    mm_batch[1](a, b, c, t, np.zeros(8, np.uint8), 2, 1)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b[0])
    assert t.batch_num == 2

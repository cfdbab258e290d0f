"""Batched Matmul as upstream's batch test drives it: the host tiling with A / B / C layouts and a batch
count over 16 cores, each block offsetting its GlobalTensors to its single-core tile (tutorial 03's
offsets) and calling iterate_batch. Every block computes its own tile of every batch."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.lib.host as host
import asc.runtime.config as config

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]


@asc.jit
def batch_kernel(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, tiling: asc.adv.TCubeTiling,
                 ws: asc.GlobalAddress, batch_a: asc.ConstExpr[int], batch_b: asc.ConstExpr[int]):
    idx = asc.get_block_idx()
    per_k = tiling.k_a.ceildiv(tiling.single_core_k)
    cores = tiling.used_core_num // per_k
    mb = tiling.m.ceildiv(tiling.single_core_m)
    mi, ni = (idx % cores) % mb, (idx % cores) // mb
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a + mi * tiling.k_a * tiling.single_core_m)
    bg.set_global_buffer(b + ni * tiling.single_core_n)
    cg.set_global_buffer(c + mi * tiling.n * tiling.single_core_m + ni * tiling.single_core_n)
    kind = asc.LayoutMode.NORMAL
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, ag.dtype, False, kind),
                        b=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, bg.dtype, False, kind),
                        c=asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, cg.dtype, False, kind))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, tiling)
    mm.set_tensor_a(ag, False)
    mm.set_tensor_b(bg, False)
    mm.iterate_batch(cg, batch_a, batch_b, False)
    mm.end()
    asc.pipe_barrier(asc.PipeID.PIPE_ALL)


def batch_tiling(m, n, k, batch, dim):
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    assert t.set_dim(dim) == 0
    assert t.set_a_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False) == 0
    assert t.set_b_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT16, False) == 0
    assert t.set_c_type(host.TPosition.GM, host.CubeFormat.ND, host.DataType.DT_FLOAT) == 0
    assert t.set_shape(m, n, k) == 0
    assert t.set_org_shape(m, n, k) == 0
    assert t.set_a_layout(batch, m, 1, 1, k) == 0
    assert t.set_b_layout(batch, k, 1, 1, n) == 0
    assert t.set_c_layout(batch, m, 1, 1, n) == 0
    assert t.set_batch_num(batch) == 0
    tiling = asc.adv.TCubeTiling()
    assert t.get_tiling(tiling) == 0
    return tiling


@pytest.mark.parametrize("platform", PLATFORMS)
def test_batch_matmul_on_16_cores_each_block_its_tile_of_every_batch(platform):
    config.set_platform(config.Backend.Model, platform)
    m, n, k, batch = 64, 256, 48, 2
    t = batch_tiling(m, n, k, batch, 16)
    assert t.single_core_m < m or t.single_core_n < n      # the tile is split over cores: blocks share no C
    rng = np.random.default_rng(11)
    a = rng.integers(-4, 5, (batch, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (batch, k, n)).astype(np.float16)
    c = np.full((batch, m, n), np.nan, np.float32)
    batch_kernel[16](a, b, c, t, np.zeros(1024, np.uint8), batch, batch)
    np.testing.assert_array_equal(c, np.matmul(a.astype(np.float64), b))


def test_batch_b_broadcast_and_explicit_matrix_strides():
    """batch_b = 1: every batch of A meets the one B; the C batches land batch_c apart."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    m, n, k, batch = 32, 64, 32, 3
    t = batch_tiling(m, n, k, batch, 4)
    rng = np.random.default_rng(12)
    a = rng.integers(-4, 5, (batch, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (1, k, n)).astype(np.float16)
    c = np.full((batch, m, n), np.nan, np.float32)
    batch_kernel[4](a, b, c, t, np.zeros(1024, np.uint8), batch, 1)
    np.testing.assert_array_equal(c, np.matmul(a.astype(np.float64), b[0]))

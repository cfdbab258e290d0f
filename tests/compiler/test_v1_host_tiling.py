"""The host tiling API of asc.lib.host: every class, method and enum value upstream binds is here; the
platform manager; setters' and getters' return codes; and the rule's single-core and batch tilings are valid
and drive kernels that equal numpy (hypothesis)."""
from __future__ import annotations

import ast
import os
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import asc
import asc.lib.host as host
import asc.runtime.config as config
from asc.language.v1 import cube_tiling
from asc.runtime.platforms import hardware

sys.path.insert(0, os.path.dirname(__file__))
from test_v1_matmul_batch import batch_kernel  # noqa: E402

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]


def _upstream_wrappers():
    base = next((p / "shared" / "upstream" / "pyasc-v1" / "asc" / "lib" / "host" for p in
                 Path(__file__).resolve().parents if (p / "shared" / "upstream" / "pyasc-v1").is_dir()), None)
    if base is None:
        pytest.skip("../shared/upstream/pyasc-v1 is not beside the repository")
    return ast.parse((base / "wrappers.py").read_text()), ast.parse((base / "__init__.py").read_text())


def test_every_class_method_and_enum_value_upstream_binds_is_here():
    wrappers, init = _upstream_wrappers()
    names = next(ast.literal_eval(n.value) for n in ast.walk(init) if isinstance(n, ast.Assign)
                 and any(getattr(t, "id", None) == "__all__" for t in n.targets))
    assert set(names) <= set(dir(host))
    bases = {"MatmulApiTilingBase": host.MatmulApiTiling}
    missing = []
    for cls in (n for n in wrappers.body if isinstance(n, ast.ClassDef)):
        ours = bases.get(cls.name) or getattr(host, cls.name, None)
        if ours is None:
            continue                     # ProxyMeta / ProxyBase: upstream's binding machinery
        for item in cls.body:
            name = getattr(item, "name", None) or getattr(getattr(item, "target", None), "id", None)
            if name and not name.startswith("_") and name not in ("name", "value") and not hasattr(ours, name):
                missing.append(f"{cls.name}.{name}")
    assert missing == []


def test_platform_manager_is_one_instance_per_platform():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    p = host.PlatformAscendCManager.get_instance()
    assert p is host.get_ascendc_platform() and p.hw is hardware(config.Platform.Ascend910B1)
    q = host.PlatformAscendCManager.get_instance("Ascend950PR_9599")
    assert q is not p and q.hw is hardware(config.Platform.Ascend950PR_9599)
    # pyasc binds none of Ascend C's queries on the platform object
    for query in ("get_core_num_aiv", "get_core_num_aic", "get_core_num", "get_soc_version"):
        with pytest.raises(AttributeError, match=f"no attribute '{query}'.*get_soc_version"):
            getattr(p, query)()
    with pytest.raises(ValueError, match="unknown soc_version 'Ascend310'"):
        host.PlatformAscendCManager.get_instance("Ascend310")


def test_setters_return_upstreams_codes_and_getters_read_the_tiling():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    t = host.MultiCoreMatmulTiling(host.get_ascendc_platform())
    assert t.set_dim(4) == 0 and t.set_shape(256, 512, 128) == 0 and t.set_org_shape(256, 512, 128) == 0
    assert t.set_single_shape(128, 256, 128) == 0
    assert t.set_split_range(64, 128, 64, 32, 32, 32) == 0 and t.set_split_range(16, -1, -1, 32) == -1
    assert t.set_align_split(24, -1, -1) == -1 and t.set_single_range(10, -1, -1, 20) == -1
    assert t.set_double_buffer(True, True, True, False) == 0 and t.set_mad_type(host.MatrixMadType.HF32) == 0
    assert t.set_dequant_type(host.DequantType.TENSOR) == 0 and t.set_sparse(False) == 0
    t.set_matmul_config_params(host.MatmulConfigParams(1, False, host.ScheduleType.INNER_PRODUCT,
                                                       host.MatrixTraverse.FIRSTN))
    tiling = asc.adv.TCubeTiling()
    assert t.get_tiling(tiling) == 0
    assert (tiling.single_core_m, tiling.single_core_n, tiling.single_core_k) == (128, 256, 128)
    assert t.get_single_shape() == (128, 256, 128) and t.get_core_num() == 4 == tiling.used_core_num
    assert (t.get_base_m(), t.get_base_n(), t.get_base_k()) == (tiling.base_m, tiling.base_n, tiling.base_k)
    assert tiling.base_m <= 64 and tiling.base_n <= 128 and tiling.base_k <= 64    # the split range's maxima
    assert tiling.iterate_order == 1 and tiling.db_l0c == 2
    assert tiling.base_m * tiling.base_n * 4 <= hardware(config.Platform.Ascend910B1).l0c_bytes // 2
    # a single shape that needs more cores than set_dim: -1 with the reason
    t.set_single_shape(32, 32, 128)
    with pytest.warns(host.TilingWarning, match="no split of 256 x 512 over 4 cores"):
        assert t.get_tiling(asc.adv.TCubeTiling()) == -1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 2000), n=st.integers(1, 2000), k=st.integers(1, 3000), dim=st.integers(1, 48),
       single=st.sampled_from([(-1, -1), (64, 64), (128, -1), (-1, 96)]),
       align=st.sampled_from([(-1, -1), (32, 64), (64, 16)]),
       split=st.sampled_from([(-1,) * 6, (64, 64, 32, -1, -1, -1), (128, 128, 64, 32, 32, 16)]),
       db_c=st.booleans(), platform=st.sampled_from(PLATFORMS), single_core=st.booleans())
def test_constrained_tilings_are_valid_or_minus_one(m, n, k, dim, single, align, split, db_c, platform, single_core):
    config.set_platform(config.Backend.Model, platform)
    hw = hardware(platform)
    t = (host.MatmulApiTiling if single_core else host.MultiCoreMatmulTiling)(host.get_ascendc_platform())
    t.set_shape(m, n, k)
    t.set_org_shape(m, n, k)
    if not single_core:
        t.set_dim(dim)
        t.set_single_shape(*single, -1)
        t.set_align_split(*align, -1)
    t.set_split_range(*split)
    t.set_double_buffer(True, True, db_c, False)
    tiling = asc.adv.TCubeTiling()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = t.get_tiling(tiling)
    if code == -1:           # only a constraint the caller added can make a request impossible
        assert not single_core and single != (-1, -1) or split[3] > 0, caught[-1].message
        return
    assert code == 0 and cube_tiling.problems(tiling, hw, 2, 2) == []
    assert 1 <= tiling.used_core_num <= (1 if single_core else min(dim, hw.aiv_cores))
    if not single_core:
        for got, want in zip((tiling.single_core_m, tiling.single_core_n), single):
            assert want < 0 or got == want
        for got, want, whole in zip((tiling.single_core_m, tiling.single_core_n), align, (m, n)):
            assert want < 0 or got % want == 0 or single != (-1, -1)
    for got, hi in zip((tiling.base_m, tiling.base_n, tiling.base_k), split[:3]):
        assert hi < 0 or got <= hi
    if db_c:
        assert tiling.base_m * tiling.base_n * 4 <= hw.l0c_bytes // 2


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 120), n=st.integers(1, 120), k=st.integers(1, 96), batch=st.integers(1, 3),
       b_broadcast=st.booleans(), cores=st.integers(1, 6), use_normal_info=st.booleans())
def test_batch_tilings_drive_kernels_that_equal_numpy(m, n, k, batch, b_broadcast, cores, use_normal_info):
    """Every block computes its single-core tile of every batch (tails included when the tile passes M or N:
    the kernel clips with set_tail as tutorial 03 does, here via whole tiles only when they divide)."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    batch_b = 1 if b_broadcast else batch
    t = host.BatchMatmulTiling(host.get_ascendc_platform())
    t.set_dim(2 * cores)
    if use_normal_info:
        assert t.set_batch_info_for_normal(batch, batch_b, m, n, k) == 0
    else:
        t.set_shape(m, n, k)
        t.set_org_shape(m, n, k)
        t.set_batch_num(batch)
    tiling = asc.adv.TCubeTiling()
    assert t.get_tiling(tiling) == 0 and tiling.batch_num == batch
    if m % tiling.single_core_m or n % tiling.single_core_n:
        t.set_single_shape(m, n, -1)            # this kernel has no tails: one tile per batch
        assert t.get_tiling(tiling) == 0
    rng = np.random.default_rng(m * 7 + n)
    a = rng.integers(-4, 5, (batch, m, k)).astype(np.float16)
    b = rng.integers(-4, 5, (batch_b, k, n)).astype(np.float16)
    c = np.full((batch, m, n), np.nan, np.float32)
    batch_kernel[cores](a, b, c, tiling, np.zeros(1024, np.uint8), batch, batch_b)
    np.testing.assert_array_equal(c, np.matmul(a.astype(np.float64), b if batch_b == batch else b[0]))

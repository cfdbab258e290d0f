"""pyasc's v1 tutorials 01 / 02 and its non-matmul kernel tests, run unmodified from the upstream copy beside
the repository (../shared/upstream/pyasc-v1), on both platforms."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import asc.runtime.config as config

UPSTREAM = Path(__file__).resolve().parents[3] / "shared" / "upstream" / "pyasc-v1"
if not UPSTREAM.is_dir():   # a worktree sits one level deeper than a clone beside shared/
    UPSTREAM = Path(__file__).resolve().parents[4] / "shared" / "upstream" / "pyasc-v1"
pytestmark = pytest.mark.skipif(not UPSTREAM.is_dir(), reason="upstream pyasc v1 sources (../shared/upstream/"
                                "pyasc-v1) are not beside this repository")
PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]
KERNEL_TESTS = [("test_vadd.py", "test_vadd"), ("test_bilinear_interpolation.py", "test_vbilinear"),
                ("insert_sync/test_vadd.py", "test_vadd"), ("insert_sync/test_vadd_scalar.py", "test_vadd_scalar"),
                ("insert_sync/test_softmax.py", "test_softmax"), ("insert_sync/test_quant.py", "test_quant"),
                ("insert_sync/test_quant_dynamic.py", "test_quant_dynamic")]


def _load(path):
    name = "upstream_" + "_".join(path.relative_to(UPSTREAM).with_suffix("").parts)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def on_platform(monkeypatch):
    """The upstream tests select only the backend (pyasc's default platform is 910B1): pin the platform."""
    def pin(platform):
        original = config.set_platform
        monkeypatch.setattr(config, "set_platform",
                            lambda backend, soc=None, *a, **k: original(backend, soc or platform, *a, **k))
    return pin


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_tutorial_01_add_with_flags(platform):
    mod = _load(UPSTREAM / "tutorials" / "01_add" / "add.py")
    mod.vadd_custom(config.Backend.Model, platform)      # asserts torch.allclose(z, x + y) itself
    report = config_report()
    assert report["kernel"] == "vadd_kernel" and report["warnings"] == [] and report["platform"] == platform.value


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
def test_tutorial_02_add_with_queues(platform):
    mod = _load(UPSTREAM / "tutorials" / "02_add_framework" / "add_framework.py")
    mod.vadd_custom(config.Backend.Model, platform)
    assert config_report()["warnings"] == []


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.value)
@pytest.mark.parametrize("path,test", KERNEL_TESTS, ids=[p for p, _ in KERNEL_TESTS])
def test_upstream_kernel_test(path, test, platform, on_platform):
    on_platform(platform)
    mod = _load(UPSTREAM / "test" / "kernels" / path)
    getattr(mod, test)(config.Backend.Model)
    assert config_report()["warnings"] == []


def test_tutorial_01_with_numpy_and_a_plain_core_count():
    mod = _load(UPSTREAM / "tutorials" / "01_add" / "add.py")
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(7)
    x, y = rng.random(8 * 2048, dtype=np.float32), rng.random(8 * 2048, dtype=np.float32)
    z = np.zeros_like(x)
    mod.vadd_kernel[8](x, y, z, x.size // 8)
    np.testing.assert_array_equal(z, x + y)


def config_report():
    import asc.runtime as rt
    return rt.last_launch_report()

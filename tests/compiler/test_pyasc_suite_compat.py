"""A pyasc-style test suite runs against this package unchanged: its own conftest registers --backend /
--platform / --device / --profile (so nothing installed here may), imports asc.lib.profiling at module
level, skips C310-only cases through config.platform_to_arch, and two test files share a basename
(run with --import-mode=importlib). Run in a subprocess on both platform families."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

CONFTEST = '''
import pytest
from asc.lib.profiling import Profiler, task_time_median
import asc.runtime.config as config


def pytest_addoption(parser):
    parser.addoption("--backend", type=config.Backend, default=config.Backend.Model)
    parser.addoption("--platform", type=config.Platform, default=config.Platform.Ascend950PR_9599)
    parser.addoption("--device", type=int, default=0)
    parser.addoption("--profile", action="store_true", default=False)


@pytest.fixture
def backend(request):
    return request.config.getoption("--backend")


@pytest.fixture
def platform(request):
    return request.config.getoption("--platform")


@pytest.fixture
def device_id(request):
    return request.config.getoption("--device", default=0)


@pytest.fixture(autouse=True)
def setup_platform(backend, platform, device_id):
    config.set_platform(backend, platform, device_id, check=False)


@pytest.fixture
def require_c310(platform):
    if config.platform_to_arch(platform) != config.CompilationArch.C310:
        pytest.skip("C310 only")


@pytest.fixture
def profiler(tmp_path):
    return Profiler(str(tmp_path / "prof"))
'''

KERNELS_SOFTMAX = '''
import numpy as np
import asc
import asc2
import asc.lib.runtime as rt
from asc.lib.profiling import task_time_median
from asc.runtime.launcher import get_platform_info


@asc2.jit
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    out_gm = asc2.tensor(out_ptr, [rows, cols])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
        x = asc2.load(x_gm, [1, cols], offsets=[r, 0])
        asc2.store(asc2.softmax(x), out_gm, offsets=[r, 0])


def reference(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_softmax(platform, profiler):
    cols = 256
    assert get_platform_info(platform).ub_size >= 4 * cols
    x = np.random.default_rng(0).standard_normal((40, cols)).astype(np.float32)
    out = np.zeros_like(x)
    with profiler.profile():
        for _ in range(3):
            softmax_kernel[8, rt.current_stream()](x, out, x.shape[0], cols)
    np.testing.assert_allclose(out, reference(x), rtol=1e-5, atol=1e-6)
    assert len(profiler.last_result.tasks) == 3
    assert task_time_median(profiler.last_result.tasks, skip=1) > 0


def test_c310_only(require_c310):
    assert True
'''

OPERATIONS_SOFTMAX = '''
import numpy as np
from asc.experimental import asctile


@asctile.jit
def row_max(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int, cols: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    o_gm = asctile.global_tensor(out_ptr, [rows])
    for r in range(asctile.block_idx(), rows, asctile.block_num()):
        t = asctile.copy_in(x_gm, [r, 0], [1, cols])
        asctile.copy_out(asctile.reduce_max(t), o_gm, [r])


def test_row_max():
    x = np.random.default_rng(1).standard_normal((9, 64)).astype(np.float32)
    out = np.zeros(9, np.float32)
    row_max[4](x, out, 9, 64)
    np.testing.assert_array_equal(out, x.max(axis=1))
'''


def _write_suite(root):
    (root / "kernels").mkdir()
    (root / "operations").mkdir()
    (root / "conftest.py").write_text(textwrap.dedent(CONFTEST))
    (root / "kernels" / "test_softmax.py").write_text(textwrap.dedent(KERNELS_SOFTMAX))
    (root / "operations" / "test_softmax.py").write_text(textwrap.dedent(OPERATIONS_SOFTMAX))


@pytest.mark.parametrize("platform,skipped", [("Ascend950PR_9599", 0), ("Ascend910B1", 1)])
def test_pyasc_style_suite_runs_unchanged(tmp_path, platform, skipped):
    suite = tmp_path / "suite"
    suite.mkdir()
    _write_suite(suite)
    report = tmp_path / "junit.xml"
    env = dict(os.environ, PYASC_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                           "--import-mode=importlib", f"--junitxml={report}", "--backend", "Model",
                           "--platform", platform, "--device", "0", "."],
                          cwd=suite, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    suite_xml = ET.parse(report).getroot()
    suite_xml = suite_xml if suite_xml.tag == "testsuite" else suite_xml.find("testsuite")
    assert int(suite_xml.get("tests")) == 3
    assert int(suite_xml.get("skipped")) == skipped
    assert int(suite_xml.get("failures")) == 0 and int(suite_xml.get("errors")) == 0

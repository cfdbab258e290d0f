"""How v1 kernels are told from tile kernels and what a user sees for what the engine does not have."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from asc.language.v1.names import NotSupportedByEngineError


@asc.jit
def only_helpers(x: asc.GlobalAddress, z: asc.GlobalAddress):
    copy_through(x, z, 64)


@asc.jit
def copy_through(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    xg = asc.GlobalTensor()
    zg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    zg.set_global_buffer(z)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, n)
    asc.data_copy(a, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(zg, a, n)


def test_a_kernel_whose_helpers_use_v1_runs_as_v1():
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    only_helpers[1](x, z)
    np.testing.assert_array_equal(z, x)
    with pytest.raises(TypeError, match="is a v1 kernel"):
        only_helpers.ir(x, z)


@asc.jit
def uses_cube(x: asc.GlobalAddress):
    asc.load_image_to_local(x)


def test_unimplemented_v1_names_fail_at_the_users_line_with_a_clear_message():
    import inspect
    line = inspect.getsourcelines(uses_cube.fn)[1] + 2
    with pytest.raises(NotSupportedByEngineError, match=rf"test_v1_front_end.py:{line}: asc\.load_image_to_local is not supported "
                       "by this engine"):
        uses_cube[1](np.zeros(8, np.float32))
    with pytest.raises(AttributeError, match="has no attribute 'no_such_api'"):
        asc.adv.no_such_api
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        asc.no_such_name


def test_every_name_of_upstreams_v1_language_is_there_or_says_it_is_not_supported():
    """Upstream's asc.language basic / core / fwk ``__all__`` (read from its sources beside the repository):
    each name is this engine's, or using it says "not supported by this engine" (never an AttributeError)."""
    import ast
    from pathlib import Path
    base = next((p / "shared" / "upstream" / "pyasc-v1" / "asc" / "language" for p in Path(__file__).resolve().parents
                 if (p / "shared" / "upstream" / "pyasc-v1").is_dir()), None)
    if base is None:
        pytest.skip("../shared/upstream/pyasc-v1 is not beside the repository")
    names = set()
    for pkg in ("basic", "core", "fwk"):
        tree = ast.parse((base / pkg / "__init__.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
                names |= set(ast.literal_eval(node.value))
    assert "get_tpipe_ptr" in names and "data_copy" in names
    missing = []
    for name in sorted(names):
        try:
            getattr(asc, name)
        except NotSupportedByEngineError:
            pass
        except AttributeError:
            missing.append(name)
    assert missing == []


def _tile_len(n):
    return n // 2


@asc.jit
def names_a_plain_helper(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    copy_through(x, z, _tile_len(n))


def test_a_cached_v1_kernel_naming_a_plain_function_is_refused_as_pyasc_refuses_it():
    """pyasc computes the cache key of a kernel launched without always_compile=True from its source, and
    refuses a plain callable it names; with always_compile=True the helper runs."""
    from asc.frontend.errors import CodegenError
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    with pytest.raises(CodegenError, match="Unsupported function referenced: <function _tile_len") as e:
        names_a_plain_helper[1](x, z, 128)
    assert "_tile_len(n)" in str(e.value)
    assert not z.any()
    names_a_plain_helper[1](x, z, 128, always_compile=True)
    np.testing.assert_array_equal(z, x)


def test_the_reference_walk_of_a_kernel_with_helpers_is_made_once():
    """A cached launch walks the kernel's source for plain callables once, helpers and all: relaunches reuse
    the answer (a walk per launch made a repeated launch of a helper-calling kernel half again slower)."""
    from asc.runtime import dependencies
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    only_helpers[1](x, z)
    assert only_helpers.__dict__["_refused"] is None
    walks = []
    real = dependencies._Finder.visit
    dependencies._Finder.visit = lambda self, node: walks.append(node) or real(self, node)
    try:
        only_helpers[1](x, z)
    finally:
        dependencies._Finder.visit = real
    assert walks == []


@asc.jit(always_compile=True)
def _scaled_copy(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    m = n
    if m > 64:         # pyasc's v1 name scope has no min: compare and assign (a device value, as m is)
        m = n * 0 + 64
    copy_through(x, z, 64)


@asc.jit(always_compile=True)
def _uses_min(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    m = min(n, 64)
    copy_through(x, z, m)


@asc.jit(always_compile=True)
def _helper_with_abs(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
    copy_through(x, z, abs(n))


@asc.jit(always_compile=True)
def _calls_helper_with_abs(x: asc.GlobalAddress, z: asc.GlobalAddress):
    _helper_with_abs(x, z, 64)


def test_a_python_builtin_pyascs_name_scope_lacks_stops_the_v1_kernel_at_its_line():
    """pyasc resolves a kernel's names from its locals, its module and a few builtins (int, len, range ...):
    min, abs, print or getattr in a v1 kernel (or a @jit helper it calls) is a NameError there, with or
    without always_compile."""
    import inspect

    from asc.frontend.errors import CodegenError
    x = np.arange(64, dtype=np.float32)
    z = np.zeros_like(x)
    _scaled_copy[1](x, z, 100)
    np.testing.assert_array_equal(z, x)
    z[:] = 0
    with pytest.raises(CodegenError, match="min is not defined") as e:
        _uses_min[1](x, z, 100)
    assert e.value.line == inspect.getsourcelines(_uses_min.fn)[1] + 2 and "compare and assign" in e.value.hint
    with pytest.raises(CodegenError, match="abs is not defined") as e:
        _calls_helper_with_abs[1](x, z)
    assert e.value.line == inspect.getsourcelines(_helper_with_abs.fn)[1] + 2
    assert not z.any()

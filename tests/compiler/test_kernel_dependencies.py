"""A compiled kernel depends on the module constants, enclosing variables and helper sources it uses, as
pyasc resolves them: changing any of them never reuses a kernel compiled before the change."""
from __future__ import annotations

import linecache
import sys
import types

import numpy as np
import pytest

import asc
import asc2
from asc.runtime.jit import JITFunction

@pytest.fixture
def trace_count(monkeypatch):
    calls = []
    original = JITFunction._trace

    def counting(self, *args, **kwargs):
        calls.append(self.__name__)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(JITFunction, "_trace", counting)
    return calls


def _module(src):
    """A fresh module from ``src`` under one name and file: the kernels of two versions have the same name,
    file and lines (so the disk cache can only tell them apart by their source and what they depend on)."""
    fname = "<dependency-test-kernels>"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    mod = types.ModuleType("dependency_kernels")
    mod.__file__ = fname
    sys.modules[mod.__name__] = mod
    exec(compile(src, fname, "exec"), mod.__dict__)
    return mod


def _source(scale, helper_expr="t * SCALE"):
    return (
        "import asc, asc2\n"
        f"SCALE = {scale!r}\n"
        "@asc2.jit\n"
        "def helper(t):\n"
        f"    return {helper_expr}\n"
        "@asc2.jit\n"
        "def dep_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):\n"
        "    x_gm = asc2.tensor(x_ptr, [32])\n"
        "    o_gm = asc2.tensor(out_ptr, [32])\n"
        "    x = asc2.load(x_gm, [32], offsets=[0])\n"
        "    asc2.store(helper(x), o_gm, offsets=[0])\n")


def _run(kernel):
    x = np.arange(32, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out)
    return x, out


def test_a_changed_module_constant_is_not_served_from_the_disk_cache(trace_count, tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    x, out = _run(_module(_source(2.0)).dep_kernel)
    np.testing.assert_array_equal(out, x * 2)
    _run(_module(_source(2.0)).dep_kernel)           # the same module again: a disk hit
    assert len(trace_count) == 1
    x, out = _run(_module(_source(3.0)).dep_kernel)  # same kernel and helper source, SCALE edited
    np.testing.assert_array_equal(out, x * 3)
    assert len(trace_count) == 2


def test_a_changed_helper_is_not_served_from_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    x, out = _run(_module(_source(2.0)).dep_kernel)
    np.testing.assert_array_equal(out, x * 2)
    x, out = _run(_module(_source(2.0, "t + SCALE")).dep_kernel)   # only the helper's body changed
    np.testing.assert_array_equal(out, x + 2)


def test_a_module_constant_rebound_between_launches_recompiles(trace_count):
    mod = _module(_source(2.0))
    x, out = _run(mod.dep_kernel)
    np.testing.assert_array_equal(out, x * 2)
    mod.SCALE = 0.5
    x, out = _run(mod.dep_kernel)
    np.testing.assert_array_equal(out, x * 0.5)
    mod.SCALE = 2.0                                   # back: the first compilation is reused
    _run(mod.dep_kernel)
    assert len(trace_count) == 2


def _scaled_kernel(scale, dialect):
    jit = asc2.jit if dialect == "asc2" else asc.experimental.asctile.jit

    @jit
    def closure_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [32])
        o_gm = asc2.tensor(out_ptr, [32])
        x = asc2.load(x_gm, [32], offsets=[0])
        asc2.store(x * scale, o_gm, offsets=[0])
    return closure_kernel


@pytest.mark.parametrize("dialect", ["asc2", "asctile"])
def test_a_kernel_defined_in_a_function_sees_that_functions_variables(dialect, tmp_path, monkeypatch):
    """As pyasc's ``compute_globals``: enclosing variables are names of the kernel, and each closure's value
    is its own compilation (two kernels of one source at one line, different ``scale``)."""
    if dialect == "asctile":
        pytest.importorskip("asc.experimental.asctile")
        import asc.experimental.asctile  # noqa: F401
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path))
    for scale in (2.0, 5.0, 2.0):
        x, out = _run(_scaled_kernel(scale, dialect))
        np.testing.assert_array_equal(out, x * scale)

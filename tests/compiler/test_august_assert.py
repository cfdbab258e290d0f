"""A Python ``assert`` in an August kernel is pyasc-dev's ``device_assert``, on compile-time values too:
its front end emits the assertion (a constant condition when the test is known while tracing), and
its compiler removes it unless ``debug=True``; with ``debug=True`` a false one stops the kernel when it
runs. April kernels keep pyasc 7065cd7's trace-time check."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError

from kernel_checks import assert_reported


@asctile.jit
def quiet(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    assert size % 32 == 0, "size must be a multiple of 32"
    x_gm = asctile.global_tensor(x_ptr, [asctile.block_num() * size])
    x = asctile.copy_in(x_gm, [asctile.block_idx() * size], [size])
    asctile.copy_out(x + 1.0, asctile.global_tensor(out_ptr, [asctile.block_num() * size]),
                     [asctile.block_idx() * size])


@asctile.jit(debug=True)
def checked(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    assert size % 32 == 0, "size must be a multiple of 32"
    x_gm = asctile.global_tensor(x_ptr, [asctile.block_num() * size])
    x = asctile.copy_in(x_gm, [asctile.block_idx() * size], [size])
    asctile.copy_out(x + 1.0, asctile.global_tensor(out_ptr, [asctile.block_num() * size]),
                     [asctile.block_idx() * size])


def test_without_debug_a_false_compile_time_assert_is_compiled_out():
    x = np.arange(96, dtype=np.float32)
    out = np.zeros_like(x)
    quiet[2](x, out, 48)  # 48 % 32 != 0: upstream removes the assertion without debug=True
    np.testing.assert_array_equal(out, x + 1)
    ops = {op.name for op in quiet.compile((x, out, 48), {})[0].fn.walk()}
    assert "debug.assert" not in ops


def test_with_debug_a_false_compile_time_assert_stops_every_block_at_its_line():
    x = np.arange(96, dtype=np.float32)
    out = np.zeros_like(x)
    with pytest.raises(KernelRuntimeError, match=r"device_assert failed: size must be a multiple of 32[\s\S]*"
                                                 r"in block\(s\) \[0, 1\] of 2") as e:
        checked[2](x, out, 48)
    assert 'assert size % 32 == 0, "size must be a multiple of 32"' in str(e.value)
    assert not out.any()  # the kernel stopped before its store


def test_with_debug_a_true_compile_time_assert_lets_the_kernel_run():
    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    checked[1](x, out, 64)
    np.testing.assert_array_equal(out, x + 1)


def test_an_assert_on_a_value_with_no_truth_as_a_scalar_is_upstreams_materialisation_error():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
        assert [size, size], "shape"

    @asctile.jit
    def k2(x_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
        assert size, 5

    with pytest.raises(CodegenError, match=re.escape("TypeError: Unsupported value type for materialization: list")) as e:
        k[1](np.zeros(8, np.float32), 8)
    assert_reported(e.value, "Unsupported value type for materialization", 'assert [size, size], "shape"')
    with pytest.raises(CodegenError, match=re.escape("'message' argument must be Union[str, NoneType], got int")):
        k2[1](np.zeros(8, np.float32), 8)


def test_april_kernels_keep_checking_compile_time_asserts_while_tracing():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
        assert T % 8 == 0, "T must be a multiple of 8"
        asc2.store(asc2.full([T], 1.0, asc.float32), asc2.tensor(out_ptr, [T]), offsets=[0])

    with pytest.raises(CodegenError, match=re.escape("AssertionError: T must be a multiple of 8")) as e:
        k[1](np.zeros(12, np.float32), 12)
    assert_reported(e.value, "T must be a multiple of 8", "assert T % 8 == 0", hint=False)

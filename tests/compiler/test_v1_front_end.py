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
    asc.mmad(x, x, x)


def test_unimplemented_v1_names_fail_at_the_users_line_with_a_clear_message():
    import inspect
    line = inspect.getsourcelines(uses_cube.fn)[1] + 2
    with pytest.raises(NotSupportedByEngineError, match=rf"test_v1_front_end.py:{line}: asc\.mmad is not supported "
                       "by this engine"):
        uses_cube[1](np.zeros(8, np.float32))
    with pytest.raises(NotSupportedByEngineError, match=r"asc\.adv\.rmsnorm is not supported by this engine"):
        asc.adv.rmsnorm
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        asc.no_such_name

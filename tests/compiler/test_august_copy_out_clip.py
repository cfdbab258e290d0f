"""The August copy_out writes only the rows inside the tensor (pyasc's lowering clips by the tensor's
remaining extent, and its interpreter does the same); columns past the row stay an error (on the
hardware they land in the next row), a window wholly outside stays an error, and April's store keeps
its rule."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


@asctile.jit
def rows_tail(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int, r0: int, c0: int,
              rr: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [rows, 32])
    out_gm = asctile.global_tensor(out_ptr, [rows, 32])
    t = asctile.copy_in(x_gm, [r0, c0], [8, 16], pad_value=0.0)
    if rr:
        asctile.copy_out(t, out_gm, [r0, c0], real_shape=[8, 16])
    else:
        asctile.copy_out(t, out_gm, [r0, c0])


@pytest.mark.parametrize("rr", [False, True])
def test_rows_past_the_tensor_end_are_not_written(rr):
    x = randn((10, 32), np.float32, seed=1)
    out = np.full_like(x, -1.0)
    rows_tail[1](x, out, 10, 8, 16, rr)  # rows 8..15 of a 10-row tensor: 2 written, 6 clipped
    expect = np.full_like(x, -1.0)
    expect[8:, 16:] = x[8:, 16:]
    np.testing.assert_array_equal(out, expect)


def test_columns_past_the_row_stay_an_error():
    x = randn((10, 32), np.float32, seed=2)
    with pytest.raises(KernelRuntimeError, match="runs past the end of the row") as e:
        rows_tail[1](x, np.zeros_like(x), 10, 8, 24, False)
    assert "asctile.copy_out(t, out_gm, [r0, c0])" in str(e.value)


def test_a_store_window_wholly_outside_is_an_error_on_c310():
    x = randn((10, 32), np.float32, seed=3)
    with pytest.raises(KernelRuntimeError, match=re.escape("at offsets [10, 0] in block 0 lies wholly past the end")):
        _outside(x)


@asctile.jit
def outside(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [10, 32]), [0, 0], [8, 16])
    asctile.copy_out(t, asctile.global_tensor(out_ptr, [10, 32]), [10, 0])


def _outside(x):
    outside[1](x, np.zeros_like(x))


def test_april_store_keeps_reporting_rows_beyond_the_tensor():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [10, 16]), [4, 16], offsets=[0, 0])
        asc2.store(t, asc2.tensor(out_ptr, [10, 16]), offsets=[8, 0])
    with pytest.raises(KernelRuntimeError, match="rows beyond the tensor's 10 rows"):
        k[1](np.zeros((10, 16), np.float32), np.zeros((10, 16), np.float32))

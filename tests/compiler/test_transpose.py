"""``Tile.transpose()``: the 2-D transpose of a UB tile, its alignment rule and its errors."""
from __future__ import annotations

import numpy as np
import pytest

import asc2
from asc.frontend.errors import CodegenError

from kernel_checks import randn


@asc2.jit
def transpose_tile(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, rows: asc2.ConstExpr,
                   cols: asc2.ConstExpr):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [rows, cols]), [0, 0], [rows, cols])
    asc2.copy_out(x.transpose(), asc2.global_tensor(y_ptr, [cols, rows]), [0, 0])


@pytest.mark.parametrize("dtype, rows, cols", [(np.float16, 16, 48), (np.float32, 8, 24), (np.float32, 40, 8)])
def test_transpose_swaps_rows_and_columns(dtype, rows, cols):
    x = randn((rows, cols), dtype, seed=3)
    y = np.zeros((cols, rows), dtype)
    transpose_tile[1](x, y, rows, cols)
    np.testing.assert_array_equal(y, x.T)


def test_transposed_rows_must_stay_32_byte_aligned():
    x = randn((12, 16), np.float16, seed=4)  # the transpose would have rows of 12 float16 = 24 bytes
    with pytest.raises(CodegenError, match="Last dimension of tile must be aligned by 32 bytes, got 12 x 2 bytes"):
        transpose_tile[1](x, np.zeros((16, 12), np.float16), 12, 16)


def test_transpose_needs_a_2d_tile():
    @asc2.jit
    def transpose_1d(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress):
        x = asc2.copy_in(asc2.global_tensor(x_ptr, [32]), [0], [32])
        asc2.copy_out(x.transpose(), asc2.global_tensor(y_ptr, [32]), [0])

    with pytest.raises(CodegenError, match="transpose takes a 2-D tile, got 1 dimension"):
        transpose_1d[1](randn((32,), np.float32, seed=5), np.zeros(32, np.float32))

"""Data movement of the August dialect at its edges: copy_in windows clamped to the tensor in both
dimensions (padded or undefined tails), windows that start outside the tensor, against numpy."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.frontend.generation import kernel_dialect
from asc.runtime import last_launch_report
from asc.sim.executor import KernelRuntimeError

from kernel_checks import assert_reported, randn


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def padded_window(x, r0, c0, rows, cols, pad):
    """numpy: the [rows, cols] window of x at (r0, c0), clamped to x, the rest ``pad``."""
    out = np.full((rows, cols), pad, dtype=x.dtype)
    part = x[r0:r0 + rows, c0:c0 + cols]
    out[:part.shape[0], :part.shape[1]] = part
    return out


# -- copy_in: a window past the last row ----------------------------------------------------------------
@asctile.jit
def row_tiles_padded(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                     cols: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [asctile.ceildiv(rows, tile_rows) * tile_rows, cols])
    r = asctile.block_idx() * tile_rows
    asctile.copy_out(asctile.copy_in(x_gm, [r, 0], [tile_rows, cols], pad_value=-7.0), out_gm, [r, 0])


@pytest.mark.parametrize("rows", [13, 16, 17])
def test_row_tiles_pad_the_rows_past_the_tensor_end(rows):
    # Every block loads 4 rows; the last block's window runs past row `rows` (unless 4 divides it).
    x = randn((rows, 32), np.float32, seed=rows)
    blocks = -(-rows // 4)
    out = np.zeros((blocks * 4, 32), np.float32)
    row_tiles_padded[blocks](x, out, rows, 32, 4)
    expect = np.full_like(out, -7.0)
    expect[:rows] = x
    np.testing.assert_array_equal(out, expect)


def test_a_window_past_the_last_row_and_the_row_end_pads_both():
    @asc2.jit
    def k(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, r0: int, c0: int):
        x_gm = asc2.global_tensor(x_ptr, [10, 24])
        t = asc2.copy_in(x_gm, [r0, c0], [4, 16], pad_value=2.5)
        asc2.copy_out(t, asc2.global_tensor(out_ptr, [4, 16]), [0, 0])
    x = randn((10, 24), np.float16, seed=3)
    for r0, c0 in ((0, 0), (8, 0), (0, 16), (8, 16), (9, 23)):
        out = np.zeros((4, 16), np.float16)
        k[1](x, out, r0, c0)
        np.testing.assert_array_equal(out, padded_window(x, r0, c0, 4, 16, 2.5))


def test_real_shape_without_pad_value_pads_with_zero():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x_gm = asctile.global_tensor(x_ptr, [6, 16])
        t = asctile.copy_in(x_gm, [4, 0], [4, 16], real_shape=[3, 10])
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [4, 16]), [0, 0])
    x = randn((6, 16), np.float32, seed=4) + 10.0
    out = np.full((4, 16), np.nan, np.float32)
    k[1](x, out)
    expect = np.zeros((4, 16), np.float32)
    expect[:2, :10] = x[4:6, :10]  # 3 real rows asked, 2 left in the tensor
    np.testing.assert_array_equal(out, expect)
    assert not any("undefined" in w for w in last_launch_report()["warnings"])


def test_without_pad_value_the_rows_past_the_end_are_undefined_and_reported():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int):
        x_gm = asctile.global_tensor(x_ptr, [rows, 16])
        t = asctile.copy_in(x_gm, [rows - 1, 0], [2, 16])
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [2, 16]), [0, 0])
    x = randn((5, 16), np.float32, seed=5)
    out = np.zeros((2, 16), np.float32)
    k[1](x, out, 5)
    np.testing.assert_array_equal(out[0], x[4])
    assert np.all(np.isnan(out[1]))  # on-chip memory nobody wrote: the simulator's poison
    warnings = last_launch_report()["warnings"]
    assert any("writes 16 undefined element(s) inside the tensor" in w and "pad_value=None" in w for w in warnings), \
        warnings


@pytest.mark.parametrize("r0, c0", [(10, 0), (12, 0), (0, 24), (3, 40)])
def test_a_window_that_starts_outside_the_tensor_reads_nothing_and_is_padding(r0, c0):
    # pyasc's lowering clamps a copy_in's lengths at zero: nothing is read, the tile is its pad value.
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, r0: int, c0: int):
        x_gm = asctile.global_tensor(x_ptr, [10, 24])
        t = asctile.copy_in(x_gm, [r0, c0], [4, 16], pad_value=-2.0)
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [4, 16]), [0, 0])
    x = randn((10, 24), np.float32, seed=5)
    out = np.full((4, 16), 3.0, np.float32)
    k[1](x, out, r0, c0)
    assert np.all(out == -2.0)
    assert last_launch_report()["warnings"] == []
    k[1](x, out, 9, 23)   # one row and one column before: the window starts inside, one element is read
    assert out[0, 0] == x[9, 23] and np.all(out.reshape(-1)[1:] == -2.0)


def test_a_real_shape_window_that_starts_outside_a_1d_tensor_is_padding():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, off: int):
        t = asctile.copy_in(asctile.global_tensor(x_ptr, [100]), [off], [32], real_shape=[8])
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [32]), [0])
    x = randn((100,), np.float32, seed=6)
    out = np.zeros(32, np.float32)
    k[1](x, out, 96)  # 4 of the 8 real elements are inside
    expect = np.zeros(32, np.float32)
    expect[:4] = x[96:]
    np.testing.assert_array_equal(out, expect)
    out[:] = 7.0
    k[1](x, out, 100)   # none inside: real_shape's padding (zeros) everywhere
    np.testing.assert_array_equal(out, np.zeros(32, np.float32))


def test_the_april_load_still_reports_rows_beyond_the_tensor():
    # April's load lowering does not clamp rows (pyasc 7065cd7): the same window is an out-of-bounds read there.
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [10, 16])
        asc2.store(asc2.load(x_gm, [4, 16], offsets=[8, 0], pad_value=0.0), asc2.tensor(out_ptr, [4, 16]),
                   offsets=[0, 0])
    with pytest.raises(KernelRuntimeError, match="reads rows beyond the tensor's 10 rows"):
        k[1](np.zeros((10, 16), np.float32), np.zeros((4, 16), np.float32))


# -- a bare two-argument copy follows the kernel's generation -------------------------------------------
@asc2.jit
def april_copy_shape(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
    a_l1 = asc2.load(asc2.tensor(a_ptr, [32, 64]), [32, 64], offsets=[0, 0], location=asc2.TileLocation.L1)
    b_l1 = asc2.load(asc2.tensor(b_ptr, [32, 32]), [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
    a0 = asc2.copy(a_l1, [32, 32], location=asc2.TileLocation.L0A)  # April: the second argument is the shape
    b0 = asc2.copy(b_l1, location=asc2.TileLocation.L0B)
    asc2.store(a0 @ b0, asc2.tensor(c_ptr, [32, 32]), offsets=[0, 0])


@asc2.jit
def august_copy_offsets(a_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress, c_ptr: asc2.GlobalAddress):
    a_l1 = asc2.copy_in(asc2.global_tensor(a_ptr, [32, 64]), [0, 0], [32, 64], asc2.TensorLocation.L1)
    b_l1 = asc2.copy_in(asc2.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asc2.TensorLocation.L1)
    a0 = asc2.copy(a_l1, [0, 32], [32, 32], asc2.TensorLocation.L0A)
    b0 = asc2.copy(b_l1, [0, 0], location=asc2.TensorLocation.L0B)  # August: the second argument is the offsets
    asc2.copy_out(a0 @ b0, asc2.global_tensor(c_ptr, [32, 32]), [0, 0])


def test_a_two_argument_copy_reads_as_the_april_shape_in_an_april_kernel():
    a, b = randn((32, 64), np.float16, seed=11), randn((32, 32), np.float16, seed=12)
    c = np.zeros((32, 32), np.float32)
    april_copy_shape[1](a, b, c)
    np.testing.assert_allclose(c, a[:, :32].astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)
    assert kernel_dialect(april_copy_shape.node, april_copy_shape.fn.__globals__).generation == "april"


def test_a_two_argument_copy_reads_as_the_august_offsets_in_an_august_kernel():
    a, b = randn((32, 64), np.float16, seed=13), randn((32, 32), np.float16, seed=14)
    c = np.zeros((32, 32), np.float32)
    august_copy_offsets[1](a, b, c)
    np.testing.assert_allclose(c, a[:, 32:].astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)
    assert kernel_dialect(august_copy_offsets.node, august_copy_offsets.fn.__globals__).generation == "august"


def test_the_two_argument_copy_of_the_other_generation_fails_with_the_kernels_own_reading():
    # The April reading of copy(b_l1, [0, 0], ...) is a [0, 0] shape, which pyasc rejects.
    @asc2.jit
    def k(b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
        b_l1 = asc2.load(asc2.tensor(b_ptr, [32, 32]), [32, 32], offsets=[0, 0], location=asc2.TileLocation.L1)
        b0 = asc2.copy(b_l1, [0, 0], location=asc2.TileLocation.L0B)
    with pytest.raises(CodegenError, match="All values in 'shape' must be positive") as e:
        k[1](np.zeros((32, 32), np.float16), np.zeros((32, 32), np.float32))
    assert e.value.line == line_of(k, "b0 = asc2.copy(b_l1, [0, 0]")


def test_a_runtime_real_shape_larger_than_the_tile_is_an_error():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, n: int):
        x_gm = asctile.global_tensor(x_ptr, [10, 16])
        t = asctile.copy_in(x_gm, [0, 0], [4, 16])
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [10, 16]), [0, 0], real_shape=[n, 16])
    x = randn((10, 16), np.float32, seed=15)
    out = np.zeros_like(x)
    k[1](x, out, 4)
    np.testing.assert_array_equal(out[:4], x[:4])
    with pytest.raises(KernelRuntimeError, match=r"real_shape \[10, 16\] larger than the tile shape \[4, 16\]") as e:
        k[1](x, np.zeros_like(x), 10)
    assert_reported(e.value, "larger than the tile shape",
                    "asctile.copy_out(t, asctile.global_tensor(out_ptr, [10, 16]), [0, 0], real_shape=[n, 16])")



@asctile.jit
def fill_float64(y_ptr: asctile.GlobalAddress):
    t = asctile.full([64], 2.0, asctile.float64)
    asctile.copy_out(t.to(asctile.float32), asctile.global_tensor(y_ptr, [64]), [0])


@asctile.jit
def zeros_float8(y_ptr: asctile.GlobalAddress):
    t = asctile.zeros([64], asctile.float8_e8m0fnuz)
    asctile.copy_out(t.to(asctile.float32), asctile.global_tensor(y_ptr, [64]), [0])


@pytest.mark.parametrize("kernel, line, dtype", [
    (fill_float64, "t = asctile.full([64], 2.0, asctile.float64)", "float64"),
    (zeros_float8, "t = asctile.zeros([64], asctile.float8_e8m0fnuz)", "float8_e8m0fnuz")])
def test_august_full_refuses_a_dtype_upstream_cannot_fill_with_its_text_at_the_users_line(kernel, line, dtype):
    with pytest.raises(CodegenError) as e:
        kernel[1](np.zeros(64, np.float32))
    assert (f"'dtype' dtype must be one of int8, int16, int32, int64, float16, bfloat16, float32, got {dtype}"
            in str(e.value))
    assert line in str(e.value)

"""Kernels of the world corpus (conformance/corpus/world/, written the way operator tests port August kernels)
run on this engine against numpy, at the edges those kernels rely on: CANN block loops whose last windows lie
past the end, columns clipped off [8192, 60], blocks storing identical values over each other, per-element
loops running past the input, an axis normalised with a ConstExpr conditional expression. The corpus itself
runs differentially against pyasc-dev in `make conformance`."""
from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from asc.sim.executor import KernelRuntimeError
from asc_harness.common.paths import default_root

from kernel_checks import randn

WORLD = default_root() / "conformance" / "corpus" / "world"


def world(name):
    """A world case's module (its kernels and host helpers), imported as the conformance driver does."""
    if str(WORLD) not in sys.path:
        sys.path.insert(0, str(WORLD))
    spec = importlib.util.spec_from_file_location(f"world_{name}", WORLD / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cann_block_loop_windows_past_the_end_write_nothing_and_overlapping_blocks_agree():
    add = world("add_cann_block_loop").add_kernel
    # n = 7 on 8 blocks, tile 8: per_block 1, so blocks 0..6 each store an 8-wide window starting inside (each
    # overlapping the next with the same sums) and block 7's window starts at 7, wholly past the end
    x, y = randn((7,), np.float32, seed=1), randn((7,), np.float32, seed=2)
    z = np.full(7 + 9, -7.0, np.float32)
    add[8](x, y, z, 7, 8)
    np.testing.assert_array_equal(z[:7], x + y)
    np.testing.assert_array_equal(z[7:], np.full(9, -7.0, np.float32))  # one element past the end and beyond


def test_a_negative_real_shape_of_a_window_wholly_past_the_end_is_clipped_to_nothing():
    sub = world("sub_cann_block_loop_real_shape").sub_kernel
    # n = 33 on 20 blocks: per_block 2; blocks 17..19 start at 34, 36, 38, where real_shape = [n - off] < 0
    x, y = randn((33,), np.float32, seed=3), randn((33,), np.float32, seed=4)
    z = np.zeros(40, np.float32)
    sub[20](x, y, z, 33, 8)
    np.testing.assert_array_equal(z[:33], x - y)
    assert not z[33:].any()


def test_row_tiles_of_64_columns_on_8192_by_60_drop_the_pad_columns_and_rows():
    mod = world("sub_row_bias_clipped_cols")
    x = randn((8192, 60), np.float32, seed=5)
    b = randn((60,), np.float32, seed=6)
    y = np.full((8193, 60), 3.0, np.float32)  # a row past the tensor: a spilled column would land in row r + 1
    mod.sub_bias_kernel[20](x, b, y, 8192, 60, 107, 64)
    np.testing.assert_array_equal(y[:8192], x - b)
    np.testing.assert_array_equal(y[8192], np.full(60, 3.0, np.float32))


def test_every_block_storing_the_whole_broadcast_is_no_race_but_an_in_place_overlap_is():
    expand = world("expand_rows_every_block").expand_kernel
    row = randn((1, 64), np.float32, seed=7)
    y = np.zeros((33, 64), np.float32)
    expand[8](row, np.zeros((16, 64), np.float32), y, 33, 16)  # 8 blocks store the same 33 rows
    np.testing.assert_array_equal(y, np.broadcast_to(row, (33, 64)))
    # the shifted last tile of an in-place relu: the other block reads what this one stores (not identical
    # values over each other's stores, a read / write race)
    relu = world("relu_inplace_shifted_tail").relu_inplace_kernel
    with pytest.raises(KernelRuntimeError, match="overwrites elements block 1 read in the same launch"):
        relu[2](randn((100,), np.float32, seed=8), 100, 64)


def test_one_hot_per_element_loop_past_the_input_reads_zero_writes_nothing_and_warns():
    one_hot = world("one_hot_per_element").one_hot_kernel
    idx = np.array([3, 0, 15, 7, 7, 1, 14], np.int32)
    out = np.full((7, 16), -1.0, np.float32)
    one_hot[16](idx, out, 7, 16)  # per_block 1: blocks 7..15 loop past the 7 indices
    np.testing.assert_array_equal(out, np.eye(16, dtype=np.float32)[idx])
    found = one_hot.last_launch["warnings"]
    assert any("past-the-end scalar load of tensor 'idx_ptr' (shape [7]) at offsets [7] in block 7" in w
               for w in found), found
    assert any("past-the-end scalar store of tensor 'out_ptr'" in w for w in found), found


def test_gather_rows_past_the_index_tensor_copy_nothing_and_clip_the_columns():
    gather = world("gather_rows_index").gather_kernel
    table = randn((50, 60), np.float32, seed=9)
    idx = np.array([49, 0, 3, 49, 17], np.int32)
    out = np.zeros((5, 60), np.float32)
    gather[4](table, idx, out, 50, 60, 5)  # per_block 2: block 2 reads index 5, block 3 indices 6 and 7
    np.testing.assert_array_equal(out, table[idx])


@pytest.mark.parametrize("axis", [-1, 1, 0, -2])
def test_a_negative_axis_normalised_by_a_constexpr_conditional_picks_the_right_axis(axis):
    reduce_sum = world("reduce_sum_axis_ifexp").reduce_sum_kernel
    x = randn((33, 64), np.float32, seed=10)
    y = np.zeros(x.shape[1 if axis in (0, -2) else 0], np.float32)
    reduce_sum[16](x, y, (33, 64), axis, 16)
    np.testing.assert_allclose(y, x.sum(axis=axis), rtol=1e-5, atol=1e-4)

"""gather / scatter at the exact edges: an index whose element is the first one past the caller's array
(the tensor declared larger than the array), the last element inside it, and indexed accesses along an
inner dimension behind a fixed leading offset."""
from __future__ import annotations

import re

import numpy as np
import pytest

from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError


@asctile.jit
def gather_rows(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    src = asctile.global_tensor(x_ptr, [20, 4])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [8]), [0], [8])
    asctile.copy_out(asctile.gather(src, [0], 0, index), asctile.global_tensor(out_ptr, [8, 8]), [0, 0])


@asctile.jit
def scatter_rows(d_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, v_ptr: asctile.GlobalAddress):
    dst = asctile.global_tensor(d_ptr, [20, 4])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [8]), [0], [8])
    data = asctile.copy_in(asctile.global_tensor(v_ptr, [8, 8]), [0, 0], [8, 8])
    asctile.scatter(data, 0, index, dst, [0])


def test_a_gather_of_the_arrays_last_row_reads_it_and_an_array_one_element_short_is_out_of_bounds():
    x = np.arange(80, dtype=np.float32)
    i = np.array([19, 0, 5, 19, 1, 2, 3, 4], np.int32)
    out = np.zeros((8, 8), np.float32)
    gather_rows[1](x, i, out)
    np.testing.assert_array_equal(out[:, :4], x.reshape(20, 4)[i])
    with pytest.raises(KernelRuntimeError, match=re.escape("gather of tensor 'x_ptr' touches elements beyond the "
                                                           "buffer of 79 elements")):
        gather_rows[1](x[:79].copy(), i, out)   # row 19 reads elements 76..79: the last one is past the array
    i[0] = i[3] = 18
    gather_rows[1](x[:79].copy(), i, out)   # without row 19 the short array is enough
    np.testing.assert_array_equal(out[:, :4], x.reshape(20, 4)[i])


def test_a_scatter_to_the_arrays_last_row_writes_it_and_an_array_one_element_short_is_out_of_bounds():
    i = np.array([19, 0, 5, 6, 1, 2, 3, 4], np.int32)
    v = np.arange(64, dtype=np.float32).reshape(8, 8) + 1
    d = np.zeros(80, np.float32)
    scatter_rows[1](d, i, v)
    expected = np.zeros((20, 4), np.float32)
    expected[i] = v[:, :4]
    np.testing.assert_array_equal(d.reshape(20, 4), expected)
    with pytest.raises(KernelRuntimeError, match=re.escape("scatter to tensor 'd_ptr' touches elements beyond the "
                                                           "buffer of 79 elements")):
        scatter_rows[1](np.zeros(79, np.float32), i, v)


@asctile.jit
def gather_inner(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                 row: int):
    src = asctile.global_tensor(x_ptr, [4, 6, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [8]), [0], [8])
    tile = asctile.gather(src, [row, 1], 1, index)
    asctile.copy_out(tile, asctile.global_tensor(out_ptr, [8, 8]), [0, 0])


@asctile.jit
def scatter_inner(d_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, v_ptr: asctile.GlobalAddress,
                  row: int):
    dst = asctile.global_tensor(d_ptr, [4, 6, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [8]), [0], [8])
    data = asctile.copy_in(asctile.global_tensor(v_ptr, [8, 8]), [0, 0], [8, 8])
    asctile.scatter(data, 1, index, dst, [row, 1])


def test_indexed_accesses_along_an_inner_dimension_start_at_the_leading_offset():
    x = np.arange(4 * 6 * 8, dtype=np.float32).reshape(4, 6, 8)
    i = np.array([0, 4, 2, 9, -2, 1, 3, 4], np.int32)   # positions 1 + i: 10 and -1 are outside (padded)
    out = np.full((8, 8), 5.0, np.float32)
    gather_inner[1](x, i, out, 3)
    expected = x[3][np.clip(1 + i, 0, 5)]
    expected[3:5] = 0.0
    np.testing.assert_array_equal(out, expected)
    d = np.zeros_like(x)
    v = np.arange(64, dtype=np.float32).reshape(8, 8) + 1
    scatter_inner[1](d, np.array([0, 4, 2, 9, -2, 1, 3, 7], np.int32), v, 2)
    expected = np.zeros_like(x)
    for k, j in enumerate([0, 4, 2, 9, -2, 1, 3, 7]):
        if 0 <= 1 + j < 6:
            expected[2, 1 + j] = v[k]
    np.testing.assert_array_equal(d, expected)


# -- costs: one DMA per index, exactly ----------------------------------------------------------------------
@asctile.jit
def row_dmas(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, d_ptr: asctile.GlobalAddress):
    src = asctile.global_tensor(x_ptr, [32, 8])
    dst = asctile.global_tensor(d_ptr, [32, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
    rows = asctile.gather(src, [0], 0, index)
    one = asctile.copy_in(src, [0, 0], [1, 8])
    asctile.scatter(rows, 0, index, dst, [0])
    asctile.copy_out(one, dst, [0, 0])


def test_a_gather_and_a_scatter_of_16_rows_cost_exactly_16_single_row_transfers():
    x = np.zeros((32, 8), np.float32)
    ck = row_dmas.compile((x, np.arange(16, dtype=np.int32), x.copy()), {})[0]
    costs = {}
    for op in ck.fn.walk():
        if op.name in ("tile.gather", "tile.scatter", "tile.store") or \
                op.name == "tile.load" and tuple(op.results[0].type.shape) == (1, 8):
            costs[op.name] = ck.costs[op.id]
    (g_pipe, g_ticks, *_), (l_pipe, l_ticks, *_) = costs["tile.gather"], costs["tile.load"]
    (s_pipe, s_ticks, *_), (o_pipe, o_ticks, *_) = costs["tile.scatter"], costs["tile.store"]
    assert g_pipe == l_pipe and s_pipe == o_pipe and g_pipe != s_pipe
    assert g_ticks == pytest.approx(16 * l_ticks) and s_ticks == pytest.approx(16 * o_ticks)


# -- scatter's shape rules --------------------------------------------------------------------------------
@asctile.jit
def scatter_3d(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, j_ptr: asctile.GlobalAddress,
               d_ptr: asctile.GlobalAddress, d_cols: asctile.ConstExpr, n_src: asctile.ConstExpr):
    src = asctile.global_tensor(x_ptr, [16, 2, 8])
    rows = asctile.gather(src, [0], 0, asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [n_src]))
    index = asctile.copy_in(asctile.global_tensor(j_ptr, [8]), [0], [8])
    asctile.scatter(rows, 0, index, asctile.global_tensor(d_ptr, [16, 2, d_cols]), [0])


def test_a_scatter_of_rank_3_rows_writes_each_sub_tensor_and_src_may_hold_more_rows_than_indices():
    x = np.arange(16 * 2 * 8, dtype=np.float32).reshape(16, 2, 8)
    i = np.array([3, 0, 15, 7, 8, 1, 2, 9, 4, 5, 6, 10, 11, 12, 13, 14], np.int32)
    j = np.array([1, 2, 3, 4, 5, 6, 7, 8], np.int32)
    for n_src in (8, 12):   # 12 sub-tensors for 8 indices: the first 8 are written
        d = np.zeros_like(x)
        scatter_3d[1](x, i, j, d, 8, n_src)
        expected = np.zeros_like(x)
        expected[j] = x[i[:8]]
        np.testing.assert_array_equal(d, expected)


@pytest.mark.parametrize("d_cols,n_src,text", [
    (16, 8, "ValueError: 'src' tensor's last dimension 8 is shorter than 'dst' tensor's 16"),
    (8, 6, "ValueError: 'src' holds 6 sub-tensors but 'index' has 8 values"),
])
def test_a_scatter_whose_src_is_too_small_is_rejected(d_cols, n_src, text):
    x = np.zeros((16, 2, 8), np.float32)
    with pytest.raises(CodegenError, match=re.escape(text)):
        scatter_3d[1](x, np.arange(16, dtype=np.int32), np.arange(8, dtype=np.int32), np.zeros((16, 2, d_cols), np.float32),
                      d_cols, n_src)

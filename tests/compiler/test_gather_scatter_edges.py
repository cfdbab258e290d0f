"""gather / scatter at the exact edges: an index whose element is the first one past the caller's array
(the tensor declared larger than the array), the last element inside it, and indexed accesses along an
inner dimension behind a fixed leading offset."""
from __future__ import annotations

import re

import numpy as np
import pytest

from asc.experimental import asctile
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

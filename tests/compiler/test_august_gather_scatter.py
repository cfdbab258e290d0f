"""asctile.gather / asctile.scatter: rows of a global tensor at indexed positions, padding and skipping of
indices outside the tensor, num_indices, the bounds and race checks, and pyasc-dev's rejected forms."""
from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError


def raises(exc, text):
    return pytest.raises(exc, match=re.escape(text))


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


@asctile.jit
def gather_rows(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                n: int, check: asctile.ConstExpr, cols: asctile.ConstExpr):
    src = asctile.global_tensor(x_ptr, [32, cols])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
    tile = asctile.gather(src, [1], 0, index, check_bounds=check, num_indices=n, pad_value=-1.0)
    asctile.copy_out(tile, asctile.global_tensor(out_ptr, [16, 8]), [0, 0])


def test_gather_reads_rows_pads_outside_indices_and_leaves_rows_past_num_indices_undefined():
    x = np.arange(256, dtype=np.float32).reshape(32, 8)
    i = np.arange(0, 32, 2, dtype=np.int32)
    i[3], i[4] = 31, -2  # offset 1 + 31 = 32 and 1 - 2 = -1 lie outside the tensor: padded
    out = np.zeros((16, 8), np.float32)
    gather_rows[1](x, i, out, 14, True, 8)
    expected = x[np.clip(1 + i, 0, 31)]
    expected[3:5] = -1.0
    np.testing.assert_array_equal(out[:14], expected[:14])
    assert np.isnan(out[14:]).all()


def test_gather_pads_the_row_to_32_bytes_with_the_pad_value():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        src = asctile.global_tensor(x_ptr, [16, 5])
        index = asctile.copy_in(asctile.global_tensor(i_ptr, [8]), [0], [8])
        asctile.copy_out(asctile.gather(src, [0], 0, index), asctile.global_tensor(out_ptr, [8, 8]), [0, 0])

    x = np.arange(80, dtype=np.float32).reshape(16, 5)
    i = np.array([15, 0, 3, 3, 7, 1, 2, 9], np.int32)
    out = np.full((8, 8), 7.0, np.float32)
    k[1](x, i, out)
    np.testing.assert_array_equal(out[:, :5], x[i])
    np.testing.assert_array_equal(out[:, 5:], 0.0)  # the default pad value


def test_gather_without_bounds_checks_reports_an_index_outside_the_tensor():
    x = np.arange(256, dtype=np.float32).reshape(32, 8)
    i = np.arange(0, 32, 2, dtype=np.int32)
    i[5] = 31
    with pytest.raises(KernelRuntimeError, match=r"check_bounds=False: index 31 \(position 32 of dimension 0"
                                                 r"[\s\S]*in block\(s\) \[0\]") as e:
        gather_rows[1](x, i, np.zeros((16, 8), np.float32), 16, False, 8)
    assert f":{line_of(gather_rows, 'asctile.gather(')}:" in str(e.value)


@asctile.jit
def scatter_rows(d_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, v_ptr: asctile.GlobalAddress,
                 check: asctile.ConstExpr):
    dst = asctile.global_tensor(d_ptr, [32, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [32]), [asctile.block_idx() * 16], [16])
    data = asctile.copy_in(asctile.global_tensor(v_ptr, [16, 8]), [0, 0], [16, 8])
    asctile.scatter(data, 0, index, dst, [0], check_bounds=check)


def test_scatter_writes_rows_skips_outside_indices_and_keeps_the_rest():
    d = np.arange(256, dtype=np.float32).reshape(32, 8)
    i = np.arange(0, 32, 2, dtype=np.int32)
    i[3] = 40
    v = np.repeat(np.arange(16, dtype=np.float32), 8).reshape(16, 8)
    expected = d.copy()
    keep = i < 32
    expected[i[keep]] = v[keep]
    scatter_rows[1](d, i, v, True)
    np.testing.assert_array_equal(d, expected)
    assert scatter_rows.last_launch["warnings"] == []  # rows left alone are kept on purpose


def test_scatter_from_two_blocks_to_the_same_row_is_a_race():
    d = np.zeros((32, 8), np.float32)
    i = np.concatenate([np.arange(16), np.arange(15, 31)]).astype(np.int32)  # row 15 in both blocks
    v = np.ones((16, 8), np.float32)
    with pytest.raises(KernelRuntimeError, match="scatter to 'd_ptr'.*two blocks write the same elements"):
        scatter_rows[2](d, i, v, True)
    i = np.arange(32, dtype=np.int32)
    scatter_rows[2](d, i, v, True)  # disjoint rows: fine
    np.testing.assert_array_equal(d, 1.0)


def test_gather_and_scatter_cost_one_dma_per_index():
    x = np.zeros((32, 8), np.float32)
    i = np.arange(16, dtype=np.int32)
    ck = gather_rows.compile((x, i, np.zeros((16, 8), np.float32), 16, True, 8), {})[0]
    (cost,) = [ck.costs[op.id] for op in ck.fn.walk() if op.name == "tile.gather"]
    (load,) = [ck.costs[op.id] for op in ck.fn.walk() if op.name == "tile.load"]
    # the index load moves 64 bytes with one setup; the gather sets up 16 transfers of 32 bytes
    assert cost[1] > 15 * (load[1] - 64 / 58.0)


@pytest.mark.parametrize("call,text", [
    ("asctile.gather(src, [0, 0], 1, idx)", "NotImplementedError: Gather along the last dimension is not implemented"),
    ("asctile.gather(src, [0], 0, idx.to(asctile.float32))", "'index' dtype must be one of int8, int16, int32, "
                                                             "int64, got float32"),
    ("asctile.gather(src, [0, 0], 0, idx)", "ValueError: 'offsets' must have 1 values, got 2"),
    ("asctile.gather(src, [0, 0, 0], 2, idx)", "ValueError: 'dim' of value 2 is not valid for tensor 'src' of rank 2"),
    ("asctile.scatter(rows, 1, idx, src, [0, 0])", "NotImplementedError: Scatter along the last dimension is not "
                                                   "implemented"),
    ("asctile.scatter(rows.to(asctile.float16), 0, idx, src, [0])", "ValueError: 'src' and 'dst' have different "
                                                                    "data types: float16 and float32"),
    ("asctile.scatter(rows.reshape(128), 0, idx, src, [0])", "ValueError: 'src' tensor must have rank 2, got 1"),
])
def test_rejected_forms_use_upstreams_text_at_the_users_line(call, text, tmp_path):
    src = f"""
import numpy as np
from asc.experimental import asctile

@asctile.jit
def k(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress):
    src = asctile.global_tensor(x_ptr, [32, 8])
    idx = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
    rows = asctile.copy_in(src, [0, 0], [16, 8])
    {call}
"""
    path = tmp_path / "kernel_gs.py"
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    with raises(CodegenError, text) as e:
        ns["k"][1](np.zeros((32, 8), np.float32), np.zeros(16, np.int32))
    assert "kernel_gs.py:10:" in str(e.value)


def test_a_gather_of_rows_another_iteration_of_an_unbarriered_loop_scattered_is_reported():
    @asctile.jit
    def k(d_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, barrier: asctile.ConstExpr):
        dst = asctile.global_tensor(d_ptr, [32, 8])
        if barrier:
            for t in range(1, 4, gm_barrier=True):
                index = asctile.copy_in(asctile.global_tensor(i_ptr, [32]), [t * 8], [8])
                prev = asctile.gather(dst, [0], 0, index - 8)      # the rows the previous iteration wrote
                asctile.scatter(prev + 1.0, 0, index, dst, [0])
        else:
            for t in range(1, 4):
                index = asctile.copy_in(asctile.global_tensor(i_ptr, [32]), [t * 8], [8])
                prev = asctile.gather(dst, [0], 0, index - 8)
                asctile.scatter(prev + 1.0, 0, index, dst, [0])

    i = np.arange(32, dtype=np.int32)
    d = np.zeros((32, 8), np.float32)
    k[1](d, i, True)
    np.testing.assert_array_equal(d, np.repeat(np.array([0, 1, 2, 3], np.float32), 8)[:, None] * np.ones(8))
    with pytest.raises(KernelRuntimeError, match="which another iteration of the un-barriered loop"):
        k[1](np.zeros((32, 8), np.float32), i, False)


def test_gather_in_many_blocks_each_with_its_own_indices():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        b = asctile.block_idx()
        index = asctile.copy_in(asctile.global_tensor(i_ptr, [32]), [b * 8], [8])
        rows = asctile.gather(asctile.global_tensor(x_ptr, [64, 8]), [b], 0, index)
        asctile.copy_out(rows, asctile.global_tensor(out_ptr, [32, 8]), [b * 8, 0])

    x = np.arange(512, dtype=np.float32).reshape(64, 8)
    i = np.random.default_rng(3).integers(0, 60, 32).astype(np.int32)
    out = np.zeros((32, 8), np.float32)
    k[4](x, i, out)
    np.testing.assert_array_equal(out, x[np.repeat(np.arange(4), 8) + i])


@asctile.jit
def skipped_first_row(d_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, shift: int):
    dst = asctile.global_tensor(d_ptr, [32, 8])
    for t in range(4):                                   # un-barriered (the August default)
        index = asctile.copy_in(asctile.global_tensor(i_ptr, [32]), [t * 8], [8])
        rows = asctile.gather(dst, [0], 0, index + shift)
        asctile.scatter(rows + 1.0, 0, index, dst, [0])


def test_indexed_accesses_whose_first_row_is_outside_the_tensor_are_tracked_in_an_unbarriered_loop():
    i = np.arange(32, dtype=np.int32)
    i[0::8] = -100                                       # every trip's first index: padded, then skipped
    d = np.zeros((32, 8), np.float32)
    skipped_first_row[1](d, i, 0)                        # each trip updates its own rows
    expected = np.ones((32, 8), np.float32)
    expected[0::8] = 0.0
    np.testing.assert_array_equal(d, expected)
    assert skipped_first_row.last_launch["warnings"] == []
    with pytest.raises(KernelRuntimeError, match=r"store to 'd_ptr' writes element \d+, which another iteration of "
                                                 r"the un-barriered loop") as e:
        skipped_first_row[1](np.zeros((32, 8), np.float32), i, 8)   # each trip reads the next trip's rows
    assert f":{line_of(skipped_first_row, 'asctile.scatter(rows + 1.0')}:" in str(e.value)
    assert f"(the load at line {line_of(skipped_first_row, 'rows = asctile.gather(')})" in str(e.value)

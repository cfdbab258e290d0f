"""Undefined elements from every source, followed to where they are used: a tile carried through a while
loop, ``empty`` / ``empty_like`` (uninitialised until a value replaces it) and ``gather`` with
``num_indices`` (the rows past it). The launch report warns at the use (a store landing them inside a
tensor, a reduction mixing them into defined data), naming the op that left them undefined and the fix;
the legal uses of each run clean."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile

TILE = 16


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def undefined_warnings(kernel):
    return [w for w in kernel.last_launch["warnings"] if "undefined" in w]


def assert_warns_at(kernel, use_text, source_text, what, fix):
    """Exactly one undefined-element warning: at the line of ``use_text``, saying ``what``, naming the line of
    ``source_text`` (the op that left the elements undefined) and the fix."""
    ws = undefined_warnings(kernel)
    assert len(ws) == 1, ws
    use, source = line_of(kernel, use_text), line_of(kernel, source_text)
    where, _, text = ws[0].partition(" ")
    assert where.endswith(f".py:{use}:") or f".py:{use}:" in where, ws[0]
    assert what in text and fix in text, ws[0]
    assert f"at {__file__}:{source}:" in text, ws[0]


# -- a while loop carries the undefined elements ------------------------------------------------------------------
@asc2.jit
def while_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, reps: int,
                 pad: asc2.ConstExpr, use: asc2.ConstExpr):
    x_gm = asc2.tensor(x_ptr, [n])
    off = asc2.block_idx() * TILE
    x = asc2.load(x_gm, [TILE], offsets=[off], pad_value=pad)
    i = asc2.block_idx() * 0
    while i < reps + asc2.block_idx():          # the blocks leave the loop after different trips
        if use == "replace":
            x = asc2.load(x_gm, [TILE], offsets=[off], pad_value=0.0)
        else:
            x = x * 0.5
        i = i + 1
    if use == "store":
        asc2.store(x, asc2.tensor(out_ptr, [n + 8]), offsets=[off])
    else:
        s = asc2.reduce_sum(x)
        asc2.store(asc2.full([8], s, dtype=asc.float32), asc2.tensor(out_ptr, [asc2.block_num() * 8]),
                   offsets=[asc2.block_idx() * 8])


def test_an_undefined_tail_carried_through_a_while_loop_and_summed_warns_at_the_sum():
    x = np.ones(37, np.float32)                  # block 2's tile: 5 elements inside, 11 undefined
    out = np.zeros(3 * 8, np.float32)
    while_kernel[3](x, out, x.size, 2, None, "sum")
    assert_warns_at(while_kernel, "s = asc2.reduce_sum(x)", "x = asc2.load(x_gm, [TILE], offsets=[off], pad_value=pad)",
                    "reduce_all(sum) reads 11 undefined element(s)", "pass pad_value=..., or real_shape")
    np.testing.assert_array_equal(out[:16], np.repeat([4.0, 2.0], 8))


def test_an_undefined_tail_carried_through_a_while_loop_and_stored_inside_the_tensor_warns_at_the_store():
    x = np.ones(37, np.float32)
    out = np.zeros(45, np.float32)               # 8 more elements than x: 8 of block 2's tail land inside
    while_kernel[3](x, out, x.size, 2, None, "store")
    assert_warns_at(while_kernel, "asc2.store(x, asc2.tensor(out_ptr", "pad_value=pad)",
                    "writes 8 undefined element(s) inside the tensor", "pass pad_value=..., or real_shape")


@pytest.mark.parametrize("pad,use", [(0.0, "sum"), (None, "replace")], ids=["padded", "replaced-in-the-loop"])
def test_a_while_loop_over_a_padded_or_replaced_tile_runs_clean(pad, use):
    x = np.ones(37, np.float32)
    out = np.zeros(3 * 8, np.float32)
    while_kernel[3](x, out, x.size, 2, pad, use)
    expected = [16 * 0.5 ** 2, 16 * 0.5 ** 3, 5 * 0.5 ** 4] if use == "sum" else [16, 16, 5]
    np.testing.assert_array_equal(out, np.repeat(expected, 8))
    assert while_kernel.last_launch["warnings"] == []


# -- empty / empty_like -------------------------------------------------------------------------------------------
@asc2.jit
def empty_kernel(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, n: int, how: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [n])
    out_gm = asc2.global_tensor(out_ptr, [n])
    off = asc2.block_idx() * TILE
    x = asc2.copy_in(x_gm, [off], [TILE], asc2.TensorLocation.UB, pad_value=0.0)
    buf = asc2.empty_like(x)                     # in UB, x's location (an Auto one is refused in use)
    if how == "where":                           # the mask selects x wherever it is stored
        y = asc2.where(x > -1.0, x, buf)
    elif how == "add":
        y = buf + x
    elif how == "sum":
        y = asc2.full([TILE], asc2.reduce_sum(asc2.where(x > 0.0, x, buf)), dtype=asc2.float32)
    elif how == "loop":                          # every trip replaces the whole tile
        for k in range(2):
            buf = x * (k + 1.0)
        y = buf
    else:                                        # accumulating into it reads it
        for k in range(2):
            buf = buf + x
        y = buf
    asc2.copy_out(y, out_gm, [off])


@pytest.mark.parametrize("how", ["where", "loop"])
def test_an_empty_tile_never_read_or_fully_replaced_runs_clean(how):
    x = np.arange(48, dtype=np.float32)
    out = np.zeros_like(x)
    empty_kernel[3](x, out, x.size, how)
    np.testing.assert_array_equal(out, x if how == "where" else 2 * x)
    assert empty_kernel.last_launch["warnings"] == []


@pytest.mark.parametrize("how,use", [("add", "asc2.copy_out(y, out_gm"), ("accumulate", "asc2.copy_out(y, out_gm")])
def test_an_empty_tile_read_before_it_is_written_warns_where_it_is_stored(how, use):
    x = np.arange(48, dtype=np.float32)
    out = np.zeros_like(x)
    empty_kernel[3](x, out, x.size, how)
    assert_warns_at(empty_kernel, use, "buf = asc2.empty_like(x)", "writes 48 undefined element(s) inside the tensor",
                    "is uninitialised (empty / empty_like allocate without writing); create it with zeros / full")
    assert np.isnan(out).all()


def test_an_empty_tile_selected_where_the_mask_is_false_warns_at_the_reduction():
    x = np.arange(48, dtype=np.float32)          # x[0] == 0: block 0 selects one element of the empty tile
    out = np.zeros_like(x)
    empty_kernel[3](x, out, x.size, "sum")
    assert_warns_at(empty_kernel, "y = asc2.full([TILE], asc2.reduce_sum(", "buf = asc2.empty_like(x)",
                    "reduce_all(sum) reads 1 undefined element(s)", "the unselected side of where")
    np.testing.assert_array_equal(out[16:32], np.arange(16, 32).sum())


# -- gather past num_indices ---------------------------------------------------------------------------------------
@asctile.jit
def gather_kernel(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                  n: int, out_rows: int, how: asctile.ConstExpr):
    src = asctile.global_tensor(x_ptr, [32, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
    rows = asctile.gather(src, [0], 0, index, num_indices=n)
    if how == "scatter":                         # back into the source, the same rows
        asctile.scatter(rows * 2.0, 0, index, src, [0], num_indices=n)
    elif how == "scatter-all":
        asctile.scatter(rows * 2.0, 0, index, src, [0])
    elif how == "col-sum":
        asctile.copy_out(rows.sum(0, keep_dims=True), asctile.global_tensor(out_ptr, [1, 8]), [0, 0])
    else:                                        # the first out_rows rows
        asctile.copy_out(rows + 1.0, asctile.global_tensor(out_ptr, [out_rows, 8]), [0, 0], real_shape=[out_rows, 8])


def gather_data():
    return np.arange(256, dtype=np.float32).reshape(32, 8), np.arange(31, 15, -1, dtype=np.int32)


def test_gathered_rows_past_num_indices_stored_inside_the_tensor_warn_at_the_store():
    x, i = gather_data()
    out = np.zeros((16, 8), np.float32)
    gather_kernel[1](x, i, out, 12, 16, "store")
    assert_warns_at(gather_kernel, "asctile.copy_out(rows + 1.0", "rows = asctile.gather(",
                    "writes 32 undefined element(s) inside the tensor",
                    "leaves its rows past num_indices undefined; keep them out of results")
    np.testing.assert_array_equal(out[:12], x[i[:12]] + 1)


def test_gathered_rows_past_num_indices_mixed_into_a_column_sum_warn_at_the_sum():
    x, i = gather_data()
    gather_kernel[1](x, i, np.zeros((1, 8), np.float32), 12, 16, "col-sum")
    assert_warns_at(gather_kernel, "rows.sum(0, keep_dims=True)", "rows = asctile.gather(",
                    "reads 32 undefined element(s)", "past num_indices")


def test_gathered_rows_stored_only_up_to_num_indices_run_clean():
    x, i = gather_data()
    out = np.zeros((12, 8), np.float32)
    gather_kernel[1](x, i, out, 12, 12, "store")  # real_shape: only the first 12 rows
    np.testing.assert_array_equal(out, x[i[:12]] + 1)
    assert gather_kernel.last_launch["warnings"] == []


def test_a_gather_without_num_indices_defines_every_row():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        index = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
        rows = asctile.gather(asctile.global_tensor(x_ptr, [32, 8]), [0], 0, index)
        asctile.copy_out(rows.sum(0, keep_dims=True), asctile.global_tensor(out_ptr, [1, 8]), [0, 0])

    x, i = gather_data()
    out = np.zeros((1, 8), np.float32)
    k[1](x, i, out)
    np.testing.assert_array_equal(out[0], x[i].sum(0))
    assert k.last_launch["warnings"] == []


def test_scattering_the_gathered_rows_with_the_same_num_indices_runs_clean():
    x, i = gather_data()
    expected = x.copy()
    expected[i[:12]] *= 2
    gather_kernel[1](x, i, np.zeros((16, 8), np.float32), 12, 16, "scatter")
    np.testing.assert_array_equal(x, expected)
    assert gather_kernel.last_launch["warnings"] == []


def test_scattering_every_row_writes_the_undefined_ones_and_warns_at_the_scatter():
    x, i = gather_data()
    gather_kernel[1](x, i, np.zeros((16, 8), np.float32), 12, 16, "scatter-all")
    assert_warns_at(gather_kernel, "asctile.scatter(rows * 2.0, 0, index, src, [0])", "rows = asctile.gather(",
                    "scatter to 'x_ptr' writes 32 undefined element(s) inside the tensor", "past num_indices")


@asctile.jit
def index_tail_kernel(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                      m: int, n: int):
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [m]), [0], [16])   # past m: undefined indices
    rows = asctile.gather(asctile.global_tensor(x_ptr, [32, 8]), [0], 0, index, num_indices=n)
    asctile.copy_out(rows, asctile.global_tensor(out_ptr, [n, 8]), [0, 0], real_shape=[n, 8])


def test_an_index_tile_with_an_undefined_tail_gathers_clean_when_num_indices_stops_before_it():
    x, i = gather_data()
    out = np.zeros((10, 8), np.float32)
    index_tail_kernel[1](x, i[:10], out, 10, 10)
    np.testing.assert_array_equal(out, x[i[:10]])
    assert index_tail_kernel.last_launch["warnings"] == []


def test_undefined_indices_the_gather_processes_warn_at_the_gather():
    x, i = gather_data()
    index_tail_kernel[1](x, i[:10], np.zeros((12, 8), np.float32), 10, 12)
    assert_warns_at(index_tail_kernel, "rows = asctile.gather(", "index = asctile.copy_in(",
                    "gather (index) reads 2 undefined element(s)", "pass pad_value=..., or real_shape")

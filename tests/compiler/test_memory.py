"""Global-memory semantics: load/store offsets, tile_id, tails, padding, alignment, rank, scalar access and
bounds (spec §2.1-2.3); races and atomics are in test_races_and_atomics.py."""
from __future__ import annotations

import re

import numpy as np
import pytest
import torch

import asc
import asc2
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError

from kernel_checks import assert_reported, randn


# -- offsets and tile_id -------------------------------------------------------------------------------------
@asc2.jit
def tiles_1d_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int],
                    USE_TILE_ID: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num(), unroll_factor=2, parallel=True):
        if USE_TILE_ID:
            x = asc2.load(x_gm, [T], tile_id=[i])
            asc2.store(x + 1.0, o_gm, tile_id=[i])
        else:
            x = asc2.load(x_gm, [T], offsets=[i * T])
            asc2.store(x + 1.0, o_gm, offsets=[i * T])


@pytest.mark.parametrize("use_tile_id", [False, True])
@pytest.mark.parametrize("n", [1024, 1000, 77, 5])
def test_1d_tiles_with_tail_clipped(n, use_tile_id):
    x = randn(n, np.float32, seed=31)
    buf = np.full(n + 40, -7.0, np.float32)   # the tensor covers buf[:n]; the rest must stay untouched
    tiles_1d_kernel[3](x, buf[:n], n, 128, use_tile_id)
    np.testing.assert_array_equal(buf[:n], x + np.float32(1))
    assert np.all(buf[n:] == -7.0)


@asc2.jit
def tiles_2d_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, cols: int,
                    R: asc.ConstExpr[int], C: asc.ConstExpr[int], USE_TILE_ID: asc.ConstExpr[bool], pad):
    x_gm = asc2.tensor(x_ptr, [rows, cols])
    o_gm = asc2.tensor(out_ptr, [rows, asc.ceildiv(cols, C) * C])
    for r in asc2.range(asc2.block_idx(), rows // R, asc2.block_num()):
        for c in asc2.range(asc.ceildiv(cols, C)):
            if USE_TILE_ID:
                t = asc2.load(x_gm, [R, C], tile_id=[r, c], pad_value=pad)
                asc2.store(t, o_gm, tile_id=[r, c])
            else:
                t = asc2.load(x_gm, [R, C], offsets=[r * R, c * C], pad_value=pad)
                asc2.store(t, o_gm, offsets=[r * R, c * C])


@pytest.mark.parametrize("use_tile_id", [False, True])
@pytest.mark.parametrize("pad", [0.0, -5.0])
def test_2d_last_dim_tail_is_padded_with_pad_value(use_tile_id, pad):
    rows, cols = 8, 40
    x = randn((rows, cols), np.float32, seed=32)
    out = np.full((rows, 64), 99.0, np.float32)
    tiles_2d_kernel[2](x, out, rows, cols, 2, 32, use_tile_id, pad)
    np.testing.assert_array_equal(out[:, :cols], x)
    np.testing.assert_array_equal(out[:, cols:], pad)


def test_2d_store_running_past_the_row_is_rejected_and_writes_nothing():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, rows: int, cols: int):
        o_gm = asc2.tensor(out_ptr, [rows, cols])
        asc2.store(asc2.full([4, 32], 1.0, dtype=asc.float32), o_gm, offsets=[0, 16])
    out = np.zeros((4, 40), np.float32)
    with pytest.raises(KernelRuntimeError, match=re.escape(
            "2-D store of a [4, 32] tile to tensor 'out_ptr' (shape [4, 40]) at offsets [0, 16] runs past the end "
            "of the row")) as e:
        k[1](out, 4, 40)
    assert_reported(e.value, "the columns past the row land in the next row", "asc2.store(asc2.full([4, 32]")
    assert np.all(out == 0)


def test_2d_store_ending_exactly_at_the_row_end_is_clean():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, rows: int, cols: int):
        o_gm = asc2.tensor(out_ptr, [rows, cols])
        asc2.store(asc2.full([4, 32], 1.0, dtype=asc.float32), o_gm, offsets=[0, 8])
        asc2.store(asc2.full([4, 8], 2.0, dtype=asc.float32), o_gm, offsets=[0, 0])
    out = np.zeros((4, 40), np.float32)
    k[1](out, 4, 40)
    assert np.all(out[:, 8:] == 1.0) and np.all(out[:, :8] == 2.0)
    assert k.last_launch["warnings"] == []


def test_offsets_are_element_indices_in_every_dimension():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, r: int, c: int):
        x_gm = asc2.tensor(x_ptr, [16, 64])
        o_gm = asc2.tensor(out_ptr, [2, 16])
        asc2.store(asc2.load(x_gm, [2, 16], offsets=[r, c]), o_gm, offsets=[0, 0])
    x = np.arange(16 * 64, dtype=np.int32).reshape(16, 64)
    out = np.zeros((2, 16), np.int32)
    k[1](x, out, 5, 24)
    np.testing.assert_array_equal(out, x[5:7, 24:40])


def test_load_store_need_exactly_one_of_tile_id_or_offsets():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, BOTH: asc.ConstExpr[bool]):
        x_gm = asc2.tensor(x_ptr, [64])
        if BOTH:
            t = asc2.load(x_gm, [64], tile_id=[0], offsets=[0])
        else:
            asc2.store(asc2.full([64], 1.0), x_gm)
    x = np.zeros(64, np.float32)
    for both in (True, False):
        with pytest.raises(CodegenError, match="Exactly one of 'tile_id' or 'offsets' must be provided"):
            k[1](x, both)


# -- alignment, rank ------------------------------------------------------------------------------------------------
@asc2.jit
def shaped_load_kernel(x_ptr: asc.GlobalAddress, TS: asc.ConstExpr, S: asc.ConstExpr):
    x_gm = asc2.tensor(x_ptr, TS)
    t = asc2.load(x_gm, S, offsets=[0] * len(TS))


@pytest.mark.parametrize("dtype,cols,size", [(np.float32, 10, 4), (np.float16, 8, 2), (np.int8, 16, 1)])
def test_alignment_of_the_last_tile_dimension(dtype, cols, size):
    x = np.zeros((4, 64), dtype)
    with pytest.raises(CodegenError, match=re.escape(f"Last dimension of tile must be aligned by 32 bytes, got {cols} x {size} bytes")) as e:
        shaped_load_kernel[1](x, (4, 64), (2, cols))
    assert_reported(e.value, f"Last dimension of tile must be aligned by 32 bytes, got {cols} x {size} bytes",
                    "t = asc2.load(x_gm, S")


def test_1d_tiles_are_exempt_from_alignment():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        asc2.store(asc2.load(asc2.tensor(x_ptr, [7]), [7], offsets=[0]) * 2.0, asc2.tensor(out_ptr, [7]), offsets=[0])
    x = randn(7, np.float32, seed=33)
    out = np.zeros_like(x)
    k[1](x, out)
    np.testing.assert_array_equal(out, x * 2)


def test_rank_3_tensors_are_rejected_for_load_and_store():
    x = np.zeros((2, 4, 32), np.float32)
    with pytest.raises(CodegenError, match=re.escape("load of a rank-3 tensor is not supported")) as e:
        shaped_load_kernel[1](x, (2, 4, 32), (1, 4, 32))
    assert "load of a rank-3 tensor is not supported" in str(e.value)
    assert "hint: " in str(e.value)

    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        asc2.store(asc2.full([1, 1, 32], 1.0), asc2.tensor(x_ptr, [2, 4, 32]), offsets=[0, 0, 0])
    with pytest.raises(CodegenError, match="store of a rank-3 tensor is not supported"):
        k[1](x)


def test_tile_rank_must_match_tensor_rank():
    with pytest.raises(CodegenError, match="rank of 'tensor_shape' must match rank of 'shape'"):
        shaped_load_kernel[1](np.zeros((4, 64), np.float32), (4, 64), (64,))


@pytest.mark.parametrize("shape,msg", [((), "'shape' must have at least one value"),
                                       ((0, 32), "All values in 'shape' must be positive"),
                                       ((2.0, 32), "All values in 'shape' must be integers")])
def test_load_shape_checks(shape, msg):
    with pytest.raises(CodegenError, match=msg):
        shaped_load_kernel[1](np.zeros((4, 64), np.float32), (4, 64), shape)


def test_load_into_l0c_is_an_invalid_destination():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [16, 16]), [16, 16], offsets=[0, 0], location=asc2.TileLocation.L0C)
    with pytest.raises(CodegenError, match="invalid destination location of the tile"):
        k[1](np.zeros((16, 16), np.float32))


def test_store_dtype_must_match_the_tensor():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(t, asc2.tensor(out_ptr, [64]), offsets=[0])
    with pytest.raises(CodegenError, match=re.escape("failed to verify that all of {base, value} have same element type")) as e:
        k[1](np.zeros(64, np.float32), np.zeros(64, np.float16))
    assert_reported(e.value, "failed to verify that all of {base, value} have same element type",
                    "asc2.store(t, asc2.tensor(out_ptr")
    assert ".to(asc.float16)" in str(e.value)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.uint8, np.uint16, np.uint32],
                         ids=lambda d: np.dtype(d).name)
def test_tiles_of_dtypes_the_hardware_lacks_are_rejected(dtype):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        asc2.store(t, asc2.tensor(out_ptr, [64]), offsets=[0])
    out = np.zeros(64, dtype)
    with pytest.raises(CodegenError, match=np.dtype(dtype).name) as e:
        k[1](np.ones(64, dtype), out)
    assert np.dtype(dtype).name in str(e.value) and "t = asc2.load(" in str(e.value)
    assert np.all(out == 0)


# -- tensors --------------------------------------------------------------------------------------------------------
def test_tensor_shape_static_and_dynamic_dims():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int):
        x_gm = asc2.tensor(x_ptr, [rows, 32])
        assert len(x_gm.shape) == 2
        assert x_gm.shape[1] == 32
        assert x_gm.shape[-1] == 32
        assert x_gm.shape.is_dynamic_dim(0)
        assert not x_gm.shape.is_static()
        o_gm = asc2.tensor(out_ptr, [8])
        n = x_gm.shape[0] * x_gm.shape[1]
        asc2.store(asc2.full([8], n, dtype=asc.int32), o_gm, offsets=[0])
    out = np.zeros(8, np.int32)
    k[1](np.zeros((5, 32), np.float32), out, 5)
    assert np.all(out == 160)


@pytest.mark.parametrize("expr,msg", [
    ("asc2.tensor(x_ptr, [2.0])", "Tensor dimension should be RuntimeInt, got <class 'float'>"),
    ("asc2.tensor(x_ptr, [8]).shape[1]", "shape index 1 out of range"),
    ("asc2.tensor(x_ptr, [8]).shape['a']", "'index' argument must be int, got <class 'str'>"),
    ("asc2.tensor(5, [8])", "'base' argument must be a GlobalAddress"),
])
def test_tensor_errors(expr, msg):
    import linecache
    src = f"def kern(x_ptr):\n    v = {expr}\n"
    fname = f"/virtual/tests/compiler/test_tensor_{abs(hash(src))}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"asc": asc, "asc2": asc2}
    exec(compile(src, fname, "exec"), ns)
    with pytest.raises(CodegenError, match=msg):
        asc2.jit(ns["kern"])[1](np.zeros(8, np.float32))


def test_num_tiles_static_and_dynamic():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int):
        x_gm = asc2.tensor(x_ptr, [rows, 100])
        static = asc2.num_tiles(x_gm, 1, [1, 32])
        assert static == 4
        dynamic = asc2.num_tiles(x_gm, 0, [3, 32])
        asc2.store(asc2.full([8], dynamic, dtype=asc.int32), asc2.tensor(out_ptr, [8]), offsets=[0])
    out = np.zeros(8, np.int32)
    k[1](np.zeros((10, 100), np.float32), out, 10)
    assert np.all(out == 4)


def test_a_tensor_shape_printed_while_tracing_shows_static_dims_and_a_question_mark_for_runtime_ones(capsys):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, rows: int):
        asc2.static_print(asc2.tensor(x_ptr, [rows, 100]).shape)

    k[1](np.zeros((10, 100), np.float32), 10)
    assert "RuntimeShape(?, 100)" in capsys.readouterr().out


@pytest.mark.parametrize("call,msg", [("asc2.num_tiles(t, 2, [1, 32])", r"axis \(2\) exceeds number of dimensions"),
                                      ("asc2.num_tiles(t, 3, [1, 32])", r"axis \(3\) exceeds number of dimensions"),
                                      ("asc2.num_tiles(t, 0, [32])", "rank of 'tensor_shape' must match rank of 'shape'"),
                                      ("asc2.num_tiles(t, 0, [1, 32, 4])",
                                       "rank of 'tensor_shape' must match rank of 'shape'")])
def test_num_tiles_errors(call, msg):
    import linecache
    src = f"def kern(x_ptr):\n    t = asc2.tensor(x_ptr, [4, 32])\n    v = {call}\n"
    fname = f"/virtual/tests/compiler/test_num_tiles_{abs(hash(src))}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"asc": asc, "asc2": asc2}
    exec(compile(src, fname, "exec"), ns)
    with pytest.raises(CodegenError, match=msg):
        asc2.jit(ns["kern"])[1](np.zeros((4, 32), np.float32))


def test_pointer_offset():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, skip: int):
        x_gm = asc2.tensor(x_ptr + skip, [32])
        asc2.store(asc2.load(x_gm, [32], offsets=[0]), asc2.tensor(out_ptr, [32]), offsets=[0])
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(32, np.float32)
    k[1](x, out, 16)
    np.testing.assert_array_equal(out, x[16:48])


# -- scalar load / store ---------------------------------------------------------------------------------------------
def test_scalar_load_and_store():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int):
        x_gm = asc2.tensor(x_ptr, [rows, 8])
        o_gm = asc2.tensor(out_ptr, [rows, 8])
        for r in asc2.range(asc2.block_idx(), rows, asc2.block_num()):
            v = asc2.load(x_gm, offsets=[r, 3])
            asc2.store(v * 2, o_gm, offsets=[r, 0])                                 # a scalar
            asc2.store(asc2.full([1, 1], v, dtype=asc.int32) + 1, o_gm, offsets=[r, 1])  # a 1-element tile
    x = np.arange(6 * 8, dtype=np.int32).reshape(6, 8)
    out = np.zeros_like(x)
    k[4](x, out, 6)
    np.testing.assert_array_equal(out[:, 0], x[:, 3] * 2)
    np.testing.assert_array_equal(out[:, 1], x[:, 3] + 1)
    assert np.all(out[:, 2:] == 0)


def test_scalar_store_rules():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, WHICH: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [8])
        if WHICH == 0:
            asc2.store(1.0, x_gm, tile_id=[0])
        elif WHICH == 1:
            asc2.store(1.0, x_gm)
        else:
            v = asc2.load(x_gm, tile_id=[0])
    x = np.zeros(8, np.float32)
    with pytest.raises(CodegenError, match="'tile_id' argument cannot be used when storing a scalar value or a "
                                           "tile with 1 element"):
        k[1](x, 0)
    with pytest.raises(CodegenError, match="'offsets' argument must be provided"):
        k[1](x, 1)
    with pytest.raises(CodegenError, match="'tile_id' cannot be used for a scalar load"):
        k[1](x, 2)


def test_scalar_access_out_of_bounds():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, i: int):
        x_gm = asc2.tensor(x_ptr, [8])
        asc2.store(asc2.load(x_gm, offsets=[0]), x_gm, offsets=[i])
    x = np.zeros(8, np.float32)
    with pytest.raises(KernelRuntimeError, match=re.escape("scalar store to tensor 'x_ptr' outside the tensor: offsets [8], shape [8]")) as e:
        k[3](x, 8)
    text = str(e.value)
    assert "scalar store to tensor 'x_ptr' outside the tensor: offsets [8], shape [8]" in text
    assert "block(s) [0, 1, 2] of 3" in text and "hint: " in text
    assert "asc2.store(asc2.load(x_gm, offsets=[0]), x_gm, offsets=[i])" in text
    assert np.all(x == 0)

    @asc2.jit
    def k2(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [2, 8])
        v = asc2.load(x_gm, offsets=[asc2.block_idx() % 2, asc2.block_idx() * 3])
        asc2.store(v, asc2.tensor(out_ptr, [8]), offsets=[asc2.block_idx()])
    with pytest.raises(KernelRuntimeError, match=re.escape("scalar load of tensor 'x_ptr' outside the tensor")) as e:
        k2[4](np.zeros((2, 8), np.float32), np.zeros(8, np.float32))
    text = str(e.value)
    assert "scalar load of tensor 'x_ptr' outside the tensor: offsets [1, 9], shape [2, 8]" in text
    assert "block(s) [3] of 4" in text


def test_runtime_faults_carry_a_hint():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, a: int, b: int):
        asc2.store(asc2.full([8], a // b, dtype=asc.int32), asc2.tensor(out_ptr, [8]), offsets=[0])
    with pytest.raises(KernelRuntimeError, match=re.escape("integer division by zero")) as e:
        k[1](np.zeros(8, np.int32), 1, 0)
    assert "integer division by zero" in str(e.value) and "hint: " in str(e.value)

    @asc2.jit
    def k2(out_ptr: asc.GlobalAddress, step: int):
        for i in range(0, 8, step):
            pass
    with pytest.raises(KernelRuntimeError, match=re.escape("loop step must not be zero")) as e:
        k2[1](np.zeros(8, np.int32), 0)
    assert "loop step must not be zero" in str(e.value) and "hint: " in str(e.value)


# -- bounds ---------------------------------------------------------------------------------------------------------
@asc2.jit
def oob_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    off = asc2.block_idx() * T
    asc2.store(asc2.load(x_gm, [T], offsets=[off]), o_gm, offsets=[off])


def test_tensor_larger_than_its_buffer_is_an_error_and_nothing_is_written_outside():
    guard = np.full(64 + 256 + 64, -9.0, np.float32)
    x = randn(256, np.float32, seed=34)
    out = guard[64:64 + 256]                  # a contiguous view: the guards around it must stay intact
    with pytest.raises(KernelRuntimeError, match="buffer of 256 elements") as e:
        oob_kernel[4](x, out, 320, 80)          # claims 320 elements of 256-element buffers
    text = str(e.value)
    assert "tensor 'x_ptr'" in text and "offsets [240]" in text and "buffer of 256 elements" in text
    assert "block(s) [3] of 4" in text
    assert f"{__file__}:" in text and "asc2.store(asc2.load(x_gm, [T], offsets=[off])" in text
    assert "hint: " in text
    assert np.all(guard[:64] == -9.0) and np.all(guard[64 + 256:] == -9.0)


@asc2.jit
def rows_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int):
    x_gm = asc2.tensor(x_ptr, [rows, 32])
    o_gm = asc2.tensor(out_ptr, [rows, 32])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        asc2.store(asc2.load(x_gm, [1, 32], offsets=[r, 0]) + 1.0, o_gm, offsets=[r, 0])


@pytest.mark.parametrize("claimed", [10, 11])
def test_a_2d_tensor_one_row_larger_than_its_buffer_fails_at_that_row(claimed):
    """A window ending at the buffer's last element is clean; one row more (the tensor claims 11 rows of a
    10-row array) touches element 351 of 320, in the block that loads row 10."""
    x = randn((10, 32), np.float32, seed=5)
    out = np.zeros_like(x)
    if claimed == 10:
        rows_kernel[4](x, out, claimed)
        np.testing.assert_array_equal(out, x + 1.0)
        return
    with pytest.raises(KernelRuntimeError, match="touches element 351 of a buffer of 320 elements") as e:
        rows_kernel[4](x, out, claimed)
    assert "offsets [10, 0]" in str(e.value) and "block(s) [2] of 4" in str(e.value)
    assert np.all(out == 0)


def test_rows_beyond_a_2d_tensor_are_an_error():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int):
        x_gm = asc2.tensor(x_ptr, [rows, 32])
        o_gm = asc2.tensor(out_ptr, [rows, 32])
        r = asc2.block_idx() * 4
        asc2.store(asc2.load(x_gm, [4, 32], offsets=[r, 0]), o_gm, offsets=[r, 0])
    x = np.zeros((10, 32), np.float32)
    out = np.full_like(x, 3.0)
    with pytest.raises(KernelRuntimeError, match="rows beyond the tensor's 10 rows") as e:
        k[3](x, out, 10)
    text = str(e.value)
    assert "load of tensor 'x_ptr'" in text and "offsets [8, 0]" in text and "reads rows beyond the tensor's 10 rows" in text
    assert "block(s) [2] of 3" in text


def test_a_store_past_the_last_row_says_it_writes_there():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        tile = asc2.load(asc2.tensor(x_ptr, [4, 32]), [4, 32], offsets=[0, 0])
        asc2.store(tile, asc2.tensor(out_ptr, [10, 32]), offsets=[8, 0])
    out = np.full((10, 32), 3.0, np.float32)
    with pytest.raises(KernelRuntimeError, match=re.escape("store of tensor 'out_ptr' (shape [10, 32]) at offsets "
                                                           "[8, 0] with tile shape [4, 32] writes rows beyond the "
                                                           "tensor's 10 rows")):
        k[1](np.zeros((4, 32), np.float32), out)
    assert np.all(out == 3.0)      # nothing of the store landed


def test_negative_offsets_are_an_error():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, off: int):
        x_gm = asc2.tensor(x_ptr, [64])
        asc2.store(asc2.full([8], 1.0), x_gm, offsets=[off])
    x = np.zeros(64, np.float32)
    with pytest.raises(KernelRuntimeError, match=r"negative offsets \[-8\]"):
        k[1](x, -8)
    assert np.all(x == 0)


def test_uninitialised_tail_without_pad_value_is_reported_where_it_is_used():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, total: asc.ConstExpr[bool]):
        x = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[0], pad_value=None)
        if total:
            x = asc2.full([64], asc2.reduce_sum(x), dtype=asc2.float32)
        asc2.store(x, asc2.tensor(out_ptr, [n]), offsets=[0])
    x = np.ones(40, np.float32)
    out = np.zeros_like(x)
    k[1](x, out, 40, False)   # the undefined tail is clipped by the store: never used
    np.testing.assert_array_equal(out, x)
    assert k.last_launch["warnings"] == []
    k[1](x, out, 40, True)    # summed: the 24 undefined elements reach every result
    warnings = k.last_launch["warnings"]
    assert len(warnings) == 1 and "pad_value=None" in warnings[0] and "reads 24 undefined element(s)" in warnings[0]


def test_torch_buffers_are_bounds_checked_too():
    x = torch.zeros(100)
    with pytest.raises(KernelRuntimeError, match="buffer of 100 elements"):
        oob_kernel[2](x, torch.zeros(100), 128, 64)

"""Global-memory accesses at their edges (docs/simulator.md, Memory and sanitizers): ``real_shape`` windows
clipped by the tensor's row at a column offset, negative offsets and a pointer one element before its
buffer, tensors whose length differs per block, the bytes a launch reports moving, and which block a race
report names."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


# -- real_shape windows -----------------------------------------------------------------------------------------
@asc2.jit
def real_window(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, r: int, c: int, cols: asc2.ConstExpr):
    x_gm = asc2.global_tensor(x_ptr, [4, cols])
    t = asc2.copy_in(x_gm, [r, c], [4, 16], real_shape=[4, 16], pad_value=-1.0)
    asc2.copy_out(t + 1.0, asc2.global_tensor(out_ptr, [4, 16]), [0, 0])


def test_a_real_shape_load_at_a_column_offset_is_clipped_at_the_end_of_the_row():
    # columns 16..31 of a 24-column tensor: 8 are inside, the 8 past the row are padding
    x = randn((4, 24), np.float32, seed=11)
    out = np.full((4, 16), 9.0, np.float32)
    real_window[1](x, out, 0, 16, 24)
    expect = np.zeros_like(out)                   # pad -1.0, plus one
    expect[:, :8] = x[:, 16:] + 1.0
    np.testing.assert_array_equal(out, expect)


@pytest.mark.parametrize("r,c", [(-1, 0), (0, -1)])
def test_a_real_shape_window_at_a_negative_offset_is_an_error(r, c):
    x = np.zeros((4, 32), np.float32)
    out = np.full((4, 16), 9.0, np.float32)
    with pytest.raises(KernelRuntimeError, match=re.escape(f"at negative offsets [{r}, {c}]")):
        real_window[1](x, out, r, c, 32)
    assert np.all(out == 9)


@pytest.mark.parametrize("real", [False, True], ids=["load", "copy_in-real_shape"])
def test_a_tensor_starting_one_element_before_its_buffer_is_an_error_of_that_block(real):
    @asc2.jit(always_compile=True)
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, shift: int, REAL: asc.ConstExpr[bool]):
        b = asc2.block_idx()
        x_gm = asc2.tensor(x_ptr + shift * b, [64])   # block 1's tensor starts `shift` elements away
        if REAL:
            t = asc2.copy_in(x_gm, [0], [64], real_shape=[64])
        else:
            t = asc2.load(x_gm, [64], offsets=[0])
        asc2.store(t, asc2.tensor(out_ptr, [128]), offsets=[b * 64])
    base = np.arange(65, dtype=np.float32)
    x = base[1:]                                  # element -1 of x exists in memory, but not in the array
    out = np.zeros(128, np.float32)
    k[2](x, out, 0, real)
    np.testing.assert_array_equal(out, np.concatenate([x, x]))
    with pytest.raises(KernelRuntimeError, match="buffer of 64 elements") as e:
        k[2](x, np.zeros(128, np.float32), -1, real)
    assert "in block(s) [1] of 2" in str(e.value)


# -- tensors whose length differs per block ------------------------------------------------------------------------
@asc2.jit
def per_block_tail(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    b = asc2.block_idx()
    left = n - b * T                              # each block sees the rest of the array from its offset
    x_gm = asc2.tensor(x_ptr + b * T, [left])
    o_gm = asc2.tensor(out_ptr + b * T, [left])
    t = asc2.load(x_gm, [T], offsets=[0])
    if b % 2 == 0:
        asc2.store(t + 1.0, o_gm, offsets=[0])
    else:
        asc2.store(t * 2.0, o_gm, offsets=[0])


@asc2.jit
def per_block_end(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    b = asc2.block_idx()
    end = b * T + T                               # each block sees the array up to the end of its own tile
    if end > n:
        end = n
    x_gm = asc2.tensor(x_ptr, [end])
    o_gm = asc2.tensor(out_ptr, [end])
    t = asc2.load(x_gm, [T], offsets=[b * T])
    if b % 2 == 0:
        asc2.store(t + 1.0, o_gm, offsets=[b * T])
    else:
        asc2.store(t * 2.0, o_gm, offsets=[b * T])


@pytest.mark.parametrize("kernel", [per_block_tail, per_block_end], ids=["moved-start", "own-end"])
@pytest.mark.parametrize("n", [3 * 64 - 5, 3 * 64], ids=["last-block-clipped", "all-full"])
def test_tensors_of_a_different_length_in_each_block_clip_each_blocks_own_tail(kernel, n):
    x = randn(n, np.float32, seed=12)
    base = np.full(3 * 64 + 32, -7.0, np.float32)
    out = base[:x.size]
    kernel[3](x, out, x.size, 64)
    expect = np.concatenate([x[:64] + 1.0, x[64:128] * 2.0, x[128:] + 1.0])
    np.testing.assert_array_equal(out, expect)
    assert np.all(base[x.size:] == -7)            # the last block's tail stops at the end of its tensor


# -- bytes a launch moves -------------------------------------------------------------------------------------------
@asc2.jit
def copy_blocks(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    off = asc2.block_idx() * T
    asc2.store(asc2.load(asc2.tensor(x_ptr, [n]), [T], offsets=[off]), asc2.tensor(out_ptr, [n]), offsets=[off])


@pytest.mark.parametrize("n", [256, 250])
def test_the_launch_reports_the_bytes_of_the_elements_inside_the_tensors(n):
    x = randn(n, np.float32, seed=13)
    out = np.zeros_like(x)
    copy_blocks[4](x, out, n, 64)
    np.testing.assert_array_equal(out, x)
    assert copy_blocks.last_launch["bytes_out"] == 4 * n


def test_the_launch_reports_the_bytes_of_2d_tiles():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        r = asc2.block_idx() * 4
        t = asc2.load(asc2.tensor(x_ptr, [8, 32]), [4, 32], offsets=[r, 0])
        asc2.store(t, asc2.tensor(out_ptr, [8, 32]), offsets=[r, 0])
    x = randn((8, 32), np.float32, seed=14)
    out = np.zeros_like(x)
    k[2](x, out)
    np.testing.assert_array_equal(out, x)
    assert k.last_launch["bytes_out"] == 8 * 32 * 4


# -- which block a race report names ----------------------------------------------------------------------------------
def test_an_overwrite_race_names_the_other_block_that_read():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        b = asc2.block_idx()
        t = asc2.load(asc2.tensor(buf_ptr, [64]), [64], offsets=[0])     # both blocks read the buffer
        asc2.store(t, asc2.tensor(out_ptr, [128]), offsets=[b * 64])
        if b == 1:
            asc2.store(t + 1.0, asc2.tensor(buf_ptr, [64]), offsets=[0])  # block 1 overwrites it
    with pytest.raises(KernelRuntimeError, match="store to 'buf_ptr' overwrites elements block 0 read"):
        k[2](np.zeros(64, np.float32), np.zeros(128, np.float32))


# -- one element or one staged tile shared by every block -------------------------------------------------------
@asc2.jit
def shared_scale_kernel(x_ptr: asc.GlobalAddress, s_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                        T: asc.ConstExpr[int]):
    n = asc2.block_num()
    off = asc2.block_idx() * T
    s = asc2.load(asc2.tensor(s_ptr, [4]), offsets=[2])          # the same element in every block
    x = asc2.load(asc2.tensor(x_ptr, [n * T]), [T], offsets=[off])
    asc2.store(x * s, asc2.tensor(out_ptr, [n * T]), offsets=[off])


@pytest.mark.parametrize("blocks", [1, 2, 3, 8])
def test_a_scalar_every_block_loads_from_one_element_scales_each_blocks_tile(blocks):
    x = randn(blocks * 64, np.float32, seed=12)
    s = np.array([5.0, 6.0, 0.5, 7.0], np.float32)
    out = np.zeros_like(x)
    shared_scale_kernel[blocks](x, s, out, 64)
    np.testing.assert_array_equal(out, x * np.float32(0.5))


@asc2.jit
def staged_slices_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                         M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int], TK: asc.ConstExpr[int]):
    """Block b multiplies the b-th K slice of A and B, copied out of L1 tiles every block stages."""
    b = asc2.block_idx()
    a_l1 = asc2.load(asc2.tensor(a_ptr, [M, K]), [M, K], offsets=[0, 0], location=asc2.TileLocation.L1)
    b_l1 = asc2.load(asc2.tensor(b_ptr, [K, N]), [K, N], offsets=[0, 0], location=asc2.TileLocation.L1)
    a = asc2.copy(a_l1, [M, TK], offsets=[0, b * TK], location=asc2.TileLocation.L0A)
    bb = asc2.copy(b_l1, [TK, N], offsets=[b * TK, 0], location=asc2.TileLocation.L0B)
    asc2.store(a @ bb, asc2.tensor(c_ptr, [asc2.block_num() * M, N]), offsets=[b * M, 0])


def test_copies_out_of_a_staged_tile_at_per_block_offsets_take_each_blocks_slice():
    M, K, N, TK = 16, 64, 16, 16
    rng = np.random.default_rng(13)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    c = np.zeros((4 * M, N), np.float32)
    staged_slices_kernel[4](a, b, c, M, K, N, TK)
    for k in range(4):
        sl = slice(k * TK, (k + 1) * TK)
        np.testing.assert_array_equal(c[k * M:(k + 1) * M], a[:, sl].astype(np.float32) @ b[sl].astype(np.float32))


@asc2.jit
def accumulate_tail_kernel(y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
    y_gm = asc2.tensor(y_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    off = asc2.block_idx() * T
    acc = asc2.load(o_gm, [T], offsets=[off], pad_value=0.0)     # the last block's window is clipped
    asc2.store(acc + asc2.load(y_gm, [T], offsets=[off], pad_value=0.0), o_gm, offsets=[off])


def test_a_clipped_load_of_an_output_no_block_wrote_warns_with_the_count_inside_the_tensor():
    y = randn(100, np.float32, seed=14)
    out = np.zeros_like(y)
    accumulate_tail_kernel[2](y, out, 100, 64)
    np.testing.assert_array_equal(out, y)
    (w,) = accumulate_tail_kernel.last_launch["warnings"]
    assert "load of 'out_ptr' reads 100 element(s) no block wrote in this launch" in w   # 64 + 36 inside, not 128
    out = np.zeros_like(y)
    accumulate_tail_kernel[1](y[:36], out[:36], 36, 64)
    (w,) = accumulate_tail_kernel.last_launch["warnings"]
    assert "load of 'out_ptr' reads 36 element(s) no block wrote in this launch" in w    # 36 inside, not 64


def test_a_clipped_load_of_what_another_block_stored_is_a_race():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        g = asc2.tensor(buf_ptr, [n])
        o = asc2.tensor(out_ptr, [128])
        if asc2.block_idx() == 0:
            asc2.store(asc2.full([64], 1.0), g, offsets=[32])
        else:
            asc2.store(asc2.load(g, [64], offsets=[64], pad_value=0.0), o, offsets=[64])   # clipped at n = 100
    with pytest.raises(KernelRuntimeError, match="load of 'buf_ptr' reads data written by block 0 in the same launch"):
        k[2](np.zeros(100, np.float32), np.zeros(128, np.float32), 100)


@asc2.jit
def shared_operands_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                           M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int]):
    """Every block multiplies the same A by one of two column blocks of B (blocks 0, 2 the first)."""
    b = asc2.block_idx()
    a = asc2.load(asc2.tensor(a_ptr, [M, K]), [M, K], offsets=[0, 0], location=asc2.TileLocation.L0A)
    w = asc2.load(asc2.tensor(b_ptr, [K, 2 * N]), [K, N], offsets=[0, (b % 2) * N], location=asc2.TileLocation.L0B)
    asc2.store(a @ w, asc2.tensor(c_ptr, [asc2.block_num() * M, N]), offsets=[b * M, 0])


@pytest.mark.parametrize("blocks", [2, 4, 6])
def test_blocks_sharing_one_operand_and_two_windows_of_the_other_each_get_their_product(blocks):
    M, K, N = 16, 32, 16
    rng = np.random.default_rng(15)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, 2 * N)).astype(np.float16)
    c = np.zeros((blocks * M, N), np.float32)
    shared_operands_kernel[blocks](a, b, c, M, K, N)
    for k in range(blocks):
        w = b[:, (k % 2) * N:(k % 2 + 1) * N].astype(np.float32)
        np.testing.assert_array_equal(c[k * M:(k + 1) * M], a.astype(np.float32) @ w)

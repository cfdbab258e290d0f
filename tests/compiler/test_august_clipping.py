"""August windows are clipped to the tensor in every dimension, as pyasc-dev's interpreter clips them
(``asctile/interpreter/operations.py``: ``count = max(0, min(tile, size - offset))`` per dimension): a
copy_out writes only the part inside, a window wholly outside writes nothing, a copy_in pads what is
outside. Scalar accesses outside read 0 / write nothing, with a warning (the device has no bounds there).
April's load / store keep their rules."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.experimental import asctile
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


def clip_window(offsets, shape, bounds):
    """The interpreter's rule: (tensor slices, tile slices) of the part of the window inside the tensor."""
    counts = [max(0, min(s, b - o)) for o, s, b in zip(offsets, shape, bounds)]
    return (tuple(slice(o, o + c) for o, c in zip(offsets, counts)), tuple(slice(0, c) for c in counts))


@asctile.jit
def window_copy(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int, cols: asctile.ConstExpr,
                r0: int, c0: int, R: asctile.ConstExpr, C: asctile.ConstExpr, rr: asctile.ConstExpr):
    """The [R, C] window of x at (0, 0), stored into out at (r0, c0), whole or with real_shape rr."""
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    t = asctile.copy_in(x_gm, [0, 0], [R, C], pad_value=0.0)
    if rr:
        asctile.copy_out(t, out_gm, [r0, c0], real_shape=rr)
    else:
        asctile.copy_out(t, out_gm, [r0, c0])


def _expected_store(x, shape, r0, c0, rr=None):
    out = np.full_like(x, -1.0)
    tile = np.zeros(shape, x.dtype)
    src, head = clip_window((0, 0), shape, x.shape)
    tile[head] = x[src]
    dst, head = clip_window((r0, c0), rr or shape, x.shape)
    out[dst] = tile[head]
    return out


@pytest.mark.parametrize("r0,c0", [(8, 16), (8, 24), (0, 24), (9, 31), (10, 0), (0, 32), (40, 40), (3, 17)],
                         ids=["rows-tail", "rows-and-columns", "columns", "one-element", "rows-outside",
                              "columns-outside", "both-outside", "odd"])
@pytest.mark.parametrize("platform", ["Ascend950PR_9599", "Ascend910B1"])
def test_a_copy_out_writes_only_what_lies_inside_the_tensor(r0, c0, platform):
    config.set_platform(config.Backend.Model, getattr(config.Platform, platform))
    x = randn((10, 32), np.float32, seed=1)
    out = np.full_like(x, -1.0)
    window_copy[1](x, out, 10, 32, r0, c0, 8, 16, ())
    np.testing.assert_array_equal(out, _expected_store(x, (8, 16), r0, c0))
    # nothing but the coverage note (the store covers part of out): no error, no past-the-end warning
    assert all("never written by any block" in w for w in window_copy.last_launch["warnings"])


@pytest.mark.parametrize("rr", [(8, 16), (3, 9), (8, 1), (1, 16)])
def test_real_shape_is_clipped_to_the_tensor_too(rr):
    x = randn((10, 32), np.float32, seed=2)
    out = np.full_like(x, -1.0)
    window_copy[1](x, out, 10, 32, 8, 24, 8, 16, rr)   # rows 8..15 and columns 24..39 of a [10, 32] tensor
    np.testing.assert_array_equal(out, _expected_store(x, (8, 16), 8, 24, rr))


def test_a_wide_tile_into_a_narrow_tensor_drops_the_columns_past_the_row():
    # a [107, 64] tile stored into a [8192, 60] tensor: columns 60..63 of each row are not written
    x = randn((8192, 60), np.float32, seed=3)
    out = np.full_like(x, -1.0)
    window_copy[1](x, out, 8192, 60, 100, 0, 107, 64, ())
    np.testing.assert_array_equal(out, _expected_store(x, (107, 64), 100, 0))


@asctile.jit
def blocked_add(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, z_ptr: asctile.GlobalAddress, n: int,
                tile: asctile.ConstExpr):
    """The tiling of CANN-style elementwise kernels: each block takes ceildiv(n, block_num) elements in tiles;
    the last blocks' windows lie wholly past the end, and neighbouring blocks' windows overlap."""
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    per_block = asctile.ceildiv(n, asctile.block_num())
    for i in range(asctile.ceildiv(per_block, tile)):
        off = asctile.block_idx() * per_block + i * tile
        asctile.copy_out(asctile.copy_in(x, [off], [tile]) + asctile.copy_in(y, [off], [tile]), z, [off])


@pytest.mark.parametrize("n,blocks,tile", [(1000, 16, 64), (100, 48, 8), (17, 8, 8), (4096, 20, 256)])
@pytest.mark.parametrize("platform", ["Ascend950PR_9599", "Ascend910B1"])
def test_blocks_whose_windows_lie_past_the_end_write_nothing(n, blocks, tile, platform):
    config.set_platform(config.Backend.Model, getattr(config.Platform, platform))
    x, y = randn((n,), np.float32, seed=4), randn((n,), np.float32, seed=5)
    z = np.zeros(n, np.float32)
    blocked_add[blocks](x, y, z, n, tile)
    np.testing.assert_array_equal(z, x + y)


@asctile.jit
def rank3_store(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, a: int, b: int, c: int,
                o0: int, o1: int, o2: int):
    x_gm = asctile.global_tensor(x_ptr, [a, b, c])
    out_gm = asctile.global_tensor(out_ptr, [a, b, c])
    asctile.copy_out(asctile.copy_in(x_gm, [0, 0, 0], [2, 4, 16], pad_value=0.0), out_gm, [o0, o1, o2])


@pytest.mark.parametrize("offsets", [(0, 0, 8), (1, 2, 4), (2, 0, 0), (0, 4, 0), (1, 3, 15)])
def test_rank3_stores_are_clipped_in_every_dimension(offsets):
    x = randn((2, 4, 16), np.float32, seed=6)
    out = np.full_like(x, -1.0)
    rank3_store[1](x, out, 2, 4, 16, *offsets)
    expect = np.full_like(x, -1.0)
    dst, head = clip_window(offsets, (2, 4, 16), x.shape)
    expect[dst] = x[head]
    np.testing.assert_array_equal(out, expect)


@asctile.jit
def clipped_atomic(out_ptr: asctile.GlobalAddress, n: int, tile: asctile.ConstExpr):
    out = asctile.global_tensor(out_ptr, [n])
    asctile.atomic_add(asctile.full([tile], 1.0, dtype=asctile.float32), out, [asctile.block_idx() * tile])


def test_an_august_atomic_is_clipped_like_its_copy_out():
    out = np.zeros(100, np.float32)
    clipped_atomic[8](out, 100, 16)   # blocks 6 (a tail) and 7 (wholly outside)
    np.testing.assert_array_equal(out, np.ones(100, np.float32))


@asctile.jit
def per_element(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, n: int, per_block: int):
    """A per-element loop whose last block runs past the input."""
    x = asctile.global_tensor(x_ptr, [n])
    out = asctile.global_tensor(out_ptr, [n])
    for i in range(asctile.block_idx() * per_block, (asctile.block_idx() + 1) * per_block):
        v = asctile.copy_in(x, [i])
        asctile.copy_out(v * 2.0, out, [i])


def test_scalar_accesses_past_the_end_read_zero_and_write_nothing_with_a_warning():
    x = randn((10,), np.float32, seed=7)
    out = np.zeros(10, np.float32)
    per_element[4](x, out, 10, 3)   # block 3 covers 9..11: 10 and 11 lie outside
    np.testing.assert_array_equal(out, 2 * x)
    found = per_element.last_launch["warnings"]
    assert any("past-the-end scalar load of tensor 'x_ptr' (shape [10]) at offsets [10] in block 3; [11] in block 3"
               in w for w in found), found
    assert any("past-the-end scalar store of tensor 'out_ptr'" in w and "writes nothing here" in w for w in found), found


def test_a_scalar_inside_reads_and_writes_without_a_warning():
    x = randn((12,), np.float32, seed=8)
    out = np.zeros(12, np.float32)
    per_element[4](x, out, 12, 3)
    np.testing.assert_array_equal(out, 2 * x)
    assert not any("past-the-end" in w for w in per_element.last_launch["warnings"])


def test_a_negative_offset_stays_an_error():
    x = randn((10, 32), np.float32, seed=9)
    with pytest.raises(KernelRuntimeError, match="negative"):
        window_copy[1](x, np.zeros_like(x), 10, 32, -1, 0, 8, 16, ())


@asctile.jit
def overlapping_blocks(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, SHIFT: asctile.ConstExpr):
    """Every block stores the same 64 values at offset 8 * block: neighbours overlap by 56 elements.
    SHIFT adds the block index, so the overlapping values differ."""
    x = asctile.global_tensor(x_ptr, [64])
    out = asctile.global_tensor(out_ptr, [8 * asctile.block_num() + 56])
    t = asctile.copy_in(x, [0], [64])
    if SHIFT:
        t = t + asctile.block_idx()
    asctile.copy_out(t, out, [8 * asctile.block_idx()])


def test_blocks_writing_identical_values_over_each_other_are_allowed_different_values_are_a_race():
    x = np.arange(64, dtype=np.float32) % 8    # period 8: the overlapping windows agree
    out = np.zeros(8 * 4 + 56, np.float32)
    overlapping_blocks[4](x, out, False)
    np.testing.assert_array_equal(out, np.arange(out.size, dtype=np.float32) % 8)
    with pytest.raises(KernelRuntimeError, match="two blocks write the same elements"):
        overlapping_blocks[4](x, np.zeros_like(out), True)


def test_identical_nan_bits_agree_and_signed_zeros_do_not():
    # (the second launch has the first's structure: it must not replay the first's verdict)
    x = np.full(64, np.nan, np.float32)
    out = np.zeros(8 * 2 + 56, np.float32)
    overlapping_blocks[2](x, out, False)
    assert np.isnan(out).all()
    x = np.zeros(64, np.float32)
    x[8:16] = -0.0   # out[8..15]: -0.0 from block 0 (x[8..15]), 0.0 from block 1 (x[0..7])
    with pytest.raises(KernelRuntimeError, match="two blocks write the same elements"):
        overlapping_blocks[2](x, np.zeros_like(out), False)


# -- April keeps its rules ---------------------------------------------------------------------------------------
def test_april_store_keeps_reporting_rows_beyond_the_tensor():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [10, 16]), [4, 16], offsets=[0, 0])
        asc2.store(t, asc2.tensor(out_ptr, [10, 16]), offsets=[8, 0])
    with pytest.raises(KernelRuntimeError, match="rows beyond the tensor's 10 rows"):
        k[1](np.zeros((10, 16), np.float32), np.zeros((10, 16), np.float32))


def test_april_store_keeps_reporting_columns_past_the_row():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [4, 64]), [4, 64], offsets=[0, 0])
        asc2.store(t, asc2.tensor(out_ptr, [4, 64]), offsets=[0, 48])
    with pytest.raises(KernelRuntimeError, match=re.escape("at offsets [0, 48] runs past the end of the row")):
        k[1](np.zeros((4, 64), np.float32), np.zeros((4, 64), np.float32))


def test_april_store_wholly_past_the_end_stays_an_error_on_c310():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        t = asc2.load(asc2.tensor(x_ptr, [n]), [16], offsets=[0])
        asc2.store(t, asc2.tensor(out_ptr, [n]), offsets=[n])
    with pytest.raises(KernelRuntimeError, match="lies wholly past the end of the tensor"):
        k[1](np.zeros(32, np.float32), np.zeros(32, np.float32), 32)


def test_april_scalar_load_outside_stays_an_error():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        v = asc2.load(asc2.tensor(x_ptr, [n]), offsets=[n])
        asc2.store(asc2.full([16], 1.0) * v, asc2.tensor(out_ptr, [16]), offsets=[0])
    with pytest.raises(KernelRuntimeError, match="outside the tensor"):
        k[1](np.zeros(32, np.float32), np.zeros(16, np.float32), 32)


@asctile.jit
def k_window(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress, k0: int):
    """L1 -> L0 windows at K offset k0 of a [16, 64] x [64, 16] product: past 32 they leave their source."""
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 64]), [0, 0], [16, 64], asctile.TensorLocation.L1)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [64, 16]), [0, 0], [64, 16], asctile.TensorLocation.L1)
    a0 = asctile.copy(a, [0, k0], [16, 32], asctile.TensorLocation.L0A)
    b0 = asctile.copy(b, [k0, 0], [32, 16], asctile.TensorLocation.L0B)
    asctile.copy_out(asctile.matmul(a0, b0), asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def test_an_on_chip_copy_window_past_its_source_is_clipped_and_its_tail_undefined():
    a = randn((16, 64), np.float16, seed=10)
    b = randn((64, 16), np.float16, seed=11)
    c = np.zeros((16, 16), np.float32)
    k_window[1](a, b, c, 32)     # the last window that fits: exact, no warning
    np.testing.assert_allclose(c, a[:, 32:].astype(np.float32) @ b[32:].astype(np.float32), rtol=1e-5)
    assert k_window.last_launch["warnings"] == []
    k_window[1](a, b, c, 33)     # one column / row past the source: undefined, reported at the matmul
    found = k_window.last_launch["warnings"]
    assert len(found) == 1 and "matmul reads" in found[0] and "runs past its source tile" in found[0], found


def test_april_copy_window_past_its_source_stays_an_error():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress):
        a = asc2.load(asc2.tensor(a_ptr, [16, 64]), [16, 64], offsets=[0, 0], location=asc2.TileLocation.L1)
        a0 = asc2.copy(a, [16, 32], offsets=[0, 48], location=asc2.TileLocation.L0A)
        b0 = asc2.copy(a, [32, 16], offsets=[0, 0], location=asc2.TileLocation.L0B)
        asc2.store(asc2.matmul(a0, b0), asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
    with pytest.raises(Exception, match="exceeds the source tile dimension 64"):
        k[1](np.zeros((16, 64), np.float16), np.zeros((16, 16), np.float32))

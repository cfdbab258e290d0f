"""Shape ops at their edges: reshape's two spellings and its cost, transpose's rank and axis rules in both
dialects, and broadcast_tensors over one, two and three tiles."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError

from kernel_checks import randn


@asctile.jit
def reshaped(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, HOW: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    if HOW == 0:
        y = x * 2.0
    elif HOW == 1:
        y = x.reshape([4, 16]) * 2.0
    else:
        y = asctile.reshape(x, 4, 16) * 2.0
    asctile.copy_out(y.reshape(64), asctile.global_tensor(out_ptr, [64]), [0])


def test_reshape_takes_a_list_or_separate_sizes_and_costs_nothing():
    x = randn(64, np.float32, seed=51)
    ticks = []
    for how in (0, 1, 2):
        out = np.zeros_like(x)
        reshaped[1](x, out, how)
        np.testing.assert_array_equal(out, x * 2)
        ticks.append(reshaped.last_launch["ticks"])
    assert ticks[0] == ticks[1] == ticks[2]


@asctile.jit
def august_transpose(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, SHAPE: asctile.ConstExpr,
                     AXES: asctile.ConstExpr, N: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [N // SHAPE[-1], SHAPE[-1]]), [0, 0], [N // SHAPE[-1], SHAPE[-1]])
    x = x.reshape(*SHAPE)
    asctile.copy_out(x.transpose(*AXES).reshape(N), asctile.global_tensor(out_ptr, [N]), [0])


def _august_transpose(shape, axes):
    n = int(np.prod(shape))
    august_transpose[1](np.zeros((n // shape[-1], shape[-1]), np.float32), np.zeros(n, np.float32), list(shape),
                        tuple(axes), n)


@pytest.mark.parametrize("shape,axes,text", [
    ((8, 16), (0,), "Transpose axis count 1 should match count of tensor dimensions 2"),
    ((2, 8, 16), (0, 2), "Transpose axis count 2 should match count of tensor dimensions 3"),
    ((2, 8, 16), (0, 1, 1), "Wrong dimensions rearrangement (0, 1, 1) for tensor of 3 dimensions"),
])
def test_august_transpose_needs_a_permutation_of_every_axis(shape, axes, text):
    with pytest.raises(CodegenError, match=re.escape(text)) as e:
        _august_transpose(shape, axes)
    if "rearrangement" in text:
        assert "the axes must be a permutation of 0..2" in str(e.value)


@asc2.jit
def april_transpose(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, R: asc.ConstExpr[int], C: asc.ConstExpr[int]):
    x = asc2.load(asc2.tensor(x_ptr, [R, C]), [R, C], offsets=[0, 0])
    asc2.store(x.transpose(), asc2.tensor(out_ptr, [C, R]), offsets=[0, 0])


def test_the_april_transpose_swaps_a_2d_tile_and_rejects_other_ranks():
    x = randn((8, 16), np.float32, seed=52)
    out = np.zeros((16, 8), np.float32)
    april_transpose[1](x, out, 8, 16)
    np.testing.assert_array_equal(out, x.T)

    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [2, 8, 16]), [2, 8, 16], offsets=[0, 0, 0])
        asc2.store(x.transpose(), asc2.tensor(out_ptr, [2, 16, 8]), offsets=[0, 0, 0])
    with pytest.raises(CodegenError, match=re.escape("transpose takes a 2-D tile, got 3 dimension(s)")):
        k[1](np.zeros((2, 8, 16), np.float32), np.zeros((2, 16, 8), np.float32))


@asctile.jit
def broadcast_some(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                   out_ptr: asctile.GlobalAddress, N: asctile.ConstExpr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [8, 16]), [0, 0], [8, 16])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [16]), [0], [16]).reshape(1, 16)
    c = asctile.copy_in(asctile.global_tensor(c_ptr, [8]), [0], [8]).reshape(8, 1)
    o = asctile.global_tensor(out_ptr, [24, 16])
    if N == 1:
        (x,) = asctile.broadcast_tensors(a)
        asctile.copy_out(x, o, [0, 0])
    elif N == 2:
        x, y = asctile.broadcast_tensors(a, b)
        asctile.copy_out(x + y, o, [0, 0])
        asctile.copy_out(y, o, [8, 0])
    else:
        x, y, z = asctile.broadcast_tensors(a, b, c)
        asctile.copy_out(x, o, [0, 0])
        asctile.copy_out(y, o, [8, 0])
        asctile.copy_out(z, o, [16, 0])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_broadcast_tensors_brings_one_two_or_three_tiles_to_their_common_shape(n):
    a, b, c = randn((8, 16), np.float32, seed=53), randn(16, np.float32, seed=54), randn(8, np.float32, seed=55)
    out = np.zeros((24, 16), np.float32)
    broadcast_some[1](a, b, c, out, n)
    out = out.reshape(3, 8, 16)
    if n == 1:
        np.testing.assert_array_equal(out[0], a)
    elif n == 2:
        np.testing.assert_array_equal(out[0], a + b)
        np.testing.assert_array_equal(out[1], np.broadcast_to(b, (8, 16)))
    else:
        np.testing.assert_array_equal(out[0], a)
        np.testing.assert_array_equal(out[1], np.broadcast_to(b, (8, 16)))
        np.testing.assert_array_equal(out[2], np.broadcast_to(c[:, None], (8, 16)))


@asc2.jit
def concat_of(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
              A: asc.ConstExpr, B: asc.ConstExpr, N: asc.ConstExpr[int]):
    a = asc2.load(asc2.tensor(a_ptr, A), A, offsets=[0, 0])
    b = asc2.load(asc2.tensor(b_ptr, B), B, offsets=[0, 0])
    if N == 1:
        out = asc2.concat(a)
        asc2.store(out, asc2.tensor(out_ptr, [out.shape[0], out.shape[1]]), offsets=[0, 0])
    else:
        out = asc2.concat(a, b)
        asc2.store(out, asc2.tensor(out_ptr, [out.shape[0], out.shape[1]]), offsets=[0, 0])


def test_concat_of_one_tile_is_that_tile_and_of_two_stacks_their_rows():
    a, b = randn((8, 16), np.float32, seed=56), randn((4, 16), np.float32, seed=57)
    out = np.zeros((8, 16), np.float32)
    concat_of[1](a, b, out, [8, 16], [4, 16], 1)
    np.testing.assert_array_equal(out, a)
    out = np.zeros((12, 16), np.float32)
    concat_of[1](a, b, out, [8, 16], [4, 16], 2)
    np.testing.assert_array_equal(out, np.concatenate([a, b]))


@pytest.mark.parametrize("b_shape", [[8, 8], [8, 32]])
def test_concat_needs_the_same_trailing_dimensions_either_way(b_shape):
    with pytest.raises(CodegenError, match=re.escape("All tiles must have the same shape except their first dimension")):
        concat_of[1](np.zeros((8, 16), np.float32), np.zeros(b_shape, np.float32), np.zeros((16, 16), np.float32),
                     [8, 16], b_shape, 2)


def test_a_shape_that_is_not_a_sequence_is_rejected():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        asc2.store(asc2.full(64, 1.0, dtype=asc.float32), asc2.tensor(out_ptr, [64]), offsets=[0])
    with pytest.raises(CodegenError, match="shape must be integers"):
        k[1](np.zeros(64, np.float32))


@pytest.mark.parametrize("shapes,common", [
    (((8, 1), (64,)), (8, 64)), (((3,), (2, 3)), (2, 3)), (((2, 1, 4), (3, 1)), (2, 3, 4)),
    (((1,), (5,)), (5,)), (((5,), (1,)), (5,)), (((1, 7), (6, 1), (1, 1)), (6, 7)), (((4, 4),), (4, 4)),
])
def test_broadcast_shapes_follows_numpy_on_the_host(shapes, common):
    assert asctile.broadcast_shapes(*shapes) == common == np.broadcast_shapes(*shapes)


@pytest.mark.parametrize("lhs,rhs", [((8, 2), (8, 3)), ((2, 3), (3, 2)), ((3,), (2, 4))])
def test_shapes_whose_dimensions_are_neither_equal_nor_one_do_not_broadcast(lhs, rhs):
    with pytest.raises(RuntimeError, match=re.escape(f"Shapes are not broadcastable: {lhs} vs. {rhs}")):
        asctile.broadcast_shapes(lhs, rhs)


def test_a_mask_takes_two_bit_words_by_keyword_and_only_inside_a_kernel():
    with pytest.raises(RuntimeError, match=re.escape("Expected two integers in 'bits', got 1")):
        asc2.mask(bits=(1,))
    with pytest.raises(TypeError, match="positional"):
        asc2.mask(4)
    with pytest.raises(RuntimeError, match=re.escape("asc2.mask can only be used in a `with` statement inside an "
                                                     "@asc2.jit kernel")):
        with asc2.mask(count=4):
            pass

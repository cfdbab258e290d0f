"""Reductions, creation, shape ops, casts, softmax, rms_norm and scalar arithmetic against numpy / torch
references (spec §2.7-2.10, §2.13, §3.3)."""
from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest
import torch

import asc
import asc2
from asc.frontend.errors import CodegenError

from kernel_checks import assert_reported, randn

BF16 = ml_dtypes.bfloat16


def _name(d):
    return np.dtype(d).name if not isinstance(d, str) else d


@asc2.jit
def tile_fn_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, S: asc.ConstExpr, OS: asc.ConstExpr,
                   fn: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, S), list(S), offsets=[0] * len(S))
    asc2.store(fn(x), asc2.tensor(out_ptr, OS), offsets=[0] * len(OS))


def apply(fn, x, out_shape, out_dtype=None):
    out = np.zeros(out_shape, out_dtype or x.dtype)
    tile_fn_kernel[1](x, out, x.shape, tuple(out_shape), fn)
    return out


# -- reductions ----------------------------------------------------------------------------------------------
RED = {"sum": (asc2.reduce_sum, np.sum), "max": (asc2.reduce_max, np.max), "min": (asc2.reduce_min, np.min),
       "prod": (asc2.reduce_prod, np.prod)}


@pytest.mark.parametrize("dtype", [np.float16, BF16, np.float32, np.int16, np.int32], ids=_name)
@pytest.mark.parametrize("kind", list(RED))
@pytest.mark.parametrize("dims,keep", [((1,), False), ((0,), False), ((1,), True), ((0,), True), ((-1,), False),
                                       ((0, 1), True)])
def test_reduction_over_dims(kind, dtype, dims, keep):
    fn, ref = RED[kind]
    x = randn((4, 32), dtype, seed=21)
    if kind == "prod":
        x = (np.random.default_rng(21).uniform(0.8, 1.2, (4, 32)).astype(np.float32)).astype(dtype) \
            if np.dtype(dtype).kind != "i" else np.random.default_rng(21).integers(-2, 3, (4, 32)).astype(dtype)
    axes = tuple(d % 2 for d in dims)
    expected = ref(x.astype(np.float64) if np.dtype(dtype).kind != "i" else x.astype(np.int64), axis=axes,
                   keepdims=keep)
    expected = np.asarray(expected).astype(dtype)

    def reduce_and_flatten(t):
        r = fn(t, *dims, keep_dims=keep)
        assert r.shape == (expected.shape or (1,)), r.shape   # dims removed, or kept as 1
        return r.ravel()
    out = apply(reduce_and_flatten, x, (expected.size,))
    tol = {"float16": 2e-3, "bfloat16": 1e-2, "float32": 1e-5}.get(_name(dtype), 0)
    np.testing.assert_allclose(out.astype(np.float64), expected.ravel().astype(np.float64), rtol=tol, atol=tol)


@pytest.mark.parametrize("method,ref", [("sum", np.sum), ("max", np.max), ("min", np.min)])
def test_reduction_methods_and_full_reduction_to_a_scalar(method, ref):
    x = randn((4, 32), np.float32, seed=22)
    out = apply(lambda t: asc2.full([8], getattr(t, method)(), dtype=asc.float32), x, (8,))
    np.testing.assert_allclose(out, np.full(8, ref(x)), rtol=1e-5)
    out = apply(lambda t: getattr(t, method)(1), x, (4,))
    np.testing.assert_allclose(out, ref(x, axis=1), rtol=1e-5)


def test_reduce_prod_method_and_no_scalar_reduction():
    x = np.full((2, 32), 1.5, np.float32)
    np.testing.assert_allclose(apply(lambda t: t.prod(0), x, (32,)), np.full(32, 2.25))
    with pytest.raises(CodegenError, match="Reduction to scalar not supported"):
        apply(lambda t: asc2.full([8], asc2.reduce_prod(t), dtype=asc.float32), x, (8,))


def test_reduction_dims_must_be_ints_and_in_range():
    x = np.zeros((2, 32), np.float32)
    with pytest.raises(CodegenError, match="All reduction dimensions must be integers"):
        apply(lambda t: asc2.reduce_sum(t, 1.0), x, (2,))
    for d in (2, -3):                       # one past the last dimension, one before the first counted from the end
        with pytest.raises(CodegenError, match=re.escape(f"reduction dimension {d} is out of range for a rank-2 tile")) as e:
            apply(lambda t: asc2.reduce_sum(t, d), x, (2,))
        assert "IndexError" in str(e.value)
    y = np.arange(64, dtype=np.float32).reshape(2, 32)
    np.testing.assert_array_equal(apply(lambda t: asc2.reduce_sum(t, -2), y, (32,)), y.sum(axis=0))
    np.testing.assert_array_equal(apply(lambda t: asc2.reduce_sum(t, 1), y, (2,)), y.sum(axis=1))


def test_reducing_every_dim_without_keep_dims_gives_a_one_element_tile():
    y = np.arange(64, dtype=np.float32).reshape(2, 32)

    def total(t):
        r = asc2.reduce_sum(t, 0, -1)
        assert r.shape == (1,), r.shape
        return r
    np.testing.assert_array_equal(apply(total, y, (1,)), [y.sum()])


def test_float16_sum_accumulates_in_float32():
    # A float16 running sum of ones stops at 2048 (2048 + 1 rounds back to 2048). Along a row numpy
    # already widens, so the column sums and the full reduction of a tall tile are the telling cases.
    x = np.ones((1, 4096), np.float16)
    out = apply(lambda t: asc2.full([16], asc2.reduce_sum(t), dtype=asc.float16), x, (16,))
    assert np.all(out == 4096)
    out = apply(lambda t: asc2.reduce_sum(t, 1), x, (1,))
    assert out[0] == 4096
    col = np.ones((4096, 16), np.float16)
    np.testing.assert_array_equal(apply(lambda t: asc2.reduce_sum(t, 0), col, (16,)), np.full(16, 4096))
    np.testing.assert_array_equal(apply(lambda t: asc2.reduce_sum(t, 0, keep_dims=True), col, (1, 16)),
                                  np.full((1, 16), 4096))
    tall = np.full((3072, 16), 0.5, np.float16)   # 24576 in all: exact in float16
    out = apply(lambda t: asc2.full([16], asc2.reduce_sum(t), dtype=asc.float16), tall, (16,))
    assert np.all(out == 24576)
    bf = np.ones((1024, 16), BF16)                  # bfloat16 has 8 bits: a bfloat16 sum stops at 256
    np.testing.assert_array_equal(apply(lambda t: asc2.reduce_sum(t, 0), bf, (16,)).astype(np.float32),
                                  np.full(16, 1024, np.float32))


def test_integer_sum_wraps():
    x = np.full((1, 64), 3, np.int8)  # 192 wraps to -64 in int8
    out = apply(lambda t: asc2.full([32], asc2.reduce_sum(t), dtype=asc.int8), x, (32,))
    assert np.all(out == -64)


def test_bool_tile_reduction_is_rejected():
    x = np.zeros((1, 32), np.float32)
    with pytest.raises(CodegenError, match="Operation not support this dtype: int1"):
        apply(lambda t: asc2.reduce_sum(t > 0, 1).to(asc.float32), x, (1,))


# -- creation ------------------------------------------------------------------------------------------------
@asc2.jit
def create_kernel(out_ptr: asc.GlobalAddress, S: asc.ConstExpr, fn: asc.ConstExpr, v):
    o = asc2.tensor(out_ptr, S)
    asc2.store(fn(v), o, offsets=[0] * len(S))


@pytest.mark.parametrize("call,dtype,value", [
    (lambda v: asc2.full([4, 32], 7), np.int32, 7),               # int literal -> int32
    (lambda v: asc2.full([4, 32], 2.5), np.float32, 2.5),         # float literal -> float32
    (lambda v: asc2.full([4, 32], True, dtype=asc.int8), np.int8, 1),
    (lambda v: asc2.full([4, 32], -1.25, dtype=asc.float16), np.float16, -1.25),
    (lambda v: asc2.full([4, 32], 3.0, dtype=asc.bfloat16), BF16, 3.0),
    (lambda v: asc2.full([4, 32], v), np.float32, 0.5),            # runtime scalar: its own dtype
    (lambda v: asc2.full([4, 32], v, dtype=asc.float16), np.float16, 0.5),
    (lambda v: asc2.zeros([4, 32]), np.int32, 0),                   # zeros defaults to int32
    (lambda v: asc2.zeros([4, 32], dtype=asc.float32) + 1.0, np.float32, 1.0),
    (lambda v: asc2.full_like(asc2.zeros([4, 32], dtype=asc.int16), 9), np.int16, 9),
    (lambda v: asc2.zeros_like(asc2.full([4, 32], 5.0, dtype=asc.float16)), np.float16, 0),
], ids=lambda c: "")
def test_creation_ops(call, dtype, value):
    out = np.full((4, 32), 99, dtype)
    create_kernel[1](out, (4, 32), call, 0.5)
    np.testing.assert_array_equal(out, np.full((4, 32), value, dtype))


def test_wide_full_fills_every_lane():
    out = np.zeros((2, 1024), np.float32)
    create_kernel[1](out, (2, 1024), lambda v: asc2.full([2, 1024], v), 3.5)
    assert np.all(out == 3.5)


@pytest.mark.parametrize("dtype,poison", [(np.int16, -32768), (np.int32, -2 ** 31), (np.float16, np.nan),
                                          (BF16, np.nan), (np.float32, np.nan)], ids=["i16", "i32", "f16", "bf16", "f32"])
def test_an_empty_tile_is_poison_where_it_was_not_written(dtype, poison):
    # integers: the type's minimum (no NaN to use); floats: NaN
    def fill_half(v):
        t = asc2.empty([2, 32], dtype=getattr(asc, _name(dtype)))
        return asc2.concat(asc2.full([2, 32], 3, dtype=t.dtype), t)
    out = np.zeros((4, 32), dtype)
    create_kernel[1](out, (4, 32), fill_half, 0.5)
    np.testing.assert_array_equal(out[:2].astype(np.float64), 3)
    np.testing.assert_array_equal(out[2:].astype(np.float64), np.full((2, 32), poison, np.float64))


@pytest.mark.parametrize("call,msg", [
    (lambda v: asc2.full([v, 32], 1.0), "shape must be integers"),
    (lambda v: asc2.full([4, 32], 1, dtype=asc.uint8), "Unsupported dtype: uint8"),
    (lambda v: asc2.full_like(v, 1.0), "'input' argument must be Tile"),
    (lambda v: asc2.zeros([0, 32]), "All values in 'shape' must be positive"),
    (lambda v: asc2.zeros([]), "'shape' must have at least one value"),
])
def test_creation_errors(call, msg):
    out = np.zeros((4, 32), np.float32)
    with pytest.raises(CodegenError, match=msg):
        create_kernel[1](out, (4, 32), call, 1)


def test_concat():
    def fn(v):
        a = asc2.full([2, 32], 1.0)
        b = asc2.full([1, 32], 2.0)
        c = asc2.full([3, 32], v)
        return asc2.concat(a, b, c)
    out = np.zeros((6, 32), np.float32)
    create_kernel[1](out, (6, 32), fn, 3.0)
    np.testing.assert_array_equal(out[:, 0], [1, 1, 2, 3, 3, 3])
    assert np.all(out == out[:, :1])


@pytest.mark.parametrize("call,msg", [
    (lambda v: asc2.concat(asc2.full([2, 32], 1.0), 1.0), "All input arguments must be tiles"),
    (lambda v: asc2.concat(asc2.full([2, 32], 1.0), asc2.full([2, 64], 1.0)),
     "All tiles must have the same shape except their first dimension"),
    (lambda v: asc2.concat(asc2.full([2, 32], 1.0), asc2.full([2, 32], 1)), "All tiles must have the same dtype"),
    (lambda v: asc2.concat(asc2.full([2, 32], 1.0) > 0, asc2.full([2, 32], 1.0) > 0),
     "Tile dtype size must fit an integer number of bytes"),
])
def test_concat_errors(call, msg):
    with pytest.raises(CodegenError, match=msg):
        create_kernel[1](np.zeros((4, 32), np.float32), (4, 32), call, 1.0)


# -- shape ops ------------------------------------------------------------------------------------------------
def test_broadcast_to():
    x = randn((1, 32), np.float32, seed=23)
    np.testing.assert_array_equal(apply(lambda t: t.broadcast_to(4, 32), x, (4, 32)), np.broadcast_to(x, (4, 32)))
    np.testing.assert_array_equal(apply(lambda t: asc2.broadcast_to(t.reshape(32), 3, 32), x, (3, 32)),
                                  np.broadcast_to(x, (3, 32)))
    one = np.full((1,), 777, np.int16)

    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        o = asc2.tensor(out_ptr, [4, 16])
        asc2.store(asc2.full([1], 777, dtype=asc.int16).broadcast_to(*o.shape), o, offsets=[0, 0])
    out = np.zeros((4, 16), np.int16)
    k[1](out)
    assert np.all(out == one[0])


@pytest.mark.parametrize("blocks", [2, 3, 4])
def test_each_block_broadcasts_its_own_row(blocks):
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        b = asc2.block_idx()
        n = asc2.block_num()
        row = asc2.load(asc2.tensor(x_ptr, [n * 32]), [32], offsets=[b * 32])
        asc2.store(row.broadcast_to(4, 32), asc2.tensor(out_ptr, [n * 4, 32]), offsets=[b * 4, 0])
    x = randn(blocks * 32, np.float32, seed=24)
    out = np.zeros((blocks * 4, 32), np.float32)
    k[blocks](x, out)
    np.testing.assert_array_equal(out, np.repeat(x.reshape(blocks, 32), 4, axis=0))


@pytest.mark.parametrize("fn,msg", [
    (lambda t: t.broadcast_to(4, 64), "Cannot broadcast tile with shape [2, 32] to [4, 64]"),
    (lambda t: t.broadcast_to(32), "Cannot broadcast tile with shape [2, 32] to [32]"),
    (lambda t: t.broadcast_to([4, 32]), "All values in 'shape' must be integers"),
    (lambda t: t.reshape(3, 32), "Result tile must have the same number of elements as input tile"),
    (lambda t: t.squeeze(1), "Unable to squeeze the axis 1 since its length must be 1, got 32"),
])
def test_shape_op_errors(fn, msg):
    x = np.zeros((2, 32), np.float32)
    with pytest.raises(CodegenError, match=re.escape(msg)) as e:
        apply(fn, x, (2, 32))
    assert msg in str(e.value)


def test_reshape_ravel_expand_squeeze():
    x = randn((2, 32), np.float32, seed=24)
    np.testing.assert_array_equal(apply(lambda t: t.reshape(4, 16), x, (4, 16)), x.reshape(4, 16))
    np.testing.assert_array_equal(apply(lambda t: asc2.reshape(t, 64), x, (64,)), x.reshape(64))
    np.testing.assert_array_equal(apply(lambda t: t.ravel(), x, (64,)), x.ravel())
    np.testing.assert_array_equal(apply(lambda t: asc2.ravel(t).reshape(8, 8), x, (8, 8)), x.reshape(8, 8))
    np.testing.assert_array_equal(apply(lambda t: t.ravel().expand_dims(0), x, (1, 64)), x.reshape(1, 64))
    np.testing.assert_array_equal(apply(lambda t: asc2.expand_dims(t.ravel(), 1).reshape(2, 32), x, (2, 32)), x)
    np.testing.assert_array_equal(apply(lambda t: t.reshape(1, 64).squeeze(), x, (64,)), x.ravel())
    np.testing.assert_array_equal(apply(lambda t: asc2.squeeze(t.reshape(1, 64), 0), x, (64,)), x.ravel())


def test_tile_shape_size_and_dtype_attributes():
    x = np.zeros((2, 32), np.float16)

    def fn(t):
        assert t.shape == (2, 32) and t.size == 64 and t.dtype == asc.float16
        return t
    apply(fn, x, (2, 32))


# -- casts --------------------------------------------------------------------------------------------------
OK_CASTS = [
    ("int8", "int16"), ("int8", "int32"), ("int16", "int8"), ("int16", "int32"), ("int32", "int8"),
    ("int32", "int16"), ("int16", "float16"), ("int16", "bfloat16"), ("int32", "float32"),
    ("float16", "int16"), ("float16", "bfloat16"), ("float16", "float32"), ("bfloat16", "int16"),
    ("bfloat16", "float16"), ("bfloat16", "float32"), ("float32", "int32"), ("float32", "float16"),
    ("float32", "bfloat16"),
]
NP = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "float16": np.float16, "bfloat16": BF16,
      "float32": np.float32}


@pytest.mark.parametrize("src,dst", OK_CASTS, ids=lambda p: p)
def test_supported_casts(src, dst):
    s, d = NP[src], NP[dst]
    if np.dtype(s).kind == "i":
        x = np.random.default_rng(25).integers(-100, 100, (2, 64)).astype(s)
    else:
        x = (np.random.default_rng(25).uniform(-100, 100, (2, 64)).astype(np.float32)).astype(s)
        # Ties (x.5) and negatives, where truncation, round-half-up and round-to-nearest-even differ.
        x[0, :16] = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.25, -0.75,
                              2.75, -2.25, 99.5, -99.5, 3.5, -3.5, 0.0, -0.0], np.float32).astype(s)
    out = apply(lambda t: t.to(getattr(asc, dst)), x, (2, 64), d)
    if np.dtype(d).kind == "i":
        expected = np.rint(x.astype(np.float64)).astype(d)    # round to nearest, ties to even
    else:
        expected = x.astype(np.float32).astype(d)
    np.testing.assert_array_equal(out.astype(np.float64), expected.astype(np.float64))


def test_narrowing_int_casts_wrap_and_float_casts_round():
    x = np.array([[300, -129, 127, 70000] * 16], np.int32)
    np.testing.assert_array_equal(apply(lambda t: t.to(asc.int8), x, (1, 64), np.int8), x.astype(np.int8))
    np.testing.assert_array_equal(apply(lambda t: t.to(asc.int16), x, (1, 64), np.int16), x.astype(np.int16))
    f = np.random.default_rng(26).standard_normal((1, 64)).astype(np.float32)
    np.testing.assert_array_equal(apply(lambda t: t.to(asc.float16), f, (1, 64), np.float16), f.astype(np.float16))
    np.testing.assert_array_equal(apply(lambda t: t.to(asc.bfloat16), f, (1, 64), BF16), f.astype(BF16))


def test_bool_tile_casts_to_ints():
    x = np.array([[-1.0, 0.0, 2.0, 0.5] * 8], np.float32)
    for name in ("int8", "int16", "int32"):
        out = apply(lambda t, n=name: (t > 0).to(getattr(asc, n)), x, (1, 32), NP[name])
        np.testing.assert_array_equal(out, (x > 0).astype(NP[name]))


NOT_SUPPORTED = [("int32", "float16"), ("int32", "bfloat16"), ("float16", "int32"), ("bfloat16", "int32"),
                 ("int8", "float32"), ("int8", "float16"), ("float32", "int8"), ("float32", "int16"),
                 ("int16", "float32"), ("float16", "int8")]


@pytest.mark.parametrize("src,dst", NOT_SUPPORTED, ids=lambda p: p)
def test_int_float_casts_of_different_width_are_not_supported(src, dst):
    x = np.zeros((1, 64), NP[src])

    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, D: asc.ConstExpr):
        t = asc2.load(asc2.tensor(x_ptr, [1, 64]), [1, 64], offsets=[0, 0])
        y = t.to(D)
    with pytest.raises(CodegenError, match=re.escape(f"Tile.to from {src} to {dst} (an int<->float cast between different bit widths) ")) as e:
        k[1](x, getattr(asc, dst))
    assert_reported(e.value, f"Tile.to from {src} to {dst} (an int<->float cast between different bit widths) "
                    "is not supported by pyasc v2", "y = t.to(D)")


def test_bool_to_float_cast_is_not_supported():
    x = np.zeros((1, 32), np.float32)
    with pytest.raises(CodegenError, match="not supported by pyasc v2"):
        apply(lambda t: (t > 0).to(asc.float32), x, (1, 32))


@pytest.mark.parametrize("dst", ["uint8", "uint16", "uint32"])
def test_unsigned_casts_are_rejected(dst):
    x = np.zeros((1, 32), np.float32)
    with pytest.raises(CodegenError, match=f"Cast from float32 to {dst} is not supported"):
        apply(lambda t: t.to(getattr(asc, dst)).to(asc.float32), x, (1, 32))


def test_cast_to_same_dtype_is_identity_and_to_needs_a_dtype():
    x = randn((1, 32), np.float32, seed=27)
    np.testing.assert_array_equal(apply(lambda t: t.to(asc.float32), x, (1, 32)), x)
    with pytest.raises(CodegenError, match="Tile.to expects an asc dtype"):
        apply(lambda t: t.to(np.float16), x, (1, 32))


def test_float_to_int_cast_saturates():
    x = np.array([[1e10, -1e10, 3.0, -3.0] * 8], np.float32)
    out = apply(lambda t: t.to(asc.int32), x, (1, 32), np.int32)
    np.testing.assert_array_equal(out[0, :4], [2**31 - 1, -2**31, 3, -3])


# -- softmax / rms_norm ------------------------------------------------------------------------------------------
@asc2.jit
def softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int,
                   num_cols: asc.ConstExpr[int], block_size: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_cols])
    start_row = asc2.block_idx() * block_size
    rows = asc2.load(x_gm, [block_size, num_cols], offsets=[start_row, 0])
    out = asc2.softmax(rows)
    asc2.store(out, out_gm, offsets=[start_row, 0])


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-5), (torch.float16, 2e-3)], ids=str)
def test_softmax_rows(dtype, tol):
    x = torch.randn(64, 128, dtype=dtype) * 3
    out = torch.zeros_like(x)
    softmax_kernel[8](x, out, 64, 128, 8)
    torch.testing.assert_close(out, torch.softmax(x.float(), dim=-1).to(dtype), atol=tol, rtol=tol)


def test_softmax_of_a_1d_tile_and_as_a_method():
    x = randn(256, np.float32, seed=28)
    out = apply(lambda t: t.softmax(), x, (256,))
    e = np.exp(x.astype(np.float64) - x.max())
    np.testing.assert_allclose(out, e / e.sum(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("fn,dtype,msg", [
    (asc2.softmax, np.int32, "Only float and half types are supported."),
    (asc2.softmax, BF16, "Only float and half types are supported."),
    (lambda t: asc2.softmax(t.reshape(2, 2, 16)), np.float32, "Tensor dimensionality greater than two is not supported"),
    (lambda t: asc2.rms_norm(t.reshape(2, 2, 16), t.reshape(2, 2, 16), 1e-5), np.float32,
     "Tensor dimensionality greater than two is not supported."),
    (lambda t: asc2.rms_norm(t, t, 1e-5), np.int16, "Only float and half types are supported."),
    (lambda t: asc2.rms_norm(t, t, 0), np.float32, "'epsilon' argument must be float"),
    (lambda t: asc2.rms_norm(t, t.to(asc.float16), 1e-5), np.float32, "gamma must have the input's dtype"),
])
def test_softmax_and_rms_norm_errors(fn, dtype, msg):
    x = np.zeros((2, 32), dtype)
    with pytest.raises(CodegenError, match=re.escape(msg)) as e:
        apply(fn, x, (2, 32))
    assert msg in str(e.value)


@asc2.jit
def rms_norm_kernel(x_ptr: asc.GlobalAddress, g_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                    C: asc.ConstExpr[int], eps: asc.ConstExpr[float]):
    x_gm = asc2.tensor(x_ptr, [rows, C])
    g_gm = asc2.tensor(g_ptr, [1, C])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    g = asc2.load(g_gm, [1, C], offsets=[0, 0])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), unroll_factor=2, parallel=True):
        asc2.store(asc2.rms_norm(asc2.load(x_gm, [1, C], offsets=[r, 0]), g, eps), o_gm, offsets=[r, 0])


def torch_rms_norm(x, gamma, eps):
    x32 = x.to(torch.float32)
    return (x32 * torch.rsqrt(torch.mean(x32 * x32, dim=-1, keepdim=True) + eps) * gamma.float()).to(x.dtype)


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-4), (torch.float16, 2e-2)], ids=str)
def test_rms_norm_builtin(dtype, tol):
    x = torch.randn(16, 256, dtype=dtype)
    g = torch.rand(256, dtype=dtype) + 0.5
    out = torch.zeros_like(x)
    rms_norm_kernel[4](x, g, out, 16, 256, 1e-5)
    torch.testing.assert_close(out, torch_rms_norm(x, g, 1e-5), atol=tol, rtol=tol)


@asc2.jit
def row_tile_norms_kernel(x_ptr: asc2.GlobalAddress, g_ptr: asc2.GlobalAddress, b_ptr: asc2.GlobalAddress,
                          rms_ptr: asc2.GlobalAddress, ln_ptr: asc2.GlobalAddress, tiles: int,
                          R: asc2.ConstExpr[int], C: asc2.ConstExpr[int]):
    # August spelling; real_shape makes the weights one value per block (not one shared load)
    g = asc2.copy_in(asc2.global_tensor(g_ptr, [C]), [0], [C], real_shape=[C])
    beta = asc2.copy_in(asc2.global_tensor(b_ptr, [C]), [0], [C], real_shape=[C])
    x_gm = asc2.global_tensor(x_ptr, [tiles * R, C])
    for i in range(asc2.block_idx(), tiles, asc2.block_num()):
        x = asc2.copy_in(x_gm, [i * R, 0], [R, C])
        asc2.copy_out(asc2.rms_norm(x, g, 1e-5), asc2.global_tensor(rms_ptr, [tiles * R, C]), [i * R, 0])
        y, _, _ = asc2.layer_norm(x, g, beta, 1e-5)
        asc2.copy_out(y, asc2.global_tensor(ln_ptr, [tiles * R, C]), [i * R, 0])


def test_norms_of_a_tile_of_rows_take_a_1d_weight_on_every_block():
    # the blocks' trips run batched: each [R, C] tile is normalised per row, gamma / beta [C] apply to every row
    x, g, beta = (torch.randn(8 * 3, 64), torch.rand(64) + 0.5, torch.randn(64))
    rms, ln = torch.zeros_like(x), torch.zeros_like(x)
    row_tile_norms_kernel[4](x, g, beta, rms, ln, 8, 3, 64)
    torch.testing.assert_close(rms, torch_rms_norm(x, g, 1e-5), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(ln, torch.nn.functional.layer_norm(x, (64,), g, beta, 1e-5), atol=1e-5, rtol=1e-5)


# -- scalar (PlainValue) arithmetic ----------------------------------------------------------------------------
@asc2.jit
def scalar_kernel(out_ptr: asc.GlobalAddress, a, b, fn: asc.ConstExpr):
    o = asc2.tensor(out_ptr, [8])
    asc2.store(asc2.full([8], fn(a, b), dtype=o.dtype), o, offsets=[0])


@pytest.mark.parametrize("fn,a,b,expected,dtype", [
    (lambda a, b: a + b, 7, 5, 12, np.int32),
    (lambda a, b: a - b, 7, 5, 2, np.int32),
    (lambda a, b: a * b, 7, -5, -35, np.int32),
    (lambda a, b: a / b, -7, 2, -3, np.int32),        # integer division truncates toward zero
    (lambda a, b: a // b, -7, 2, -3, np.int32),
    (lambda a, b: a % b, -7, 2, -1, np.int32),         # remainder takes the sign of the dividend
    (lambda a, b: a << b, 3, 4, 48, np.int32),
    (lambda a, b: a >> b, -64, 3, -8, np.int32),
    (lambda a, b: a * b, 65536, 65536, 0, np.int32),  # int32 wraps
    (lambda a, b: a / b, 7.0, 2.0, 3.5, np.float32),
    (lambda a, b: a - b * 2, 1.5, 0.25, 1.0, np.float32),
    (lambda a, b: asc.ceildiv(a, b), 10, 3, 4, np.int32),
    (lambda a, b: a.ceildiv(b), 9, 3, 3, np.int32),
    (lambda a, b: asc2.exp(a) * b, 0.0, 2.0, 2.0, np.float32),
    (lambda a, b: asc2.sqrt(a) + b, 16.0, 1.0, 5.0, np.float32),
    (lambda a, b: asc2.sqrt(9), 0, 0, 3.0, np.float32),  # Python numbers are materialised as float32
    (lambda a, b: asc2.erf(a) + b, 0.0, 1.0, 1.0, np.float32),
    (lambda a, b: -a + b, 3, 10, 7, np.int32),
    (lambda a, b: asc.number(2.5, asc.float32) * a, 2.0, 0.0, 5.0, np.float32),
    (lambda a, b: a & b, 12, 10, 8, np.int32),
    (lambda a, b: a | b, 12, 10, 14, np.int32),
    (lambda a, b: a ^ b, 12, 10, 6, np.int32),
    (lambda a, b: (a + b) - a, 1.0, 1e-8, 0.0, np.float32),      # float32 arithmetic, not float64
], ids=lambda v: "")
def test_scalar_arithmetic(fn, a, b, expected, dtype):
    out = np.zeros(8, dtype)
    scalar_kernel[1](out, a, b, fn)
    np.testing.assert_array_equal(out, np.full(8, expected, dtype))


@pytest.mark.parametrize("src,dst,ok", [
    ("int32", "float32", True), ("float32", "int32", True), ("int16", "float16", True), ("float16", "bfloat16", True),
    ("int8", "int32", True), ("int32", "int8", True), ("float32", "float16", True),
    ("int32", "float16", False), ("int16", "float32", False), ("int8", "float32", False), ("float16", "int32", False),
    ("float32", "int8", False), ("bfloat16", "int32", False)])
def test_scalar_cast_rules(src, dst, ok):
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, v, D: asc.ConstExpr):
        asc2.store(asc2.full([8], v, dtype=D), asc2.tensor(out_ptr, [8]), offsets=[0])
    value = np.dtype(NP[src]).type(5) if src != "bfloat16" else BF16(5)
    out = np.zeros(8, NP[dst])
    if ok:
        k[1](out, value, getattr(asc, dst))
        assert np.all(out == 5)
    else:
        with pytest.raises(CodegenError, match=re.escape(f"Arithmetic cast from {src} to {dst} is not supported")) as e:
            k[1](out, value, getattr(asc, dst))
        assert f"Arithmetic cast from {src} to {dst} is not supported" in str(e.value)


@asc2.jit
def scalar_cmp_kernel(out_ptr: asc.GlobalAddress, a, b):
    o = asc2.tensor(out_ptr, [8])
    v = asc2.full([8], 0, dtype=asc.int32)
    v = v + (1 if a < b else 0) + (2 if a <= b else 0) + (4 if a > b else 0) + (8 if a >= b else 0)
    v = v + (16 if a == b else 0) + (32 if a != b else 0) + (64 if (a < b).logical_or(a > b) else 0)
    v = v + (128 if (a <= b).logical_and(a >= b) else 0)
    asc2.store(v, o, offsets=[0])


@pytest.mark.parametrize("a,b,bits", [(3, 5, 1 + 2 + 32 + 64), (5, 3, 4 + 8 + 32 + 64), (4, 4, 2 + 8 + 16 + 128),
                                      (-1.5, -1.5, 2 + 8 + 16 + 128), (-2.0, 1.0, 1 + 2 + 32 + 64)])
def test_scalar_comparisons_and_selects_at_the_equal_edge(a, b, bits):
    out = np.zeros(8, np.int32)
    scalar_cmp_kernel[1](out, a, b)
    assert out.tolist() == [bits] * 8


@asc2.jit
def int64_literal_kernel(out_ptr: asc.GlobalAddress, a, LIT: asc.ConstExpr[int]):
    o = asc2.tensor(out_ptr, [8])
    b = asc.number(3, asc.int64) + a.cast(asc.int64) + LIT
    asc2.store(asc2.full([8], b.cast(asc.int32), dtype=asc.int32), o, offsets=[0])


@pytest.mark.parametrize("lit,expected", [(2 ** 63 - 1, 3), (-(2 ** 63), 4), (2 ** 53 + 1, 5)],
                         ids=["2^63-1", "-2^63", "2^53+1"])     # int64 -> int32 is exact past 2^53
def test_int64_literals_at_the_edge_of_int64_wrap_in_the_sum(lit, expected):
    # 3 + 1 + the literal in int64 (INT64_MAX + 4 wraps to INT64_MIN + 3), then the low 32 bits
    out = np.zeros(8, np.int32)
    int64_literal_kernel[1](out, 1, lit)
    assert out.tolist() == [expected] * 8


@pytest.mark.parametrize("lit", [2 ** 63, 2 ** 64 + 5, -(2 ** 63) - 1], ids=["2^63", "2^64+5", "-2^63-1"])
def test_int_literals_past_int64_are_refused(lit):
    """pyasc's builder cannot materialise an int64 constant past its range (pyasc-dev: ``Unsupported dtype for
    materialization: int64``)."""
    out = np.zeros(8, np.int32)
    with pytest.raises(CodegenError, match="Unsupported dtype for materialization: int64"):
        int64_literal_kernel[1](out, 1, lit)


@pytest.mark.parametrize("fn,a,b,text", [(lambda a, b: a // b, 1.0, 0.0, "scalar 1.0 // 0.0 gives inf"),
                                         (lambda a, b: a / b, -2.0, 0.0, "scalar -2.0 / 0.0 gives -inf"),
                                         (lambda a, b: asc2.exp(a) + b, 100.0, 0.0, "scalar exp(100.0) gives inf")],
                         ids=["floordiv", "div", "exp"])
def test_a_scalar_that_turns_finite_operands_non_finite_warns_with_the_expression(fn, a, b, text):
    out = np.zeros(8, np.float32)
    scalar_kernel[1](out, a, b, fn)
    assert np.all(np.isinf(out))
    (w,) = scalar_kernel.last_launch["warnings"]
    assert text in w and "guard the operand" in w


def test_scalar_float_to_int_conversion_truncates():
    out = np.zeros(8, np.int32)
    scalar_kernel[1](out, 2.75, 0, lambda a, b: a.cast(asc.int32) + b)
    assert np.all(out == 2)
    scalar_kernel[1](out, -2.75, 0, lambda a, b: a.cast(asc.int32) + b)
    assert np.all(out == -2)


def test_scalar_integer_division_by_zero_is_reported():
    out = np.zeros(8, np.int32)
    with pytest.raises(RuntimeError, match="integer division by zero"):
        scalar_kernel[1](out, 1, 0, lambda a, b: a // b)


def test_scalar_pow_is_not_supported():
    out = np.zeros(8, np.int32)
    with pytest.raises(CodegenError, match="Power operator is not supported for scalars"):
        scalar_kernel[1](out, 2, 3, lambda a, b: a ** b)

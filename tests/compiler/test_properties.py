"""Property-based tests: op semantics against numpy over generated shapes, dtypes and values
(docs/simulator.md, Numerics and Memory). Example counts are small and the search is derandomised, so a
run is repeatable and cheap; each example still crosses a shape, dtype or value the fixed tests do not."""
from __future__ import annotations

import ml_dtypes
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import asc
import asc2

BF16 = ml_dtypes.bfloat16
PROPS = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FLOAT_DTYPES = [np.float16, np.float32]
INT_DTYPES = [np.int16, np.int32]


@asc2.jit
def binary_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                  R: asc.ConstExpr[int], C: asc.ConstExpr[int], fn: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, [R, C]), [R, C], offsets=[0, 0])
    y = asc2.load(asc2.tensor(y_ptr, [R, C]), [R, C], offsets=[0, 0])
    asc2.store(fn(x, y), asc2.tensor(out_ptr, [R, C]), offsets=[0, 0])


@asc2.jit
def unary_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, S: asc.ConstExpr, OS: asc.ConstExpr,
                 fn: asc.ConstExpr):
    x = asc2.load(asc2.tensor(x_ptr, S), list(S), offsets=[0] * len(S))
    asc2.store(fn(x), asc2.tensor(out_ptr, OS), offsets=[0] * len(OS))


@st.composite
def tiles(draw, dtypes, min_value=None, max_value=None, pairs=False):
    """A 2-D array whose rows are a multiple of 32 bytes (the tile alignment rule), in one of ``dtypes``."""
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    # 16 elements keep every row a multiple of 32 bytes also after a cast to a 2- or 4-byte type.
    shape = (draw(st.integers(1, 6)), 16 * draw(st.integers(1, 4)))
    bf16 = dtype == np.dtype(BF16)
    gen_dtype = np.dtype(np.float32) if bf16 else dtype
    if gen_dtype.kind == "f":
        info = ml_dtypes.finfo(dtype)
        lo = -float(info.max) if min_value is None else min_value
        hi = float(info.max) if max_value is None else max_value
        elements = st.floats(lo, hi, width=8 * gen_dtype.itemsize, allow_nan=False, allow_infinity=False)
    else:
        info = np.iinfo(dtype)
        elements = st.integers(int(info.min) if min_value is None else min_value,
                               int(info.max) if max_value is None else max_value)
    arrays = [draw(hnp.arrays(gen_dtype, shape, elements=elements)) for _ in range(2 if pairs else 1)]
    if bf16:
        arrays = [a.astype(BF16) for a in arrays]
    return tuple(arrays) if pairs else arrays[0]


def run_binary(fn, x, y):
    out = np.zeros_like(x)
    binary_kernel[1](x, y, out, x.shape[0], x.shape[1], fn)
    return out


def run_unary(fn, x, out_shape, out_dtype=None):
    out = np.zeros(out_shape, out_dtype or x.dtype)
    unary_kernel[1](x, out, x.shape, tuple(out_shape), fn)
    return out


def _once(ref64, dtype):
    """A float64 result rounded once to ``dtype`` (through float32, which is exact for these results)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return ref64.astype(np.float32).astype(dtype) if np.dtype(dtype).itemsize < 4 else ref64.astype(dtype)


OPS = {"add": (lambda a, b: a + b, np.add), "sub": (lambda a, b: a - b, np.subtract),
       "mul": (lambda a, b: a * b, np.multiply), "max": (asc2.maximum, np.maximum),
       "min": (asc2.minimum, np.minimum)}


@PROPS
@given(st.sampled_from(sorted(OPS)), tiles(FLOAT_DTYPES, pairs=True))
def test_float_binary_ops_round_once_to_the_result_dtype(op, xy):
    x, y = xy
    fn, ref = OPS[op]
    out = run_binary(fn, x, y)
    with np.errstate(all="ignore"):
        expected = _once(ref(x.astype(np.float64), y.astype(np.float64)), x.dtype)
    np.testing.assert_array_equal(out, expected)


@PROPS
@given(st.sampled_from(sorted(OPS)), tiles(INT_DTYPES, pairs=True))
def test_integer_binary_ops_wrap(op, xy):
    x, y = xy
    fn, ref = OPS[op]
    out = run_binary(fn, x, y)
    np.testing.assert_array_equal(out, ref(x.astype(np.int64), y.astype(np.int64)).astype(x.dtype))


@PROPS
@given(tiles([np.float16, np.float32], min_value=-3e4, max_value=3e4), st.sampled_from(["int16", "int32"]))
def test_float_to_int_casts_round_half_to_even_and_saturate(x, dst):
    if x.dtype == np.float32 and dst == "int16" or x.dtype == np.float16 and dst == "int32":
        dst = {"float32": "int32", "float16": "int16"}[x.dtype.name]     # pyasc casts only between equal widths
    with np.errstate(over="ignore"):           # many x.5 ties; past the int16 range (float16: up to inf)
        x = (np.round(x.astype(np.float64) * 2) / 2 * 3).astype(x.dtype)
    t = np.dtype(dst)
    out = run_unary(lambda v: v.to(getattr(asc, dst)), x, x.shape, t)
    info = np.iinfo(t)
    expected = np.clip(np.rint(x.astype(np.float64)), info.min, info.max).astype(t)
    np.testing.assert_array_equal(out, expected)


@PROPS
@given(tiles([np.float32], min_value=-1e6, max_value=1e6), st.sampled_from(["float16", "bfloat16"]))
def test_float_narrowing_matches_numpy_rounding(x, dst):
    t = np.dtype(BF16) if dst == "bfloat16" else np.dtype(np.float16)
    out = run_unary(lambda v: v.to(getattr(asc, dst)), x, x.shape, t)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out.astype(np.float32), x.astype(t).astype(np.float32))


@PROPS
@given(tiles([np.float16, np.float32, BF16], min_value=-100, max_value=100), st.sampled_from(["sum", "max", "min"]),
       st.sampled_from([0, 1]))
def test_float_reductions_along_a_dim(x, kind, dim):
    fn = getattr(asc2, f"reduce_{kind}")
    out_len = x.shape[1 - dim]
    out = run_unary(lambda v: fn(v, dim), x, (out_len,))
    ref = getattr(np, kind)(x.astype(np.float64), axis=dim)
    if kind == "sum":
        tol = {2: 2e-3 if x.dtype == np.float16 else 8e-3, 4: 1e-5}[x.dtype.itemsize]
        np.testing.assert_allclose(out.astype(np.float64), _once(ref, x.dtype).astype(np.float64),
                                   rtol=tol, atol=tol * x.shape[dim] * 100 * 2 ** -10)
    else:
        np.testing.assert_array_equal(out.astype(np.float64), ref)     # max / min are exact


@PROPS
@given(tiles(INT_DTYPES), st.sampled_from([0, 1]))
def test_integer_sums_wrap_in_their_dtype(x, dim):
    out = run_unary(lambda v: asc2.reduce_sum(v, dim), x, (x.shape[1 - dim],))
    np.testing.assert_array_equal(out, x.astype(np.int64).sum(axis=dim).astype(x.dtype))


@PROPS
@given(tiles([np.float32, np.float16], min_value=-80, max_value=80))
def test_softmax_rows_sum_to_one_and_match_float64(x):
    out = run_unary(asc2.softmax, x, x.shape)
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    tol = 1e-5 if x.dtype == np.float32 else 2e-3
    np.testing.assert_allclose(out.astype(np.float64), e / e.sum(axis=-1, keepdims=True), rtol=tol, atol=tol * 1e-2)


@PROPS
@given(tiles([np.float32, np.float16], min_value=-1e3, max_value=1e3), st.sampled_from(["abs", "relu", "neg"]))
def test_exact_unary_ops(x, kind):
    fn = {"abs": asc2.abs, "relu": asc2.relu, "neg": lambda v: -v}[kind]
    ref = {"abs": np.abs, "relu": lambda a: np.maximum(a, 0), "neg": np.negative}[kind]
    np.testing.assert_array_equal(run_unary(fn, x, x.shape), ref(x))


@asc2.jit
def window_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int], off: int):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    asc2.store(asc2.load(x_gm, [T], offsets=[off]) * 2.0, o_gm, offsets=[off])


@PROPS
@given(st.integers(1, 200), st.sampled_from([8, 16, 64]), st.data())
def test_1d_windows_clip_at_the_tensor_end_and_write_nothing_else(n, T, data):
    off = data.draw(st.integers(0, n - 1))
    x = np.arange(1, n + 1, dtype=np.float32)
    guard = np.full(n + 16, -1.0, np.float32)
    out = guard[:n]
    window_kernel[1](x, out, n, T, off)
    end = min(n, off + T)
    expected = np.full(n, -1.0, np.float32)
    expected[off:end] = 2 * x[off:end]
    np.testing.assert_array_equal(out, expected)
    assert np.all(guard[n:] == -1)

"""The asctile names pyasc-dev adds to the August dialect: bitwise ops and pow, debug prints and asserts,
vector sub-blocks and cv_strategy, empty tiles, layer_norm, broadcast_shapes / broadcast_tensors,
transpose with axes, RoundMode, the extra dtypes, and the names this engine rejects with a reason
(gather / scatter: test_august_gather_scatter.py)."""
from __future__ import annotations

import importlib.util
import inspect
import re

import ml_dtypes
import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn

UPSTREAM_DIR = [
    "Backend", "CompileOptions", "ConstExpr", "DataType", "DistribMode", "GlobalAddress", "GlobalTensor",
    "KernelType", "LocalTensor", "Platform", "RoundMode", "TensorLocation", "abs", "add", "atomic_add",
    "atomic_max", "atomic_min", "bfloat16", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor",
    "block_idx", "block_num", "bool_", "broadcast_shapes", "broadcast_tensors", "broadcast_to", "cast", "ceil",
    "ceildiv", "concat", "copy", "copy_in", "copy_out", "cos", "cosh", "cv_strategy", "device_assert",
    "device_print", "div", "empty", "empty_like", "equal", "erf", "exp", "exp2", "expand_dims", "float16",
    "float32", "float64", "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnuz", "float_", "floor", "from_asc",
    "full", "full_like", "gather", "global_tensor", "greater", "greater_equal", "inline", "inline_vf", "int16",
    "int32", "int64", "int8", "int_", "jit", "layer_norm", "left_shift", "less", "less_equal", "log", "log2",
    "mask", "matmul", "matmul_acc", "maximum", "minimum", "mul", "negative", "not_equal", "pow", "profiling",
    "range", "ravel", "reduce_max", "reduce_min", "reduce_prod", "reduce_sum", "relu", "reshape", "right_shift",
    "rms_norm", "rsqrt", "runtime", "scatter", "set_platform", "sin", "sinh", "softmax", "sqrt", "squeeze",
    "static_assert", "static_print", "static_range", "sub", "sub_block_idx", "sub_block_num", "tan", "tanh",
    "to_asc", "transpose", "where", "zeros", "zeros_acc", "zeros_like"]


def raises(exc, text):
    return pytest.raises(exc, match=re.escape(text))


def line_of(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def test_asctile_has_every_public_name_of_pyasc_dev():
    # pyasc-dev's dir(asctile) (1.1.1.dev20261026) without its submodules `interpreter` and `language`
    assert [n for n in UPSTREAM_DIR if not hasattr(asctile, n)] == []
    assert asctile.bool_ == asctile.int8  # pyasc's bool_ is int8
    assert [m.value for m in asctile.RoundMode] == [100, 0, 1, 2, 3, 4, 5, 6]
    assert [m.name for m in asctile.DistribMode] == ["FullVec0", "FullVec1", "SplitByM", "SplitByN", "JoinByM",
                                                     "JoinByN"]
    assert asctile.float8_e4m3fn.to_numpy() == np.dtype(ml_dtypes.float8_e4m3fn)
    assert asctile.float8_e5m2.sizeof() == 1 and asctile.float8_e8m0fnuz.is_float()
    assert asctile.broadcast_shapes([256], [16, 256]) == (16, 256)
    assert asctile.broadcast_shapes([1, 256], [16, 1]) == (16, 256)


# -- bitwise ops and pow ----------------------------------------------------------------------------------
@asctile.jit
def bits_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [1, 64]), [0, 0], [1, 64])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [7, 64])
    asctile.copy_out(a & b, out, [0, 0])
    asctile.copy_out(asctile.bitwise_or(a, b), out, [1, 0])
    asctile.copy_out(a ^ b, out, [2, 0])
    asctile.copy_out(~a, out, [3, 0])
    asctile.copy_out(a & 0x0F, out, [4, 0])
    asctile.copy_out(0x7 | b, out, [5, 0])
    asctile.copy_out(asctile.bitwise_not(b) ^ -1, out, [6, 0])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32])
def test_bitwise_ops_are_twos_complement(dtype):
    a, b = randn(64, dtype, seed=1), randn(64, dtype, seed=2)
    out = np.zeros((7, 64), dtype)
    bits_kernel[1](a, b, out)
    m = np.array(0x0F).astype(dtype)
    expected = [a & b, a | b, a ^ b, ~a, a & m, np.array(7, dtype) | b, ~b ^ np.array(-1, dtype)]
    np.testing.assert_array_equal(out, np.stack(expected))


def test_xor_costs_three_vector_calls_and_and_one():
    @asctile.jit
    def one(a_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [64]), [0], [64])
        asctile.copy_out(a & a, asctile.global_tensor(out_ptr, [64]), [0])

    @asctile.jit
    def three(a_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [64]), [0], [64])
        asctile.copy_out(a ^ a, asctile.global_tensor(out_ptr, [64]), [0])

    a = np.arange(64, dtype=np.int32)
    costs = {}
    for k in (one, three):
        ck = k.compile((a, a.copy()), {})[0]
        costs[k] = [c[1] for op, c in ((op, ck.costs[op.id]) for op in ck.fn.walk()) if op.name == "tile.bitwise"]
    assert costs[three][0] == pytest.approx(3 * costs[one][0])


def test_bitwise_ops_reject_float_tiles_with_upstreams_text():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        y = x & x

    with raises(CodegenError, "RuntimeError: 'input' dtype must be one of int8, int16, int32, int64, got float32") as e:
        k[1](np.zeros(64, np.float32))
    assert f":{line_of(k, 'y = x & x')}:" in str(e.value)


def test_april_tiles_keep_rejecting_bitwise_operators():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress):
        x = asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0])
        y = x & x

    with raises(CodegenError, "unsupported operand type(s) for & on a Tile"):
        k[1](np.zeros(64, np.int32))


@asctile.jit
def pow_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [1, 64]), [0, 0], [1, 64])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [3, 64])
    asctile.copy_out(a ** b, out, [0, 0])
    asctile.copy_out(asctile.pow(a, 2), out, [1, 0])
    asctile.copy_out(2 ** b, out, [2, 0])


def test_pow_on_floats_rounds_once_and_follows_ieee_edges():
    a = np.array([2.0, -2.0, 0.0, 0.0, -8.0, 10.0, 1.5, np.inf] * 8, np.float16)
    b = np.array([10.0, 3.0, 0.0, -1.0, 0.5, 5.0, 2.0, -1.0] * 8, np.float16)
    out = np.zeros((3, 64), np.float16)
    pow_kernel[1](a, b, out)
    f = np.float32
    with np.errstate(all="ignore"):
        expected = np.stack([np.power(a.astype(f), b.astype(f)), np.power(a.astype(f), f(2)),
                             np.power(f(2), b.astype(f))]).astype(np.float16)
    np.testing.assert_array_equal(out, expected)
    assert out[0, 2] == 1 and np.isinf(out[0, 3]) and np.isnan(out[0, 4]) and np.isinf(out[0, 5])  # 10 ** 5 overflows


def test_pow_on_integers_wraps_and_truncates_negative_exponents():
    a = np.array([3, -3, 2, 1, -1, -1, 5, 0] * 8, np.int16)
    b = np.array([4, 3, 15, -4, -3, -2, -1, 0] * 8, np.int16)
    out = np.zeros((3, 64), np.int16)
    pow_kernel[1](a, b, out)
    assert out[0, :8].tolist() == [81, -27, -32768, 1, -1, 1, 0, 1]  # 2 ** 15 wraps in int16


@asctile.jit
def int_div_kernel(a_ptr, b_ptr, out_ptr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [64]), [0], [64])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [64]), [0], [64])
    asctile.copy_out(a / b, asctile.global_tensor(out_ptr, [64]), [0])


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64], ids=str)
def test_integer_tile_division_truncates_toward_zero_as_upstreams_divsi(dtype):
    # pyasc-dev lowers an integer '/' to arith.divsi: -7 / 2 is -3 (floor division would give -4)
    a = np.array([7, -7, 7, -7, 1, 0, -1, np.iinfo(dtype).min] * 8, dtype)
    b = np.array([2, 2, -2, -2, 3, 5, 3, -1] * 8, dtype)
    out = np.zeros(64, dtype)
    int_div_kernel[1](a, b, out)
    assert out[:8].tolist() == [3, -3, -3, 3, 0, 0, 0, int(np.iinfo(dtype).min)]  # MIN / -1 wraps


def test_integer_tile_division_by_a_zero_element_stops_the_launch():
    a, b = np.ones(64, np.int32), np.ones(64, np.int32)
    b[63] = 0
    with raises(KernelRuntimeError, "integer division by zero"):
        int_div_kernel[1](a, b, np.zeros(64, np.int32))


@pytest.mark.parametrize("expr", ["a + 0.5", "0.5 - a", "a > 2.0"])
def test_an_integer_tile_with_a_float_literal_is_refused_not_truncated(expr, tmp_path):
    # pyasc-dev's builder has no integer attribute for a float literal; truncating 0.5 to 0 would hide the bug
    src = tmp_path / "int_float_kernel.py"
    src.write_text(
        "from asc.experimental import asctile\n\n\n"
        "@asctile.jit\n"
        "def k(a_ptr, out_ptr):\n"
        "    a = asctile.copy_in(asctile.global_tensor(a_ptr, [64]), [0], [64])\n"
        f"    asctile.copy_out(({expr}).to(asctile.int32), asctile.global_tensor(out_ptr, [64]), [0])\n")
    spec = importlib.util.spec_from_file_location("int_float_kernel", src)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    literal = expr.split()[2] if expr.startswith("a") else expr.split()[0]
    with raises(CodegenError, f"a float scalar ({literal}) cannot be combined with an int32 tile"):
        module.k[1](np.zeros(64, np.int32), np.zeros(64, np.int32))
    a = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    int_div_kernel[1](a, np.full(64, 2, np.int32), out)  # an integer scalar path is untouched
    assert out[:4].tolist() == [0, 0, 1, 1]


def test_pow_rejects_bfloat16_with_upstreams_text():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.pow(x, 2.0)

    with raises(CodegenError, "'input' dtype must be one of int8, int16, int32, float16, float32, got bfloat16"):
        k[1](np.zeros(64, ml_dtypes.bfloat16))


# -- debugging -------------------------------------------------------------------------------------------
@asctile.jit(debug=True)
def debug_kernel(x_ptr: asctile.GlobalAddress, limit: int):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    asctile.static_print("traced with", 8)
    asctile.device_print("block", asctile.block_idx(), "x", x, sep="|")
    asctile.device_print(asctile.global_tensor(x_ptr, [2, 4]))
    print("limit", limit)
    assert asctile.block_idx() < limit, "too many blocks"


@asctile.jit
def quiet_kernel(x_ptr: asctile.GlobalAddress, limit: int):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8]), [0], [8])
    asctile.device_print("block", asctile.block_idx(), "x", x)
    asctile.device_assert(asctile.block_idx() < limit, "too many blocks")


def test_device_print_prints_per_block_and_device_assert_stops_with_debug(capsys):
    x = np.arange(8, dtype=np.float32)
    debug_kernel[2](x, 2)
    out = capsys.readouterr().out
    assert "traced with 8" in out
    assert "[block 0] block|0|x|[0. 1. 2. 3. 4. 5. 6. 7.]" in out
    assert "[block 1] limit 2" in out
    assert "[block 1] [[0. 1. 2. 3.]\n [4. 5. 6. 7.]]" in out
    with pytest.raises(KernelRuntimeError, match=r"device_assert failed: too many blocks[\s\S]*in block\(s\) \[2\]"):
        debug_kernel[3](x, 2)


def test_device_print_of_a_tile_every_block_shares_prints_it_whole_in_each_block(capsys):
    @asctile.jit(debug=True)
    def k(x_ptr: asctile.GlobalAddress):
        asctile.device_print("t", asctile.full([4], 1.5, dtype=asctile.float32), asctile.block_idx())

    k[4](np.zeros(8, np.float32))   # as many blocks as the tile has elements
    out = capsys.readouterr().out
    assert [l for l in out.splitlines() if l.startswith("[block")] == \
        [f"[block {b}] t [1.5 1.5 1.5 1.5] {b}" for b in range(4)]


def test_without_debug_device_print_and_assert_emit_nothing(capsys):
    x = np.arange(8, dtype=np.float32)
    quiet_kernel[3](x, 2)
    assert capsys.readouterr().out == ""
    ops = {op.name for op in quiet_kernel.compile((x, 2), {})[0].fn.walk()}
    assert not ops & {"debug.print", "debug.assert"}


def test_static_assert_checks_at_trace_time_and_refuses_runtime_values():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, tile: asctile.ConstExpr, n: int):
        asctile.static_assert(tile % 16 == 0, "TILE must be a multiple of 16")
        asctile.static_assert(n > 0)

    with raises(CodegenError, "AssertionError: TILE must be a multiple of 16"):
        k[1](np.zeros(8, np.float32), 8, 1)
    with raises(CodegenError, "static_assert expects a compile-time value, got PlainValue, use device_assert"):
        k[1](np.zeros(8, np.float32), 16, 1)


# -- sub-blocks and cv_strategy ----------------------------------------------------------------------------
def test_sub_blocks_are_one_per_block_and_cv_strategy_runs_its_body_as_written():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        row = asctile.block_idx() * asctile.sub_block_num() + asctile.sub_block_idx()
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [4, 64]), [row, 0], [1, 64])
        with asctile.cv_strategy(asctile.DistribMode.SplitByM):
            y = (x + 1.0) * 3.0
        asctile.copy_out(y, asctile.global_tensor(out_ptr, [4, 64]), [row, 0])

    x = randn((4, 64), np.float32, seed=3)
    out = np.zeros_like(x)
    k[4](x, out)
    np.testing.assert_array_equal(out, (x + np.float32(1)) * np.float32(3))


def test_cv_strategy_rejects_a_split_that_is_not_by_an_axis():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        with asctile.cv_strategy(asctile.DistribMode.FullVec0):
            pass

    with raises(CodegenError, "ValueError: Splitting by axis must be requested, got 0"):
        k[1](np.zeros(8, np.float32))


# -- empty, layer_norm, shapes ------------------------------------------------------------------------------
def test_empty_tiles_are_poison_until_written():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64], asctile.TensorLocation.UB)
        other = asctile.empty_like(x)
        asctile.copy_out(asctile.where(x > 0, x, other), asctile.global_tensor(out_ptr, [64]), [0])

    x = randn(64, np.float32, seed=4)
    out = np.zeros_like(x)
    k[1](x, out)
    np.testing.assert_array_equal(out[x > 0], x[x > 0])
    assert np.isnan(out[x <= 0]).all()


@pytest.mark.parametrize("make", ["asctile.empty_like(x)", "asctile.empty([64], asctile.float32)"])
def test_an_auto_located_empty_tile_is_refused_at_its_first_use_as_pyasc_devs_compiler_does(make, tmp_path):
    """empty's default location is Auto, and empty_like takes its tile's: Auto for a copy_in without one.
    pyasc-dev's compiler places no such tile in UB; a location given (or no use) compiles."""
    src = f"""
import numpy as np
from asc.experimental import asctile

@asctile.jit
def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    other = {make}
    unused = asctile.empty([64], asctile.float32)
    asctile.copy_out(asctile.where(x > 0, x, other), asctile.global_tensor(out_ptr, [64]), [0])
"""
    path = tmp_path / "empty_auto.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("empty_auto", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with raises(CodegenError, "Direct data transfer from auto to UB is not supported") as e:
        mod.k[1](np.ones(64, np.float32), np.zeros(64, np.float32))
    assert f"{path}:10:" in str(e.value)        # the where that reads it, as pyasc reports it


@pytest.mark.parametrize("dtype,output_rstd", [(np.float32, True), (np.float16, False)])
def test_layer_norm_matches_numpy(dtype, output_rstd):
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, g_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress,
          out_ptr: asctile.GlobalAddress, mean_ptr: asctile.GlobalAddress, third_ptr: asctile.GlobalAddress,
          rstd: asctile.ConstExpr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 64]), [0, 0], [16, 64])
        g = asctile.copy_in(asctile.global_tensor(g_ptr, [64]), [0], [64])
        b = asctile.copy_in(asctile.global_tensor(b_ptr, [64]), [0], [64])
        out, mean, third = asctile.layer_norm(x, g, b, 1e-5, output_rstd=rstd)
        asctile.copy_out(out, asctile.global_tensor(out_ptr, [16, 64]), [0, 0])
        asctile.copy_out(mean, asctile.global_tensor(mean_ptr, [16]), [0])
        asctile.copy_out(third, asctile.global_tensor(third_ptr, [16]), [0])

    x, g, b = randn((16, 64), dtype, seed=5) * 3 + 1, randn(64, dtype, seed=6), randn(64, dtype, seed=7)
    out, mean, third = np.zeros_like(x), np.zeros(16, np.float32), np.zeros(16, np.float32)
    k[1](x, g, b, out, mean, third, output_rstd)
    x64 = x.astype(np.float64)
    m, v = x64.mean(-1), x64.var(-1)
    np.testing.assert_allclose(mean, m, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(third, 1 / np.sqrt(v + 1e-5) if output_rstd else v, rtol=1e-4)
    ref = (x64 - m[:, None]) / np.sqrt(v[:, None] + 1e-5) * g.astype(np.float64) + b.astype(np.float64)
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=2e-3 if dtype == np.float16 else 1e-5,
                               atol=2e-3 if dtype == np.float16 else 1e-5)


def test_layer_norm_rejects_3d_input_and_integer_epsilon():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, shape: asctile.ConstExpr, eps: asctile.ConstExpr):
        x = asctile.zeros(shape, asctile.float32)
        g = asctile.zeros([shape[-1]], asctile.float32)
        asctile.layer_norm(x, g, g, eps)

    with raises(CodegenError, "RuntimeError: Tensor dimensionality greater than two is not supported."):
        k[1](np.zeros(8, np.float32), (2, 8, 64), 1e-5)
    with raises(CodegenError, "TypeError: 'epsilon' argument must be float or PlainValue with float dtype, got int"):
        k[1](np.zeros(8, np.float32), (8, 64), 0)


def test_broadcast_tensors_and_transpose_with_axes():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, r_ptr: asctile.GlobalAddress, s_ptr: asctile.GlobalAddress,
          t_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16]).reshape(2, 8, 16)
        r = asctile.copy_in(asctile.global_tensor(r_ptr, [16]), [0], [16])
        xb, rb = asctile.broadcast_tensors(x, r)
        asctile.copy_out((xb + rb).reshape(16, 16), asctile.global_tensor(s_ptr, [16, 16]), [0, 0])
        # a rank-3 transpose compiles (Ascend950PR_9599) only straight from a copy_in used by nothing else
        x3 = asctile.copy_in(asctile.global_tensor(x_ptr, [2, 8, 16]), [0, 0, 0], [2, 8, 16])
        t = asctile.transpose(x3, 2, 0, 1).reshape(16, 16)
        asctile.copy_out(t, asctile.global_tensor(t_ptr, [16, 16]), [0, 0])

    x, r = randn((2, 8, 16), np.float32, seed=8), randn(16, np.float32, seed=9)
    s, t = np.zeros_like(x), np.zeros((16, 2, 8), np.float32)
    k[1](x, r, s, t)
    np.testing.assert_array_equal(s, x + r)
    np.testing.assert_array_equal(t.reshape(16, 2, 8), x.transpose(2, 0, 1))


@pytest.mark.parametrize("platform", ["Ascend950PR_9599", "Ascend910B1"])
def test_a_rank_3_transpose_compiles_only_where_a_copy_in_folds_it(platform):
    """pyasc-dev's vector unit transposes 2-D tiles; Ascend950PR_9599 folds a rank-3 transpose into the copy_in
    of a tile nothing else reads; Ascend910B1 folds none."""
    from asc.runtime import config

    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, t_ptr: asctile.GlobalAddress, also: asctile.ConstExpr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [2, 8, 16]), [0, 0, 0], [2, 8, 16])
        t = asctile.global_tensor(t_ptr, [16, 2, 8])
        asctile.copy_out(x.transpose(2, 0, 1), t, [0, 0, 0])
        if also:
            asctile.copy_out(x, asctile.global_tensor(x_ptr, [2, 8, 16]), [0, 0, 0])

    x, t = randn((2, 8, 16), np.float32, seed=3), np.zeros((16, 2, 8), np.float32)
    previous = config.current_platform()
    config.set_platform(config.Backend.Model, getattr(config.Platform, platform))
    try:
        if platform == "Ascend950PR_9599":
            k[1](x, t, False)
            np.testing.assert_array_equal(t, x.transpose(2, 0, 1))
        else:
            with raises(CodegenError, "Not supporting tiles with dims greater than 2"):
                k[1](x, t, False)
        with raises(CodegenError, "Not supporting tiles with dims greater than 2") as e:
            k[1](x, t, True)          # the copy_in's tile is also stored: nothing to fold into
        assert f":{line_of(k, 'x.transpose(2, 0, 1)')}:" in str(e.value)
    finally:
        config.set_platform(config.Backend.Model, previous)


def test_transpose_axes_errors_use_upstreams_text():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, axes: asctile.ConstExpr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16]).reshape(2, 8, 16)
        x.transpose(*axes)

    x = np.zeros((2, 8, 16), np.float32)
    with raises(CodegenError, "Transpose axis count 2 should match count of tensor dimensions 3"):
        k[1](x, (1, 0))
    with raises(CodegenError, "Wrong dimensions rearrangement (0, 0, 1) for tensor of 3 dimensions"):
        k[1](x, (0, 0, 1))


def test_broadcast_shapes_rejects_shapes_that_do_not_broadcast():
    with raises(RuntimeError, "Shapes are not broadcastable: (8, 64) vs. (8, 32)"):
        asctile.broadcast_shapes([8, 64], [8, 32])
    with raises(ValueError, "'shapes' must be provided"):
        asctile.broadcast_shapes()


# -- RoundMode ----------------------------------------------------------------------------------------------
@asctile.jit
def round_kernel(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, h_ptr: asctile.GlobalAddress,
                 mode: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    asctile.copy_out(asctile.cast(x, asctile.int32, round_mode=mode), asctile.global_tensor(i_ptr, [64]), [0])
    asctile.copy_out(x.to(asctile.float16, mode), asctile.global_tensor(h_ptr, [64]), [0])


@np.errstate(over="ignore")
def _rounded_f16(x, mode):
    x64 = x.astype(np.float64)
    near = x64.astype(np.float16)
    up, down = np.nextafter(near, np.float16(np.inf)), np.nextafter(near, np.float16(-np.inf))
    cands = np.stack([down, near, up]).astype(np.float64)
    if mode == "Floor":
        return np.where(near.astype(np.float64) > x64, down, near)
    if mode == "Ceil":
        return np.where(near.astype(np.float64) < x64, up, near)
    if mode == "Trunc":
        return np.where(np.abs(near.astype(np.float64)) > np.abs(x64), np.where(x64 > 0, down, up), near)
    return near


@pytest.mark.parametrize("mode,int_ref", [("Rint", np.rint), ("Floor", np.floor), ("Ceil", np.ceil),
                                          ("Trunc", np.trunc),
                                          ("Round", lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5))])
def test_round_modes_of_casts_to_int_and_to_float16(mode, int_ref):
    x = np.concatenate([np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3e9, -3e9, np.nan, 1.0001, -1.0001,
                                  65519.0, 70000.0, -70000.0, 0.3333, 2049.0], np.float32),
                        randn(48, np.float32, seed=10, scale=100)])
    i, h = np.zeros(64, np.int32), np.zeros(64, np.float16)
    round_kernel[1](x, i, h, getattr(asctile.RoundMode, mode))
    with np.errstate(invalid="ignore"):
        ref = np.clip(np.nan_to_num(int_ref(x.astype(np.float64)), nan=0), -2**31, 2**31 - 1).astype(np.int32)
    np.testing.assert_array_equal(i, ref)
    if mode in ("Floor", "Ceil", "Trunc"):
        np.testing.assert_array_equal(h, _rounded_f16(x, mode))
    assert h[2] == np.float16(2.5)


@asctile.jit
def round_f16_kernel(x_ptr: asctile.GlobalAddress, h_ptr: asctile.GlobalAddress, mode: asctile.ConstExpr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    asctile.copy_out(x.to(asctile.float16, mode), asctile.global_tensor(h_ptr, [64]), [0])


def test_round_to_odd_and_half_away_on_float16_ties():
    x = np.zeros(64, np.float32)
    x[:4] = [2049.0, 2051.0, -2049.0, 2050.0]  # float16 spacing is 2 above 2048: ties and an exact value
    x[4:10] = [2.5, -2.5, 0.5, -0.25, 4.25, 3.75]
    i, h = np.zeros(64, np.int32), np.zeros(64, np.float16)
    round_f16_kernel[1](x, h, asctile.RoundMode.Odd)   # round to odd: float32 -> float16 only
    assert h[:4].tolist() == [2050.0, 2050.0, -2050.0, 2050.0]  # 2048 has an even last bit, 2050 an odd one
    round_kernel[1](x, i, h, asctile.RoundMode.Round)
    assert h[:4].tolist() == [2050.0, 2052.0, -2050.0, 2050.0]
    assert i[4:10].tolist() == [3, -3, 1, 0, 4, 4]    # half away from zero
    round_kernel[1](x, i, h, asctile.RoundMode.Rint)
    assert h[:4].tolist() == [2048.0, 2052.0, -2048.0, 2050.0]


def test_no_round_converts_exact_pairs_and_float32_to_float16_like_rint():
    x = np.array([0.5, 1.5, 2.5, 65519.0, 2049.0, -2049.0] + [0.0] * 58, np.float32)
    h = np.zeros(64, np.float16)
    round_f16_kernel[1](x, h, asctile.RoundMode.NoRound)
    np.testing.assert_array_equal(h, x.astype(np.float16))   # round half to even, as the default


@pytest.mark.parametrize("mode,pair,text", [
    ("NoRound", "f32 -> i32", "round_mode noround is not supported for cast from 'f32' to 'i32'"),
    ("Odd", "f32 -> i32", "round_mode odd is not supported for cast from 'f32' to 'i32'"),
    ("Floor", "f16 -> f32", "round_mode floor is not supported for cast from 'f16' to 'f32'"),
])
def test_a_rounding_mode_the_conversion_does_not_take_is_refused_as_pyasc_devs_compiler_does(mode, pair, text):
    """pyasc-dev's front end takes any mode; its compiler refuses these (conformance-compile checks the table)."""
    src = {"f32 -> i32": (np.float32, asctile.int32), "f16 -> f32": (np.float16, asctile.float32)}[pair]

    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, dst: asctile.ConstExpr, m: asctile.ConstExpr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(x.to(dst, m), asctile.global_tensor(y_ptr, [64]), [0])

    with raises(CodegenError, text):
        k[1](np.zeros(64, src[0]), np.zeros(64, np.float32 if pair == "f16 -> f32" else np.int32), src[1],
             getattr(asctile.RoundMode, mode))


@pytest.mark.parametrize("src,dst,via", [(np.float32, "int8", "float16"), (np.int8, "float32", "float16"),
                                         (np.int32, "int8", "float16"), (np.int16, "int64", "float32")])
def test_a_conversion_the_vector_unit_lacks_is_refused_with_a_two_step_hint(src, dst, via):
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, d: asctile.ConstExpr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(x.to(d), asctile.global_tensor(y_ptr, [64]), [0])

    short = {"float32": "f32", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16"}
    s = short[np.dtype(src).name]
    with raises(CodegenError, f"'asctile.cast' op from '{s}' to '{short[dst]}' is not supported") as e:
        k[1](np.zeros(64, src), np.zeros(64, getattr(np, dst)), getattr(asctile, dst))
    assert f".to(asctile.{via}).to(asctile.{dst})" in str(e.value)
    k2_out = np.zeros(64, getattr(np, dst))      # the hint's two steps compile and run
    x = (np.arange(64) - 32).astype(src)

    @asctile.jit
    def k2(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, m: asctile.ConstExpr, d: asctile.ConstExpr):
        t = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(t.to(m).to(d), asctile.global_tensor(y_ptr, [64]), [0])

    k2[1](x, k2_out, getattr(asctile, via), getattr(asctile, dst))
    np.testing.assert_array_equal(k2_out, x.astype(getattr(np, dst)))


def test_round_mode_with_a_scalar_is_rejected_with_upstreams_text():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress):
        asctile.cast(1.5, asctile.int32, asctile.RoundMode.Floor)

    with raises(CodegenError, "RuntimeError: 'round_mode' argument cannot be used with scalar input"):
        k[1](np.zeros(8, np.float32))


# -- names this engine rejects with a reason -------------------------------------------------------------
@pytest.mark.parametrize("call,text", [
    ("asctile.inline('int x = 0;')", "inline is not supported on this engine"),
    ("asctile.inline_vf('', [64], asctile.float32, [x])", "inline_vf is not supported on this engine"),
    ("asctile.to_asc(x)", "to_asc is not supported on this engine"),
])
def test_names_without_simulator_semantics_fail_clearly_at_the_users_line(call, text, tmp_path):
    src = f"""
import numpy as np
from asc.experimental import asctile

@asctile.jit
def k(x_ptr: asctile.GlobalAddress):
    x_gm = asctile.global_tensor(x_ptr, [64])
    x = asctile.copy_in(x_gm, [0], [64])
    {call}
"""
    path = tmp_path / "kernel_mod.py"
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    with raises(CodegenError, text) as e:
        ns["k"][1](np.zeros(64, np.float32))
    assert f"kernel_mod.py:9:" in str(e.value)


def test_a_scalar_outside_an_integer_tiles_range_wraps_around_as_a_c_literal():
    @asctile.jit
    def k(a_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
        a = asctile.copy_in(asctile.global_tensor(a_ptr, [1, 64]), [0, 0], [1, 64])
        out = asctile.global_tensor(out_ptr, [2, 64])
        asctile.copy_out(a & 0x0F0F, out, [0, 0])
        asctile.copy_out(a | 300, out, [1, 0])

    a = np.arange(-32, 32, dtype=np.int8).reshape(1, 64)
    out = np.zeros((2, 64), np.int8)
    k[1](a, out)
    np.testing.assert_array_equal(out[0], a[0] & np.int8(0x0F))
    np.testing.assert_array_equal(out[1], a[0] | np.int8(300 - 256))


def test_layer_norm_in_a_masked_region_masks_its_output_only():
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, mean_ptr: asctile.GlobalAddress):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        g = asctile.full([64], 1.0, asctile.float32)
        b = asctile.zeros([64], asctile.float32)
        with asctile.mask(count=32):
            out, mean, rstd = asctile.layer_norm(x, g, b, 1e-5)
            asctile.copy_out(out, asctile.global_tensor(out_ptr, [64]), [0])
            asctile.copy_out(mean, asctile.global_tensor(mean_ptr, [8]), [0])

    x = randn(64, np.float32, seed=12)
    out, mean = np.full(64, 5.0, np.float32), np.zeros(8, np.float32)
    k[1](x, out, mean)
    ref = (x - x.mean()) / np.sqrt(x.var() + 1e-5)
    np.testing.assert_allclose(out[:32], ref[:32], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(out[32:], 0.0)  # masked-off lanes without `other` are zero
    assert mean[0] == pytest.approx(x.mean(), rel=1e-5)


@pytest.mark.parametrize("chain,src,accepted", [
    (("int8", "int16"), np.float32, True),      # narrow then widen: folded into float32 -> int16
    (("int8", "float32"), np.float32, True),    # folded into nothing (float32 -> float32)
    (("float16", "float32"), np.int8, True),    # widen then widen: two supported steps
    (("int32", "int8"), np.float32, False),     # the second step, int32 -> int8, has no conversion
])
def test_conversion_chains_are_checked_as_pyasc_devs_canonicaliser_folds_them(chain, src, accepted):
    @asctile.jit
    def k(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, a: asctile.ConstExpr, b: asctile.ConstExpr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(x.to(a).to(b), asctile.global_tensor(y_ptr, [64]), [0])

    x = (np.arange(64) - 32).astype(src)
    y = np.zeros(64, getattr(np, chain[1]))
    if accepted:
        k[1](x, y, getattr(asctile, chain[0]), getattr(asctile, chain[1]))
        np.testing.assert_array_equal(y, x.astype(getattr(np, chain[1])))
    else:
        with raises(CodegenError, "'asctile.cast' op from 'i32' to 'i8' is not supported"):
            k[1](x, y, getattr(asctile, chain[0]), getattr(asctile, chain[1]))

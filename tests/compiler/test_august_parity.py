"""Behaviours of upstream asctile (pyasc-dev) that kernels written for it rely on: a ConstExpr value at the
call site, ``kernel[None]``, the builtins ``max`` / ``min`` / ``sum`` inside kernels, and April kernels
keeping April's option rules."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.experimental import asctile
from asc.frontend.errors import CodegenError
from asc.runtime.platforms import hardware

from kernel_checks import randn

C220 = config.Platform.Ascend910B1
C310 = config.Platform.Ascend950PR_9599


# -- 1. one kernel file, launched "static" and "dynamic" ----------------------------------------------------------
@asctile.jit
def scaled_copy(x_ptr, out_ptr, length, tile):
    x = asctile.global_tensor(x_ptr, [length])
    out = asctile.global_tensor(out_ptr, [length])
    for t in range(asctile.block_idx(), asctile.ceildiv(length, tile), asctile.block_num()):
        asctile.copy_out(asctile.copy_in(x, [t * tile], [tile]) * 2.0, out, [t * tile])


@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_an_unannotated_parameter_is_compile_time_when_given_a_constexpr_value(mode):
    x = randn(1000, np.float32, seed=1)
    out = np.zeros_like(x)
    length = asctile.ConstExpr(x.size) if mode == "static" else x.size
    scaled_copy[4](x, out, length, asctile.ConstExpr(128))
    np.testing.assert_array_equal(out, x * 2)
    ir = scaled_copy.ir(x, out, length, asctile.ConstExpr(128))
    assert ("length=1000" in ir) == (mode == "static")
    assert "tensor<1000xfloat32>" in ir if mode == "static" else "tensor<?xfloat32>" in ir


def test_an_unannotated_runtime_tile_size_is_still_rejected_in_a_shape():
    x = np.zeros(256, np.float32)
    with pytest.raises(CodegenError, match="All values in 'shape' must be integers"):
        scaled_copy[1](x, x.copy(), 256, 128)


# -- 2. kernel[None]: every core of the platform ----------------------------------------------------------------
@asctile.jit
def block_ids(out_ptr):
    asctile.copy_out(asctile.block_num(), asctile.global_tensor(out_ptr, [64]), [asctile.block_idx()])


@pytest.mark.parametrize("platform", [C220, C310])
def test_kernel_none_launches_every_core_of_the_platform(platform):
    config.set_platform(config.Backend.Model, platform)
    cores = hardware(platform).aic_cores
    for launch in (block_ids[None], block_ids[None, asc.lib.runtime.current_stream()]):
        out = np.full(64, -1, np.int32)
        launch(out)
        assert block_ids.last_launch["core_num"] == cores
        np.testing.assert_array_equal(out[:cores], np.full(cores, cores))
        assert np.all(out[cores:] == -1)


@pytest.mark.parametrize("core_num", [0, -1])
def test_a_core_count_below_one_is_rejected(core_num):
    with pytest.raises(ValueError, match="'core_num' must be positive"):
        block_ids[core_num](np.zeros(64, np.int32))


# -- 3. builtins inside August kernels ------------------------------------------------------------------------------
@asctile.jit
def builtins_kernel(x_ptr, y_ptr, out_ptr, n: asctile.ConstExpr, k):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [n]), [0], [n])
    y = asctile.copy_in(asctile.global_tensor(y_ptr, [n]), [0], [n])
    out = asctile.global_tensor(out_ptr, [6 * n])
    asctile.copy_out(max(x, y), out, [0 * n])                    # tiles: elementwise maximum
    asctile.copy_out(min([x, y, 0.25]), out, [1 * n])            # an iterable, with a Python number
    asctile.copy_out(sum([x, y, x]), out, [2 * n])               # 0 + x + y + x
    asctile.copy_out(sum((x, y), x), out, [3 * n])               # start given
    # runtime scalars: scalar max / min; Python values: Python's (a compile-time 3)
    kk = max(k, 2)
    asctile.copy_out(x * max(kk, min(5, 3)).cast(asctile.float32), out, [4 * n])
    asctile.copy_out(max(x, k.cast(asctile.float32) * 0.1, default=0.0), out, [5 * n])


@pytest.mark.parametrize("k", [0, 2, 7])
def test_max_min_sum_over_tiles_scalars_and_python_values(k):
    x = randn(64, np.float32, seed=2)
    y = randn(64, np.float32, seed=3)
    out = np.zeros((6, 64), np.float32)
    builtins_kernel[1](x, y, out, 64, k)
    np.testing.assert_array_equal(out[0], np.maximum(x, y))
    np.testing.assert_array_equal(out[1], np.minimum(np.minimum(x, y), np.float32(0.25)))
    np.testing.assert_allclose(out[2], x + y + x, rtol=1e-6)
    np.testing.assert_allclose(out[3], x + x + y, rtol=1e-6)
    np.testing.assert_array_equal(out[4], x * np.float32(max(k, 2, 3)))
    np.testing.assert_allclose(out[5], np.maximum(x, np.float32(k) * np.float32(0.1)), rtol=1e-6)


def test_builtins_on_python_values_are_pythons_and_fold_at_trace_time():
    @asctile.jit
    def k(out_ptr, a: asctile.ConstExpr, b: asctile.ConstExpr):
        out = asctile.global_tensor(out_ptr, [8])
        asctile.copy_out(asctile.full([8], max(a, b) * 10 + min(a, b) + sum([a, b, 1]) * 100, asctile.int32),
                         out, [0])
    out = np.zeros(8, np.int32)
    k[1](out, 3, 5)
    assert np.all(out == 5 * 10 + 3 + 9 * 100)
    assert "scalar.binary" not in k.ir(out, 3, 5)   # no runtime op: Python did it


def test_max_of_an_empty_sequence_is_pythons_error_at_the_users_line():
    @asctile.jit
    def k(out_ptr):
        v = max([])
        asctile.copy_out(v, asctile.global_tensor(out_ptr, [8]), [0])
    with pytest.raises(CodegenError, match=r"max\(\) arg is an empty sequence") as e:
        k[1](np.zeros(8, np.float32))
    assert "v = max([])" in str(e.value)


def test_april_kernels_keep_april_builtins():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, n: int):
        x = asc2.tensor(x_ptr, [64])
        asc2.store(asc2.load(x, [64], offsets=[min(n, 0)]), x, offsets=[0])
    with pytest.raises(CodegenError, match="min is not defined"):
        k[1](np.zeros(64, np.float32), 3)



def test_a_custom_builtins_dict_replaces_the_asctile_builtins_and_its_names_are_callable():
    @asctile.jit(custom_builtins={"range": asctile.range, "relu": asctile.relu})
    def k(x_ptr, out_ptr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(relu(x), asctile.global_tensor(out_ptr, [64]), [0])  # noqa: F821 - a custom builtin

    @asctile.jit(custom_builtins={"range": asctile.range})
    def still_max(x_ptr, out_ptr):
        x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
        asctile.copy_out(max(x, x + 1.0), asctile.global_tensor(out_ptr, [64]), [0])

    x = np.arange(64, dtype=np.float32) - 32
    out = np.zeros_like(x)
    k[1](x, out)
    np.testing.assert_array_equal(out, np.maximum(x, 0))
    with pytest.raises(CodegenError, match="max is not defined") as e:
        still_max[1](x, out)
    assert "asctile.copy_out(max(x, x + 1.0)" in str(e.value)


def test_an_assert_follows_the_assert_of_a_custom_builtins_dict_or_is_checked_while_tracing_without_one():
    def body(x_ptr, n: asctile.ConstExpr[int]):
        assert n > 64, "n must exceed 64"
        asctile.copy_out(asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64]),
                         asctile.global_tensor(x_ptr, [64]), [0])

    x = np.zeros(64, np.float32)
    asctile.jit(body)[1](x, 64)  # asctile's assert is device_assert: compiled out without debug=True
    with pytest.raises(CodegenError, match="n must exceed 64"):
        asctile.jit(custom_builtins={"range": asctile.range})(body)[1](x, 64)
    with pytest.raises(CodegenError, match="n must exceed 64"):
        asctile.jit(custom_builtins={"range": asctile.range, "assert": asctile.static_assert})(body)[1](x, 64)

# -- 6. April kernels keep April rules ------------------------------------------------------------------------------
def test_vf_fusion_is_accepted_for_april_kernels_on_c220_and_rejected_for_august_ones():
    config.set_platform(config.Backend.Model, C220)

    @asc2.jit(vf_fusion=True)
    def april(x_ptr: asc.GlobalAddress, n: int):
        x = asc2.tensor(x_ptr, [n])
        asc2.store(asc2.abs(asc2.load(x, [64], offsets=[0])), x, offsets=[0])

    @asc2.jit(vf_fusion=True)
    def august(x_ptr, n):
        x = asc2.global_tensor(x_ptr, [n])
        asc2.copy_out(asc2.abs(asc2.copy_in(x, [0], [64])), x, [0])

    data = -np.arange(64, dtype=np.float32)
    april[1](data, 64)
    np.testing.assert_array_equal(data, np.arange(64, dtype=np.float32))
    with pytest.raises(RuntimeError, match="VF fusion is not supported for the c220 architecture"):
        august[1](data, 64)


# -- world's-code shapes: a host tiling helper, kernel[None], min in index arithmetic, ragged rows -----------------
@asctile.jit
def softmax_rows(x_ptr, out_ptr, rows, cols: asctile.ConstExpr, row_tile: asctile.ConstExpr):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    o = asctile.global_tensor(out_ptr, [rows, cols])
    n_tiles = asctile.ceildiv(rows, row_tile)
    per = asctile.ceildiv(n_tiles, asctile.block_num())
    start = asctile.block_idx() * per
    for t in range(start, min(start + per, n_tiles)):
        tile = asctile.copy_in(x, [t * row_tile, 0], [row_tile, cols])   # ragged last tile: undefined rows
        e = asctile.exp(tile - asctile.reduce_max(tile, 1).reshape([row_tile, 1]))
        asctile.copy_out(e / asctile.reduce_sum(e, 1).reshape([row_tile, 1]), o, [t * row_tile, 0])


def _row_tile(platform, cols, itemsize):
    from asc.runtime.launcher import get_platform_info
    return max(1, min(16, get_platform_info(platform).ub_size // (4 * cols * itemsize)))


@pytest.mark.parametrize("platform", [C220, C310])
@pytest.mark.parametrize("rows, cols", [(1, 64), (7, 128), (33, 256)])
@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_a_ragged_row_softmax_launched_on_every_core(platform, rows, cols, mode):
    config.set_platform(config.Backend.Model, platform)
    x = randn((rows, cols), np.float32, seed=rows)
    out = np.zeros_like(x)
    softmax_rows[None](x, out, asctile.ConstExpr(rows) if mode == "static" else rows, cols,
                       _row_tile(platform, cols, 4))
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(1, keepdims=True), rtol=1e-6, atol=1e-7)
    assert softmax_rows.last_launch["warnings"] == []   # the undefined rows are clipped by the store


# -- reductions, `and` / `or`, options and one-element stores as pyasc-dev's front end has them ------------------
def _reduce_kernel(expr):
    src = (
        "from asc.experimental import asctile\n"
        "@asctile.jit\n"
        "def k(x_ptr, out_ptr):\n"
        "    t = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 16]), [0, 0], [8, 16])\n"
        f"    r = {expr}\n"
        "    asctile.copy_out(r, asctile.global_tensor(out_ptr, [8, 16]), [0, 0])\n")
    import linecache, types
    name = f"<reduce {abs(hash(expr))}>"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    mod = types.ModuleType("reduce_kernel")
    exec(compile(src, name, "exec"), mod.__dict__)
    return mod.k


@pytest.mark.parametrize("expr, message", [
    ("asctile.reduce_sum(t, -1, keep_dims=True)", "All reduction dimensions must be between 0 and 1"),
    ("asctile.reduce_max(t, 2, keep_dims=True)", "All reduction dimensions must be between 0 and 1"),
    ("asctile.reduce_sum(t, 1, 1, keep_dims=True)", "Repeating dimensions are not allowed"),
    ("asctile.reduce_sum(t, 1, keep_dims=1)", "'keep_dims' argument must be bool, got int"),
    ("asctile.reduce_sum(t.to(asctile.float16), 1, keep_dims=True)",
     "'input' dtype must be one of int32, int64, float32, got float16"),
    ("asctile.reduce_prod(t.to(asctile.float16), 0, keep_dims=True)", "'input' dtype must be float32, got float16"),
    ("asctile.reduce_max(t, 0, 1)", "Reduction along all dimensions is not supported"),
    ("asctile.full([8, 16], asctile.reduce_prod(t), asctile.float32)", "Reduction to scalar not supported"),
])
def test_august_reductions_follow_pyasc_devs_rules(expr, message):
    k = _reduce_kernel(expr)
    with pytest.raises(CodegenError, match=re.escape(message)):
        k[1](np.zeros((8, 16), np.float32), np.zeros((8, 16), np.float32))


def test_august_reductions_that_upstream_accepts_compute():
    x = randn((8, 16), np.float32, seed=9)
    out = np.zeros((8, 16), np.float32)
    _reduce_kernel("asctile.reduce_max(t.to(asctile.float16), 1, keep_dims=True).to(asctile.float32) + t")[1](x, out)
    np.testing.assert_array_equal(out, x.astype(np.float16).max(1, keepdims=True).astype(np.float32) + x)
    # a reduction over dimensions of size 1 is the tile itself (no instruction), as upstream
    k = _reduce_kernel("asctile.reduce_sum(t.reshape([8, 1, 16]), 1).reshape([8, 16])")
    k[1](x, out)
    np.testing.assert_array_equal(out, x)
    assert "tile.reduce" not in k.ir(x, out)
    # the April dialect keeps counting negative dims from the end
    @asc2.jit
    def april(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [8, 16]), [8, 16], offsets=[0, 0])
        asc2.store(asc2.reduce_sum(t, -1, keep_dims=True).broadcast_to(8, 16) + t, asc2.tensor(out_ptr, [8, 16]),
                   offsets=[0, 0])
    april[1](x, out)
    np.testing.assert_allclose(out, x.sum(1, keepdims=True) + x, rtol=1e-6)


@pytest.mark.parametrize("a, b", [(0, 0), (0, 3), (2, 0), (2, 3)])
def test_and_or_between_compile_time_values_are_pythons_truth_values(a, b):
    @asctile.jit
    def k(out_ptr, a: asctile.ConstExpr, b: asctile.ConstExpr):
        out = asctile.global_tensor(out_ptr, [8])
        asctile.copy_out(asctile.full([8], (a and b) * 10 + (a or b), asctile.int32), out, [0])
    out = np.zeros(8, np.int32)
    k[1](out, a, b)
    assert np.all(out == bool(a and b) * 10 + bool(a or b))


def test_vf_vec_len_is_a_c310_option():
    @asctile.jit(vf_vec_len=128)
    def k(out_ptr):
        asctile.copy_out(asctile.full([8], 1.0, asctile.float32), asctile.global_tensor(out_ptr, [8]), [0])
    out = np.zeros(8, np.float32)
    k[1](out)
    assert np.all(out == 1.0)
    config.set_platform(config.Backend.Model, C220)
    with pytest.raises(RuntimeError, match="The vector register length option is not supported for the c220 "
                                           "architecture"):
        k[1](out)


def test_a_one_element_tile_stores_as_a_scalar_whatever_its_real_shape():
    @asctile.jit
    def k(x_ptr, out_ptr, i):
        t = asctile.copy_in(asctile.global_tensor(x_ptr, [16]), [i], [1])
        asctile.copy_out(t, asctile.global_tensor(out_ptr, [16]), [i], real_shape=[1])
    x = randn(16, np.float32, seed=10)
    out = np.zeros(16, np.float32)
    k[1](x, out, 5)
    assert out[5] == x[5] and np.count_nonzero(out) == 1

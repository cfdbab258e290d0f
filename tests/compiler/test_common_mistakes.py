"""One test per row of the "Common Mistakes" table of the pyasc API patterns skill: each mistake either works
correctly here or fails at trace time with a clear message that names the fix and the user's line."""
from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest
import torch

import asc
import asc2
import asc.runtime.config as config
from asc.frontend.errors import CodegenError, UnsupportedSyntaxError

from kernel_checks import assert_reported, randn

CORE_NUM = 16


def hint_of(err):
    return str(err).split("hint: ", 1)[1]


# 1. break / continue / early return inside @asc2.jit ------------------------------------------------------------
def test_break_continue_and_early_return_are_rejected_with_a_fix():
    @asc2.jit
    def brk(out_ptr: asc.GlobalAddress, n: int):
        for i in asc2.range(n):
            break

    @asc2.jit
    def cont(out_ptr: asc.GlobalAddress, n: int):
        for i in asc2.range(n):
            continue

    @asc2.jit
    def ret(out_ptr: asc.GlobalAddress, n: int):
        for i in asc2.range(n):
            if i > 2:
                return
    out = np.zeros(8, np.float32)
    with pytest.raises(UnsupportedSyntaxError, match=re.escape("Break syntax is not supported in JIT function")) as e:
        brk[1](out, 4)
    assert_reported(e.value, "Break syntax is not supported in JIT function", "break")
    with pytest.raises(UnsupportedSyntaxError, match=re.escape("Continue syntax is not supported in JIT function")) as e:
        cont[1](out, 4)
    assert_reported(e.value, "Continue syntax is not supported in JIT function", "continue")
    with pytest.raises(CodegenError, match=re.escape("Return statement is not allowed in nested blocks")) as e:
        ret[1](out, 4)
    assert_reported(e.value, "Return statement is not allowed in nested blocks", "return")


# 2. `if row_idx >= num_rows: pass` bounds guard ------------------------------------------------------------------
def test_bounds_guard_with_pass_is_harmless():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int, C: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [num_rows, C])
        o_gm = asc2.tensor(out_ptr, [num_rows, C])
        for row_idx in asc2.range(asc2.block_idx(), num_rows, asc2.block_num()):
            if row_idx >= num_rows:
                pass
            asc2.store(asc2.abs(asc2.load(x_gm, [1, C], offsets=[row_idx, 0])), o_gm, offsets=[row_idx, 0])
    x = randn((10, 64), np.float32)
    out = np.zeros_like(x)
    k[4](x, out, 10, 64)
    np.testing.assert_array_equal(out, np.abs(x))


# 3. tiling softmax with sub-row chunks ----------------------------------------------------------------------------
@asc2.jit
def chunked_softmax_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int,
                           C: asc.ConstExpr[int], CHUNK: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, C])
    o_gm = asc2.tensor(out_ptr, [rows, C])
    for r in asc2.range(asc2.block_idx(), rows, asc2.block_num(), parallel=True):
        for c in asc.static_range(C // CHUNK):
            t = asc2.load(x_gm, [1, CHUNK], offsets=[r, c * CHUNK])
            asc2.store(asc2.softmax(t), o_gm, offsets=[r, c * CHUNK])


def test_softmax_needs_the_full_row_in_one_tile():
    x = torch.randn(8, 128)
    out = torch.zeros_like(x)
    chunked_softmax_kernel[4](x, out, 8, 128, 128)     # the fix: one tile per full row
    torch.testing.assert_close(out, torch.softmax(x, dim=-1), atol=1e-5, rtol=1e-5)
    chunked_softmax_kernel[4](x, out, 8, 128, 32)      # the mistake: each chunk is normalised on its own
    sums = out.reshape(8, 4, 32).sum(dim=-1)
    torch.testing.assert_close(sums, torch.ones(8, 4))
    assert not torch.allclose(out, torch.softmax(x, dim=-1), atol=1e-3)


# 4. a dynamic softmax norm dim --------------------------------------------------------------------------------------
def test_dynamic_softmax_norm_dim_is_rejected_with_the_constexpr_fix():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int, num_cols: int):
        x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
        rows = asc2.load(x_gm, [1, num_cols], offsets=[0, 0])
    with pytest.raises(CodegenError, match=re.escape("All values in 'shape' must be integers")) as e:
        k[1](np.zeros((4, 64), np.float32), np.zeros((4, 64), np.float32), 4, 64)
    assert_reported(e.value, "All values in 'shape' must be integers", "rows = asc2.load(x_gm, [1, num_cols]")
    assert "asc.ConstExpr[int]" in hint_of(e.value)


# 5. numpy arrays on a C310 platform ----------------------------------------------------------------------------------
@asc2.jit
def rms_norm_full_row_kernel(x_ptr, gamma_ptr, out_ptr,
                             num_rows: int,
                             num_cols: asc.ConstExpr[int],
                             epsilon: asc.ConstExpr[float]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
    gamma_gm_2d = asc2.tensor(gamma_ptr, [1, num_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_cols])
    for row in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(),
                          unroll_factor=2, parallel=True):
        x_row = asc2.load(x_gm, [1, num_cols], offsets=[row, 0])
        x_row_f32 = x_row.to(asc.float32)
        sum_sq = asc2.reduce_sum(x_row_f32 * x_row_f32)
        inv_rms = 1.0 / asc2.sqrt(sum_sq / num_cols + epsilon)
        gamma_row = asc2.load(gamma_gm_2d, [1, num_cols], offsets=[0, 0])
        gamma_row_f32 = gamma_row.to(asc.float32)
        out_f32 = x_row_f32 * gamma_row_f32 * inv_rms
        asc2.store(out_f32.to(x_row.dtype), out_gm, offsets=[row, 0])


def test_numpy_inputs_are_not_zeroed_on_c310():
    assert config.platform_to_arch(config.current_platform()) == config.CompilationArch.C310
    x = randn((8, 256), np.float32, seed=41)
    g = (np.abs(randn(256, np.float32, seed=42)) + 0.5)
    out_np = np.zeros_like(x)
    rms_norm_full_row_kernel[4](x, g, out_np, 8, 256, 1e-5)
    out_t = torch.zeros(8, 256)
    rms_norm_full_row_kernel[4](torch.from_numpy(x), torch.from_numpy(g), out_t, 8, 256, 1e-5)
    np.testing.assert_array_equal(out_np, out_t.numpy())
    ref = x / np.sqrt((x.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-5) * g
    np.testing.assert_allclose(out_np, ref, atol=1e-4, rtol=1e-4)


# 6. loop-carried scalar seeded with a Python literal ------------------------------------------------------------------
def test_literal_seeded_accumulator_names_the_variable_and_the_seed_fix():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_tiles: int, tile_cols: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [1, num_tiles * tile_cols])
        sum_sq = 0.0
        for tile_id in asc2.range(num_tiles, unroll_factor=2):
            x = asc2.load(x_gm, [1, tile_cols], offsets=[0, tile_id * tile_cols])
            sum_sq = sum_sq + asc2.reduce_sum(x * x)
    with pytest.raises(CodegenError, match=re.escape("'sum_sq' was re-assigned to an object with different type: initial type is ")) as e:
        k[1](np.zeros((1, 128), np.float32), np.zeros(8, np.float32), 2, 64)
    assert_reported(e.value, "'sum_sq' was re-assigned to an object with different type: initial type is "
                    "float, new type is PlainValue",
                    "for tile_id in asc2.range(num_tiles, unroll_factor=2):")
    assert "sum_sq = asc2.reduce_sum(asc2.full(" in hint_of(e.value)


# 7. streaming RMSNorm with wide full / mask ------------------------------------------------------------------------------
@asc2.jit
def wide_streaming_rms_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int,
                              num_cols: int, num_tiles: int, tile_cols: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [num_rows, num_tiles * tile_cols])
    out_gm = asc2.tensor(out_ptr, [num_rows, num_tiles * tile_cols])
    for row in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(), parallel=True):
        sum_sq = asc2.reduce_sum(asc2.full([1, tile_cols], 0.0, dtype=asc.float32))
        for tile_id in asc2.range(num_tiles):
            x = asc2.load(x_gm, [1, tile_cols], offsets=[row, tile_id * tile_cols])
            sum_sq = sum_sq + asc2.reduce_sum(x * x)
        inv_rms = asc2.full([1, tile_cols], 1.0 / asc2.sqrt(sum_sq / num_cols + 1e-5), dtype=asc.float32)
        for tile_id in asc2.range(num_tiles, parallel=True):
            x = asc2.load(x_gm, [1, tile_cols], offsets=[row, tile_id * tile_cols])
            with asc2.mask(count=tile_cols):
                asc2.store(x * inv_rms, out_gm, offsets=[row, tile_id * tile_cols])


def test_wide_full_and_mask_in_a_hand_rolled_streaming_rms_norm_are_correct():
    x = randn((6, 1024), np.float32, seed=43)
    out = np.zeros_like(x)
    wide_streaming_rms_kernel[3](x, out, 6, 1024, 4, 256)   # tile_cols = 256 > 64
    ref = x / np.sqrt((x.astype(np.float64) ** 2).mean(axis=1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out, ref, atol=1e-5, rtol=1e-5)


# 8. pure scalar stores from a multi-core kernel --------------------------------------------------------------------------
def test_scalar_stores_from_every_block_land():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int, C: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [num_rows, C])
        o_gm = asc2.tensor(out_ptr, [num_rows, C])
        for r in asc2.range(asc2.block_idx(), num_rows, asc2.block_num()):
            for c in asc2.range(C):
                asc2.store(asc2.load(x_gm, offsets=[r, c]) * 2.0, o_gm, offsets=[r, c])
    x = randn((16, 8), np.float32, seed=44)
    out = np.zeros_like(x)
    k[8](x, out, 16, 8)
    np.testing.assert_array_equal(out, x * 2)   # rows of even blocks included


# 9. storing a scalar reduction result directly ------------------------------------------------------------------------
@asc2.jit
def row_sum_store_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_rows: int,
                         C: asc.ConstExpr[int], PAD: asc.ConstExpr[int], HOW: asc.ConstExpr[str]):
    x_gm = asc2.tensor(x_ptr, [num_rows, C])
    o_gm = asc2.tensor(out_ptr, [num_rows, PAD])
    for i in asc2.range(asc2.block_idx(), num_rows, asc2.block_num(), unroll_factor=2, parallel=True):
        s = asc2.reduce_sum(asc2.load(x_gm, [1, C], offsets=[i, 0]))
        if HOW == "scalar":
            asc2.store(s, o_gm, offsets=[i, 0])
        else:
            asc2.store(asc2.full([1, PAD], s, dtype=asc.float32), o_gm, offsets=[i, 0])


def test_storing_a_scalar_reduction_result():
    x = randn((12, 64), np.float32, seed=45)
    out = np.zeros((12, 8), np.float32)
    row_sum_store_kernel[4](x, out, 12, 64, 8, "full")          # the fix: wrap with asc2.full([1, pad], ...)
    np.testing.assert_allclose(out, np.repeat(x.sum(axis=1, keepdims=True), 8, axis=1), rtol=1e-5, atol=1e-5)
    out[:] = 0
    row_sum_store_kernel[4](x, out, 12, 64, 8, "scalar")        # pyasc v2 stores a scalar with set_value
    np.testing.assert_allclose(out[:, 0], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    assert np.all(out[:, 1:] == 0)
    with pytest.raises(CodegenError, match=re.escape("Last dimension of tile must be aligned by 32 bytes, got 4 x 4 bytes")) as e:  # a too-narrow tile is the real alignment error
        row_sum_store_kernel[4](x, np.zeros((12, 4), np.float32), 12, 64, 4, "full")
    assert_reported(e.value, "Last dimension of tile must be aligned by 32 bytes, got 4 x 4 bytes",
                    "asc2.store(asc2.full([1, PAD], s")
    assert "multiple of 8 elements" in hint_of(e.value)


# 10. scipy (or any non-asc function) used inside a kernel ------------------------------------------------------------------
def test_host_library_functions_inside_a_kernel_are_rejected():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        c = np.sqrt(2.0)
    with pytest.raises(CodegenError, match=re.escape("Unsupported function referenced: <ufunc 'sqrt'>")) as e:
        k[1](np.zeros(8, np.float32))
    assert_reported(e.value, "Unsupported function referenced: <ufunc 'sqrt'>", "c = np.sqrt(2.0)")
    assert "module-level constant" in hint_of(e.value)


# 11. numpy arrays as matmul inputs ------------------------------------------------------------------------------------------
@asc2.jit
def small_matmul_kernel(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress,
                        M: asc.ConstExpr[int], K: asc.ConstExpr[int], N: asc.ConstExpr[int]):
    a = asc2.load(asc2.tensor(a_ptr, [M, K]), [M, K], offsets=[0, 0], location=asc2.TileLocation.L0A)
    b = asc2.load(asc2.tensor(b_ptr, [K, N]), [K, N], offsets=[0, 0], location=asc2.TileLocation.L0B)
    asc2.store(a @ b, asc2.tensor(c_ptr, [M, N]), offsets=[0, 0])


def test_numpy_matmul_inputs_are_not_zeroed():
    a = randn((32, 64), np.float16, seed=46)
    b = randn((64, 16), np.float16, seed=47)
    c = np.zeros((32, 16), np.float32)
    small_matmul_kernel[1](a, b, c, 32, 64, 16)
    assert np.any(c != 0)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), atol=1e-2, rtol=1e-2)


# 12. running with -v Ascend910B1 ---------------------------------------------------------------------------------------------
def test_matmul_on_a_c220_platform_runs_and_the_report_names_the_platform():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    a = torch.randn(16, 32).half()
    b = torch.randn(32, 16).half()
    c = torch.zeros(16, 16)
    small_matmul_kernel[1](a, b, c, 16, 32, 16)
    torch.testing.assert_close(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2)
    assert small_matmul_kernel.last_launch["platform"] == "Ascend910B1"


# 13. num_cols: int used in a load shape -----------------------------------------------------------------------------------------
def test_runtime_int_in_a_load_shape_names_constexpr():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, num_rows: int, num_cols: int):
        x_gm = asc2.tensor(x_ptr, [num_rows, num_cols])
        row = asc2.load(x_gm, [1, num_cols], offsets=[0, 0])
    with pytest.raises(CodegenError, match=re.escape("All values in 'shape' must be integers")) as e:
        k[1](np.zeros((4, 64), np.float32), 4, 64)
    assert_reported(e.value, "All values in 'shape' must be integers", "row = asc2.load(x_gm, [1, num_cols]")
    assert "asc.ConstExpr[int]" in hint_of(e.value)


# 14. skipping asc.ceildiv for tiling ----------------------------------------------------------------------------------------------
@asc2.jit
def tiled_abs_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress,
                     size: int, tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
        tile_offset = base_offset + i * tile_size
        x = asc2.load(x_gm, [tile_size], offsets=[tile_offset])
        out = asc2.abs(x)
        asc2.store(out, out_gm, offsets=[tile_offset])


def test_ceildiv_tiling_covers_the_tail_and_floor_division_leaves_it_unwritten():
    size, tile = 6100, 128   # 48 tiles, the last one partial: 3 per block on 16 blocks
    x = randn(size, np.float16, seed=48)
    out = np.zeros_like(x)
    tiled_abs_kernel[CORE_NUM](x, out, size, tile, asc.ceildiv(asc.ceildiv(size, tile), CORE_NUM))
    np.testing.assert_array_equal(out, np.abs(x))
    assert tiled_abs_kernel.last_launch["warnings"] == []
    out[:] = 0
    tiled_abs_kernel[CORE_NUM](x, out, size, tile, (size // tile) // CORE_NUM)   # the mistake
    covered = (size // tile) // CORE_NUM * tile * CORE_NUM
    np.testing.assert_array_equal(out[:covered], np.abs(x[:covered]))
    assert np.all(out[covered:] == 0) and covered < size
    assert tiled_abs_kernel.last_launch["warnings"] == [
        f"'out_ptr': {size - covered} of {size} element(s) were never written by any block (the first uncovered "
        f"range is [{covered}, {size})); if this is an output, check that the tiling covers all of it (e.g. a loop "
        "bound from a floor division drops the tail: use asc.ceildiv)"]


# 15. range() instead of asc2.range() ------------------------------------------------------------------------------------------------
def test_python_range_in_a_kernel_is_asc2_range():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, T: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [size])
        o_gm = asc2.tensor(out_ptr, [size])
        for i in range(asc2.block_idx(), asc.ceildiv(size, T), asc2.block_num(), unroll_factor=2, parallel=True):
            asc2.store(asc2.abs(asc2.load(x_gm, [T], offsets=[i * T])), o_gm, offsets=[i * T])
    x = randn(3000, np.float32, seed=49)
    out = np.zeros_like(x)
    k[4](x, out, x.size, 256)
    np.testing.assert_array_equal(out, np.abs(x))
    assert "unroll_factor=2, parallel=True" in k.ir(x, out, x.size, 256)


# 16. rng.random(..., dtype=np.float16) ---------------------------------------------------------------------------------------------
def test_float16_test_data_generated_as_float32_then_cast():
    g = np.random.default_rng(seed=2026)
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.random(64, dtype=np.float16)               # the mistake fails on the host, before any kernel
    x = (g.random(4096, dtype=np.float32) * 10 - 5).astype(np.float16)   # the fix
    out = np.zeros_like(x)
    tiled_abs_kernel[CORE_NUM](x, out, x.size, 128, asc.ceildiv(asc.ceildiv(x.size, 128), CORE_NUM))
    np.testing.assert_array_equal(out, np.abs(x))


# 17. np.erf for the host reference; asc2.erf accuracy -----------------------------------------------------------------------------
@asc2.jit
def erf_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    o_gm = asc2.tensor(out_ptr, [size])
    for i in asc2.range(asc2.block_idx(), asc.ceildiv(size, T), asc2.block_num(), parallel=True):
        asc2.store(asc2.erf(asc2.load(x_gm, [T], offsets=[i * T])), o_gm, offsets=[i * T])


def test_erf_matches_math_erf_in_float32_and_float16():
    assert not hasattr(np, "erf")
    _verf = np.vectorize(math.erf)
    x32 = np.linspace(-4, 4, 2048, dtype=np.float32)
    out = np.zeros_like(x32)
    erf_kernel[8](x32, out, x32.size, 128)
    np.testing.assert_allclose(out, _verf(x32), atol=1e-6, rtol=1e-6)   # not the field report's 4.7 error
    x16 = x32.astype(np.float16)
    out16 = np.zeros_like(x16)
    erf_kernel[8](x16, out16, x16.size, 128)
    np.testing.assert_allclose(out16.astype(np.float32), _verf(x16.astype(np.float32)), atol=1e-3, rtol=1e-3)


# 18. tolerance too tight for the simulator -----------------------------------------------------------------------------------------
def test_elementwise_results_round_once_per_op():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, T: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [size])
        o_gm = asc2.tensor(out_ptr, [size])
        for i in asc2.range(asc2.block_idx(), asc.ceildiv(size, T), asc2.block_num(), parallel=True):
            x = asc2.load(x_gm, [T], offsets=[i * T])
            asc2.store(x * x + x * 0.5 - 1.0, o_gm, offsets=[i * T])
    for dtype in (np.float32, np.float16):
        x = randn(4096, dtype, seed=50)
        out = np.zeros_like(x)
        k[8](x, out, x.size, 256)
        # each op computed in float32 and rounded to the tile dtype: exactly numpy's per-op result
        xf = x.astype(np.float32)
        sq = (xf * xf).astype(dtype).astype(np.float32)
        half = (xf * np.float32(0.5)).astype(dtype).astype(np.float32)
        expected = ((sq + half).astype(dtype).astype(np.float32) - np.float32(1)).astype(dtype)
        np.testing.assert_array_equal(out, expected)


# 19. testing many / large shapes -------------------------------------------------------------------------------------------------
def test_a_million_element_add_is_quick():
    @asc2.jit
    def add_kernel(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int,
                   tile_size: asc.ConstExpr[int], tile_per_block: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [size])
        y_gm = asc2.tensor(y_ptr, [size])
        o_gm = asc2.tensor(out_ptr, [size])
        base = asc2.block_idx() * tile_size * tile_per_block
        for i in asc2.range(tile_per_block, unroll_factor=2, parallel=True):
            off = base + i * tile_size
            asc2.store(asc2.load(x_gm, [tile_size], offsets=[off]) + asc2.load(y_gm, [tile_size], offsets=[off]),
                       o_gm, offsets=[off])
    n = 1 << 20
    x = randn(n, np.float16, seed=51)
    y = randn(n, np.float16, seed=52)
    out = np.zeros_like(x)
    args = (x, y, out, n, 1024, asc.ceildiv(asc.ceildiv(n, 1024), CORE_NUM))
    add_kernel[CORE_NUM](*args)            # trace
    start = time.perf_counter()
    add_kernel[CORE_NUM](*args)
    elapsed = time.perf_counter() - start
    np.testing.assert_array_equal(out, x + y)
    assert elapsed < 2.0, f"1M-element add took {elapsed:.2f} s"


# 20. asc2.range without unroll_factor=2 ------------------------------------------------------------------------------------------
@asc2.jit
def unroll_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, size: int, tile_size: asc.ConstExpr[int],
                  tile_per_block: asc.ConstExpr[int], UF: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [size])
    out_gm = asc2.tensor(out_ptr, [size])
    base_offset = asc2.block_idx() * tile_size * tile_per_block
    for i in asc2.range(tile_per_block, unroll_factor=UF, parallel=True):
        tile_offset = base_offset + i * tile_size
        asc2.store(asc2.abs(asc2.load(x_gm, [tile_size], offsets=[tile_offset])), out_gm, offsets=[tile_offset])


def test_unroll_factor_2_is_correct_and_cheaper_in_ticks():
    x = randn(8192, np.float16, seed=53)
    ticks = {}
    for uf in (1, 2):
        out = np.zeros_like(x)
        unroll_kernel[CORE_NUM](x, out, x.size, 128, 4, uf)
        np.testing.assert_array_equal(out, np.abs(x))
        ticks[uf] = unroll_kernel.last_launch["ticks"]
    assert ticks[2] < ticks[1]


# 21. parallel=True on a loop with a carried accumulator: legal (pyasc accepts it), run in order, warned --------------------------
def test_parallel_accumulator_loop_gives_the_sequential_sum_and_a_warning():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, num_tiles: int, tile_cols: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [1, num_tiles * tile_cols])
        sum_sq = asc2.reduce_sum(asc2.full([1, tile_cols], 0.0, dtype=asc.float32))
        for tile_id in asc2.range(num_tiles, unroll_factor=2, parallel=True):
            x = asc2.load(x_gm, [1, tile_cols], offsets=[0, tile_id * tile_cols])
            sum_sq = sum_sq + asc2.reduce_sum(x * x)
        asc2.store(sum_sq, asc2.tensor(out_ptr, [1]), offsets=[0])
    x = randn((1, 5 * 64), np.float32, seed=21)
    out = np.zeros(1, np.float32)
    k[1](x, out, 5, 64)
    np.testing.assert_allclose(out[0], float((x.astype(np.float64) ** 2).sum()), rtol=1e-5)
    (w,) = [w for w in k.last_launch["warnings"] if "parallel=True" in w]
    assert "carries 'sum_sq'" in w and "drop parallel=True" in w


def test_parallel_loop_updating_a_matmul_accumulator_in_place_is_not_warned():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress, c_ptr: asc.GlobalAddress, kt: int):
        a_gm = asc2.tensor(a_ptr, [16, kt * 16])
        b_gm = asc2.tensor(b_ptr, [kt * 16, 16])
        acc = asc2.zeros_acc([16, 16], asc.float32)
        for i in asc2.range(kt, unroll_factor=2, parallel=True):
            a_i = asc2.load(a_gm, [16, 16], offsets=[0, i * 16], location=asc2.TileLocation.L0A)
            b_i = asc2.load(b_gm, [16, 16], offsets=[i * 16, 0], location=asc2.TileLocation.L0B)
            asc2.matmul_acc(a_i, b_i, acc)
        asc2.store(acc, asc2.tensor(c_ptr, [16, 16]), offsets=[0, 0])
    a = randn((16, 64), np.float16, seed=1)
    b = randn((64, 16), np.float16, seed=2)
    c = np.zeros((16, 16), np.float32)
    k[1](a, b, c, 4)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-3, atol=1e-3)
    assert not [w for w in k.last_launch["warnings"] if "parallel=True" in w]


# 22. scalar * tile ordering ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("expr,dunder", [("0.044715 * x", "__rmul__"), ("1.0 + x", "__radd__"),
                                         ("1.0 - x", "__rsub__"), ("1.0 / x", "__rtruediv__")])
def test_scalar_on_the_left_of_a_tile_is_rejected_with_the_fix(expr, dunder):
    import linecache
    src = ("def gelu_kernel(x_ptr, out_ptr, size: int):\n"
           "    x = asc2.load(asc2.tensor(x_ptr, [size]), [64], offsets=[0])\n"
           f"    y = {expr}\n")
    fname = f"/virtual/tests/compiler/test_mistake_{dunder}.py"
    linecache.cache[fname] = (len(src), None, src.splitlines(True), fname)
    ns = {"asc": asc, "asc2": asc2}
    exec(compile(src, fname, "exec"), ns)
    k = asc2.jit(ns["gelu_kernel"])
    with pytest.raises(CodegenError, match=re.escape(f"'Tile' object has no attribute '{dunder}'")) as e:
        k[1](np.zeros(64, np.float32), np.zeros(64, np.float32), 64)
    text = str(e.value)
    assert f"AttributeError: 'Tile' object has no attribute '{dunder}'" in text
    assert f"{fname}:3:" in text and f"y = {expr}" in text
    assert "put the tile on the left" in hint_of(e.value)

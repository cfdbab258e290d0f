"""Sanitizers: faults the hardware would commit silently are errors or launch-report warnings at the
kernel's line, and legal uses of tails, guards, loops and platforms stay clean."""
from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import asc
import asc2
import asc.runtime.config as config
from asc.sim.executor import KernelRuntimeError

from kernel_checks import assert_reported, randn

HERE = os.path.abspath(__file__)


def line_of(kernel, text):
    """The line of this file holding ``text`` inside ``kernel``'s source."""
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


def warnings_of(kernel):
    return kernel.last_launch["warnings"]


def one_warning(kernel, fragment):
    found = [w for w in warnings_of(kernel) if fragment in w]
    assert len(found) == 1, warnings_of(kernel)
    return found[0]


def at_line(warning, kernel, text):
    """The warning is located at the line of ``text`` in ``kernel`` (file:line:col prefix)."""
    m = re.match(r"(?P<file>\S+\.py):(?P<line>\d+):\d+: ", warning)
    assert m, warning
    assert os.path.abspath(m.group("file")) == HERE and int(m.group("line")) == line_of(kernel, text), warning
    return True


# -- 1. a load (or store) wholly outside its tensor ---------------------------------------------------------------
@asc2.jit
def window_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int],
                  tiles: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    for i in asc2.range(tiles):
        off = (asc2.block_idx() * tiles + i) * T
        t = asc2.load(x_gm, [T], offsets=[off])
        asc2.store(t * 2.0, o_gm, offsets=[off])


def test_a_tile_past_the_end_is_padding_when_loaded_and_its_store_an_error_on_c310():
    x = randn(1000, np.float32, seed=1)
    out = np.zeros_like(x)
    # 4 blocks x 2 tiles of 128: tiles 0..7 start at 0..896 (the last one partial); 5 blocks reach 1024.
    window_kernel[4](x, out, 1000, 128, 2)
    np.testing.assert_array_equal(out, x * 2)
    assert warnings_of(window_kernel) == []    # a tail partly inside is clipped, not an error
    out[:] = 0
    # The loads at 1024 and 1152 read nothing (pyasc's lowering clamps their length at zero); the stores get a
    # negative length, which loses the launch's output on C310.
    with pytest.raises(KernelRuntimeError, match=re.escape(
            "store of a [128] tile to tensor 'out_ptr' (shape [1000]) at offsets [1024] in block 4; [1152] in "
            "block 4 lies wholly past the end of the tensor")) as e:
        window_kernel[5](x, out, 1000, 128, 2)
    assert_reported(e.value, "loses the launch's output", "asc2.store(t * 2.0, o_gm, offsets=[off])")
    assert "in block(s) [4] of 5" in str(e.value)
    assert "asc.ceildiv(size, tile)" in str(e.value)


def test_a_store_past_the_end_on_c220_writes_nothing_and_warns_naming_store_block_and_offset():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = randn(1000, np.float32, seed=1)
    out = np.zeros_like(x)
    window_kernel[5](x, out, 1000, 128, 2)
    np.testing.assert_array_equal(out, x * 2)   # blocks 0..3 wrote everything; block 4's tiles wrote nothing
    (w,) = warnings_of(window_kernel)
    assert at_line(w, window_kernel, "asc2.store(t * 2.0, o_gm, offsets=[off])")
    assert "at offsets [1024] in block 4; [1152] in block 4 lies wholly past the end" in w
    assert "writes nothing on this platform" in w and "asc.ceildiv(size, tile)" in w
    assert window_kernel.last_launch["ticks"] > 0


def test_checks_off_turns_the_past_the_end_store_error_into_a_warning(monkeypatch):
    monkeypatch.setenv("ASC_CHECKS", "off")
    x = randn(1000, np.float32, seed=1)
    out = np.zeros_like(x)
    window_kernel[5](x, out, 1000, 128, 2)
    np.testing.assert_array_equal(out, x * 2)
    (w,) = warnings_of(window_kernel)
    assert "lies wholly past the end of the tensor" in w and "loses the launch's output" in w
    assert window_kernel.last_launch["ticks"] > 0


def test_a_window_starting_exactly_at_the_end_is_outside_and_a_guard_keeps_the_kernel_clean():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, GUARD: asc.ConstExpr[bool]):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        off = asc2.block_idx() * 64
        if GUARD:
            if off < n:
                asc2.store(asc2.load(x_gm, [64], offsets=[off]), o_gm, offsets=[off])
        else:
            asc2.store(asc2.load(x_gm, [64], offsets=[off]), o_gm, offsets=[off])
    x = randn(128, np.float32, seed=2)
    out = np.zeros_like(x)
    k[3](x, out, 128, True)
    np.testing.assert_array_equal(out, x)
    assert warnings_of(k) == []
    with pytest.raises(KernelRuntimeError, match=r"at offsets \[128\] in block 2 lies wholly past the end") as e:
        k[3](x, out, 128, False)
    assert "in block(s) [2] of 3" in str(e.value)
    # one element more and block 2's window starts inside: a clipped tail, no error
    x = randn(129, np.float32, seed=2)
    out = np.zeros_like(x)
    k[3](x, out, 129, False)
    np.testing.assert_array_equal(out, x)
    assert warnings_of(k) == []


def test_a_2d_load_whose_columns_start_past_the_row_is_an_error():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        x_gm = asc2.tensor(x_ptr, [4, 40])
        o_gm = asc2.tensor(out_ptr, [4, 64])
        asc2.store(asc2.load(x_gm, [4, 32], offsets=[0, 40]), o_gm, offsets=[0, 0])
    with pytest.raises(KernelRuntimeError, match=re.escape(
            "load of tensor 'x_ptr' (shape [4, 40]) at offsets [0, 40] with tile shape [4, 32] starts past the end")) as e:
        k[1](np.zeros((4, 40), np.float32), np.zeros((4, 64), np.float32))
    assert_reported(e.value, "starts past the end of the tensor", "asc2.load(x_gm, [4, 32], offsets=[0, 40])")


# -- 2. 2-D stores whose columns run past the row ------------------------------------------------------------------
def test_a_2d_april_store_past_the_row_is_an_error_unless_real_shape_limits_it():
    # (the August copy_out clips the columns instead: test_august_copy_out_clip.py)
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, REAL: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [4, 64])
        o_gm = asc2.tensor(out_ptr, [4, 64])
        t = asc2.load(x_gm, [4, 64], offsets=[0, 0])
        if REAL:
            asc2.store(t, o_gm, offsets=[0, 48], real_shape=[4, REAL])
        else:
            asc2.store(t, o_gm, offsets=[0, 48])
    x = randn((4, 64), np.float32, seed=3)
    out = np.zeros_like(x)
    k[1](x, out, 16)             # real_shape keeps the write inside the row
    np.testing.assert_array_equal(out[:, 48:], x[:, :16])
    assert np.all(out[:, :48] == 0)
    with pytest.raises(KernelRuntimeError, match=re.escape(
            "2-D store of a [4, 64] tile to tensor 'out_ptr' (shape [4, 64]) at offsets [0, 48] runs past the end "
            "of the row")) as e:
        k[1](x, out, 0)
    assert_reported(e.value, "the columns past the row land in the next row", "asc2.store(t, o_gm, offsets=[0, 48])")
    with pytest.raises(KernelRuntimeError, match=r"with real_shape \[4, 32\] runs past the end of the row") as e:
        k[1](x, out, 32)         # a real_shape wider than the rest of the row spills too
    assert_reported(e.value, "runs past the end of the row", "asc2.store(t, o_gm, offsets=[0, 48], real_shape=[4, REAL])")


# -- 3. a dependency through global memory inside an un-barriered loop ---------------------------------------------
@asc2.jit
def prefix_kernel(buf_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int], PARALLEL: asc.ConstExpr[bool]):
    g = asc2.tensor(buf_ptr, [n])
    for i in asc2.range(1, n // T, parallel=PARALLEL):
        prev = asc2.load(g, [T], offsets=[(i - 1) * T])          # what the previous iteration stored
        asc2.store(prev + 1.0, g, offsets=[i * T])


def test_parallel_loop_loading_what_another_iteration_stores_is_an_error_naming_both_lines():
    buf = np.zeros(4 * 64, np.float32)
    prefix_kernel[1](buf, buf.size, 64, False)   # with the loop-end barrier: a correct sequential chain
    np.testing.assert_array_equal(buf.reshape(4, 64), np.repeat(np.arange(4, dtype=np.float32)[:, None], 64, 1))
    assert warnings_of(prefix_kernel) == []
    with pytest.raises(KernelRuntimeError, match=re.escape(
            "which another iteration of the un-barriered loop at line "
            f"{line_of(prefix_kernel, 'for i in asc2.range')} (parallel=True, or gm_barrier=False)")) as e:
        prefix_kernel[1](np.zeros(4 * 64, np.float32), 4 * 64, 64, True)
    text = str(e.value)
    assert_reported(e.value, "store to 'buf_ptr' writes element 64", "asc2.store(prev + 1.0, g, offsets=[i * T])")
    assert f"(the load at line {line_of(prefix_kernel, 'prev = asc2.load')})" in text
    assert "gm_barrier=True" in text and "drop parallel=True" in text


def test_august_default_loop_is_un_barriered_and_gm_barrier_true_makes_the_chain_legal():
    @asc2.jit
    def k(buf_ptr: asc2.GlobalAddress, n: int, BARRIER: asc2.ConstExpr):
        g = asc2.global_tensor(buf_ptr, [n])
        if BARRIER:
            for i in range(1, n // 64, gm_barrier=True):
                asc2.copy_out(asc2.copy_in(g, [(i - 1) * 64], [64]) + 1.0, g, [i * 64])
        else:
            for i in range(1, n // 64):
                asc2.copy_out(asc2.copy_in(g, [(i - 1) * 64], [64]) + 1.0, g, [i * 64])
    buf = np.zeros(3 * 64, np.float32)
    k[1](buf, buf.size, True)
    np.testing.assert_array_equal(buf[128:], 2.0)
    with pytest.raises(KernelRuntimeError, match=r"load of 'buf_ptr' reads element 0, which another iteration|"
                       r"store to 'buf_ptr' writes element 64, which another iteration") as e:
        k[1](np.zeros(3 * 64, np.float32), 3 * 64, False)
    assert "un-barriered loop at line " + str(line_of(k, "for i in range(1, n // 64):")) in str(e.value)


@asc2.jit
def carried_kernel(x_ptr: asc.GlobalAddress, acc_ptr: asc.GlobalAddress, rows: int, C: asc.ConstExpr[int],
                   tiles: asc.ConstExpr[int], FEEDBACK: asc.ConstExpr[bool]):
    x_gm = asc2.tensor(x_ptr, [rows, C * tiles])
    a_gm = asc2.tensor(acc_ptr, [rows, C * tiles])
    r = asc2.block_idx()
    total = asc2.zeros([1, C], dtype=asc.float32)
    for j in asc2.range(tiles, parallel=True):
        t = asc2.load(x_gm, [1, C], offsets=[r, j * C])
        if FEEDBACK:
            t = t + asc2.load(a_gm, [1, C], offsets=[r, ((j + 1) % tiles) * C])   # the next iteration's output
        total = total + t
        asc2.store(total, a_gm, offsets=[r, j * C])


def test_a_carried_value_in_a_parallel_loop_runs_in_order_and_the_gm_check_still_applies():
    x = randn((4, 4 * 64), np.float32, seed=4)
    acc = np.zeros_like(x)
    carried_kernel[4](x, acc, 4, 64, 4, False)
    expected = np.cumsum(x.reshape(4, 4, 64), axis=1).reshape(4, -1)
    np.testing.assert_allclose(acc, expected, rtol=1e-5, atol=1e-5)
    assert not any("un-barriered" in w or "never written" in w for w in warnings_of(carried_kernel))
    with pytest.raises(KernelRuntimeError, match=r"store to 'acc_ptr' writes element \d+, which another iteration") as e:
        carried_kernel[4](x, np.zeros_like(x), 4, 64, 4, True)
    assert_reported(e.value, "(the load at line", "asc2.store(total, a_gm, offsets=[r, j * C])")


def test_parallel_loop_updating_each_tile_in_place_is_clean():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, n: int):
        g = asc2.tensor(buf_ptr, [n])
        for i in asc2.range(asc2.block_idx(), n // 64, asc2.block_num(), unroll_factor=2, parallel=True):
            asc2.store(asc2.load(g, [64], offsets=[i * 64]) * 3.0, g, offsets=[i * 64])
    buf = randn(8 * 64, np.float32, seed=5)
    ref = buf * 3
    k[2](buf, buf.size)
    np.testing.assert_array_equal(buf, ref)
    assert warnings_of(k) == []


# -- 4. a negative tensor dimension --------------------------------------------------------------------------------
def test_a_negative_runtime_length_is_an_error_at_the_tensor_line():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        for i in asc2.range(asc.ceildiv(n, 64)):
            asc2.store(asc2.load(x_gm, [64], offsets=[i * 64]), o_gm, offsets=[i * 64])
    x = randn(1024, np.float32, seed=6)
    out = np.zeros_like(x)
    with pytest.raises(KernelRuntimeError, match=re.escape("tensor 'x_ptr' has a negative dimension: shape [-1024]")) as e:
        k[1](x, out, -1024)
    assert_reported(e.value, "has a negative dimension", "x_gm = asc2.tensor(x_ptr, [n])")
    k[1](x, out, 0)   # an empty tensor is legal: the loop does nothing
    assert np.all(out == 0)


# -- 5. races between partially overlapping views of one buffer ---------------------------------------------------
@asc2.jit
def shift_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    b = asc2.block_idx()
    t = asc2.load(x_gm, [64], offsets=[b * 64])
    asc2.store(t + 1.0, o_gm, offsets=[b * 64])


def test_views_of_one_array_offset_by_a_few_elements_race():
    base = np.arange(4 * 64 + 8, dtype=np.float32)
    with pytest.raises(KernelRuntimeError, match=r"store to 'out_ptr' overwrites elements block \d read in the same "
                       r"launch") as e:
        shift_kernel[4](base[8:], base[:-8], 4 * 64)   # input = output shifted by 8 elements
    assert_reported(e.value, "blocks run concurrently", "asc2.store(t + 1.0, o_gm, offsets=[b * 64])")


def test_disjoint_views_of_one_array_do_not_race():
    base = np.arange(8 * 64, dtype=np.float32)
    expected = base[:256] + 1
    shift_kernel[4](base[:256], base[256:], 256)
    np.testing.assert_array_equal(base[256:], expected)
    assert warnings_of(shift_kernel) == []


# -- 6. reading an output before anything wrote it ----------------------------------------------------------------
@asc2.jit
def accumulate_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    b = asc2.block_idx()
    acc = asc2.load(o_gm, [64], offsets=[b * 64])             # the host's np.empty contents
    asc2.store(acc + asc2.load(x_gm, [64], offsets=[b * 64]), o_gm, offsets=[b * 64])


def test_loading_an_output_before_any_block_wrote_it_is_a_warning_at_the_line():
    x = randn(256, np.float32, seed=7)
    accumulate_kernel[4](x, np.empty_like(x), 256)
    w = one_warning(accumulate_kernel, "reads 256 element(s) no block wrote in this launch")
    assert "load of 'out_ptr'" in w and "np.empty" in w
    assert at_line(w, accumulate_kernel, "acc = asc2.load(o_gm")


def test_an_output_written_only_by_scalar_stores_is_an_output_too():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        o_gm = asc2.tensor(out_ptr, [64])
        acc = asc2.load(o_gm, [64], offsets=[0])                  # the host's np.empty contents
        total = asc2.reduce_sum(acc + asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0]))
        asc2.store(total, o_gm, offsets=[0])                      # a scalar store: out_ptr is the output
    x = randn(64, np.float32, seed=9)
    k[1](x, np.empty_like(x))
    w = one_warning(k, "reads 64 element(s) no block wrote in this launch")
    assert "load of 'out_ptr'" in w


def test_a_kernel_working_in_place_on_its_only_data_is_clean():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, n: int):
        g = asc2.tensor(buf_ptr, [n])
        b = asc2.block_idx()
        asc2.store(asc2.abs(asc2.load(g, [64], offsets=[b * 64])), g, offsets=[b * 64])
    buf = randn(256, np.float32, seed=8)
    ref = np.abs(buf)
    k[4](buf, 256)
    np.testing.assert_array_equal(buf, ref)
    assert warnings_of(k) == []


def test_storing_before_loading_back_is_clean():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        b = asc2.block_idx()
        asc2.store(asc2.load(x_gm, [64], offsets=[b * 64]), o_gm, offsets=[b * 64])
        asc2.store(asc2.load(o_gm, [64], offsets=[b * 64]) * 2.0, o_gm, offsets=[b * 64])
    x = randn(256, np.float32, seed=9)
    out = np.empty_like(x)
    k[4](x, out, 256)
    np.testing.assert_array_equal(out, x * 2)
    assert warnings_of(k) == []


# -- 7. output elements never written ------------------------------------------------------------------------------
def test_rows_dropped_by_a_floor_division_are_a_warning_with_count_and_first_range():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, R: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [rows, 64])
        o_gm = asc2.tensor(out_ptr, [rows, 64])
        for i in asc2.range(asc2.block_idx(), rows // R, asc2.block_num(), parallel=True):
            asc2.store(asc2.load(x_gm, [R, 64], offsets=[i * R, 0]), o_gm, offsets=[i * R, 0])
    x = randn((30, 64), np.float32, seed=10)
    out = np.zeros_like(x)
    k[2](x, out, 30, 4)          # 7 tiles of 4 rows: rows 28 and 29 are never written
    np.testing.assert_array_equal(out[:28], x[:28])
    assert warnings_of(k) == [
        "'out_ptr': 128 of 1920 element(s) were never written by any block (the first uncovered range is "
        "[1792, 1920)); if this is an output, check that the tiling covers all of it (e.g. a loop bound from a "
        "floor division drops the tail: use asc.ceildiv)"]
    k[2](x, out, 28, 4)          # an exact tiling of a smaller tensor over the same array: the tail rows
    assert "the first uncovered range is [1792, 1920)" in warnings_of(k)[0]
    k[2](x[:28].copy(), out[:28].copy(), 28, 4)
    assert warnings_of(k) == []


def test_a_hole_in_the_middle_is_reported_with_its_range():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, n: int):
        o_gm = asc2.tensor(out_ptr, [n])
        b = asc2.block_idx()
        if b != 2:
            asc2.store(asc2.full([64], 1.0, dtype=asc.float32), o_gm, offsets=[b * 64])
    k[4](np.zeros(256, np.float32), 256)
    assert "'out_ptr': 64 of 256 element(s) were never written by any block (the first uncovered range is " \
           "[128, 192))" in warnings_of(k)[0]


# -- 8. non-finite scalars -----------------------------------------------------------------------------------------
@asc2.jit
def scale_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, d: float):
    x_gm = asc2.tensor(x_ptr, [n])
    o_gm = asc2.tensor(out_ptr, [n])
    s = 1.0 / d
    r = asc2.sqrt(d)
    asc2.store(asc2.load(x_gm, [64], offsets=[0]) * s + r, o_gm, offsets=[0])


def test_float_division_by_zero_in_scalar_code_is_a_warning_at_the_line():
    x = randn(64, np.float32, seed=11)
    out = np.zeros_like(x)
    scale_kernel[1](x, out, 64, 0.0)
    w = one_warning(scale_kernel, "scalar 1.0 / 0.0 gives inf")
    assert at_line(w, scale_kernel, "s = 1.0 / d")
    scale_kernel[1](x, out, 64, -4.0)
    w = one_warning(scale_kernel, "scalar sqrt(-4.0) gives nan")
    assert at_line(w, scale_kernel, "r = asc2.sqrt(d)")
    scale_kernel[1](x, out, 64, 4.0)
    assert warnings_of(scale_kernel) == []
    np.testing.assert_allclose(out, x * 0.25 + 2.0, rtol=1e-6)


def test_scalar_overflow_to_inf_is_a_warning():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, v: float):
        x_gm = asc2.tensor(x_ptr, [64])
        o_gm = asc2.tensor(out_ptr, [64])
        big = v * v
        asc2.store(asc2.load(x_gm, [64], offsets=[0]) + big, o_gm, offsets=[0])
    k[1](np.zeros(64, np.float32), np.zeros(64, np.float32), 1e30)
    assert at_line(one_warning(k, "scalar 1.0000000150474662e+30 * 1.0000000150474662e+30 gives inf"), k, "big = v * v")


# -- 9. asc2.mask around a store -----------------------------------------------------------------------------------
def test_a_store_inside_a_mask_region_warns_that_it_writes_the_whole_tile():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, INSIDE: asc.ConstExpr[bool]):
        x_gm = asc2.tensor(x_ptr, [64])
        o_gm = asc2.tensor(out_ptr, [64])
        t = asc2.load(x_gm, [64], offsets=[0])
        if INSIDE:
            with asc2.mask(count=10):
                asc2.store(t * 2.0, o_gm, offsets=[0])
        else:
            with asc2.mask(count=10):
                y = asc2.where(asc2.full([64], 1, dtype=asc.int32) > 0, t * 2.0, t)
            asc2.store(t, o_gm, offsets=[0])
    x = randn(64, np.float32, seed=12)
    out = np.zeros_like(x)
    k[1](x, out, True)
    w = one_warning(k, "asc2.mask does not constrain stores: this store writes the whole tile")
    assert at_line(w, k, "asc2.store(t * 2.0, o_gm, offsets=[0])")
    k[1](x, out, False)
    assert warnings_of(k) == []


# -- 10. scalar results narrower than 32 bytes from many blocks into one output ---------------------------------------
@asc2.jit
def row_sums_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, rows: int, PAD: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [rows, 64])
    o_gm = asc2.tensor(out_ptr, [rows, PAD])
    r = asc2.block_idx()
    s = asc2.reduce_sum(asc2.load(x_gm, [1, 64], offsets=[r, 0]))
    asc2.store(s, o_gm, offsets=[r, 0])


def test_scalar_stores_of_neighbouring_blocks_in_one_32_byte_block_warn_with_the_padding_fix():
    x = randn((8, 64), np.float32, seed=13)
    out = np.zeros((8, 1), np.float32)
    row_sums_kernel[8](x, out, 8, 1)
    np.testing.assert_allclose(out[:, 0], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    w = one_warning(row_sums_kernel, "scalar stores to 'out_ptr' from different blocks share a 32-byte block")
    assert "(element 0 by block 0, element 1 by block 1)" in w and "shape [blocks, 8]" in w
    assert at_line(w, row_sums_kernel, "asc2.store(s, o_gm, offsets=[r, 0])")
    padded = np.zeros((8, 8), np.float32)
    row_sums_kernel[8](x, padded, 8, 8)    # the fix: each block's result in its own 32 bytes
    assert warnings_of(row_sums_kernel) == []
    np.testing.assert_allclose(padded[:, 0], x.sum(axis=1), rtol=1e-5, atol=1e-5)


# -- platforms: the checks hold on both --------------------------------------------------------------------------
@pytest.mark.parametrize("platform", [config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1])
def test_legal_tails_and_guards_are_clean_on_every_platform(platform):
    config.set_platform(config.Backend.Model, platform)
    x = randn(1000, np.float16, seed=14)
    out = np.zeros_like(x)

    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
        x_gm = asc2.tensor(x_ptr, [n])
        o_gm = asc2.tensor(out_ptr, [n])
        for i in asc2.range(asc2.block_idx(), asc.ceildiv(n, T), asc2.block_num(), unroll_factor=2, parallel=True):
            asc2.store(asc2.abs(asc2.load(x_gm, [T], offsets=[i * T])), o_gm, offsets=[i * T])
    k[8](x, out, 1000, 128)
    np.testing.assert_array_equal(out, np.abs(x))
    assert warnings_of(k) == []


# -- ASC_CHECKS=off: the same results, no bookkeeping --------------------------------------------------------------
def test_checks_off_computes_the_same_results(monkeypatch):
    x = randn(1000, np.float32, seed=15)
    ref = np.zeros_like(x)
    window_kernel[4](x, ref, 1000, 128, 2)
    monkeypatch.setenv("ASC_CHECKS", "off")
    out = np.zeros_like(x)
    window_kernel[4](x, out, 1000, 128, 2)
    np.testing.assert_array_equal(out, ref)
    out = np.zeros((8, 1), np.float32)
    row_sums_kernel[8](randn((8, 64), np.float32, seed=13), out, 8, 1)
    assert warnings_of(row_sums_kernel) == []     # the sanitizers are off
    with pytest.raises(KernelRuntimeError, match="of a buffer of 0 elements"):
        window_kernel[5](x, out.reshape(-1)[:0], 1000, 128, 2)   # bounds stay checked


# -- ASC_BLOCK_ORDER=shuffle[:SEED] --------------------------------------------------------------------------------
@asc2.jit
def atomic_sum_kernel(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
    x_gm = asc2.tensor(x_ptr, [asc2.block_num() * 64])
    o_gm = asc2.tensor(out_ptr, [64])
    asc2.atomic_add(asc2.load(x_gm, [64], offsets=[asc2.block_idx() * 64]), o_gm, [0])


def test_shuffled_block_order_is_seeded_reported_and_printed(monkeypatch, capfd):
    x = randn(16 * 64, np.float32, seed=16, scale=1e4)
    natural = np.zeros(64, np.float32)
    atomic_sum_kernel[16](x, natural)
    assert "block_order" not in atomic_sum_kernel.last_launch
    monkeypatch.setenv("ASC_BLOCK_ORDER", "shuffle:7")
    runs = []
    for _ in range(2):
        out = np.zeros(64, np.float32)
        atomic_sum_kernel[16](x, out)
        runs.append(out)
    assert atomic_sum_kernel.last_launch["block_order"] == "shuffle:7"
    np.testing.assert_array_equal(runs[0], runs[1])                    # the same seed, the same order
    np.testing.assert_allclose(runs[0], natural, rtol=1e-5, atol=1e-1)  # float atomics: only the order differs
    assert not np.array_equal(runs[0], natural)                         # ... and it does here
    assert "ASC_BLOCK_ORDER=shuffle:7" in capfd.readouterr().err
    with pytest.raises(KernelRuntimeError, match=r"\(blocks ran in the order of ASC_BLOCK_ORDER=shuffle:7\)"):
        window_kernel[5](randn(1000, np.float32), np.zeros(1000, np.float32), 1000, 128, 2)


def test_shuffle_without_a_seed_picks_and_prints_one(monkeypatch, capfd):
    monkeypatch.setenv("ASC_BLOCK_ORDER", "shuffle")
    x = randn(1000, np.float32, seed=17)
    out = np.zeros_like(x)
    window_kernel[4](x, out, 1000, 128, 2)
    np.testing.assert_array_equal(out, x * 2)
    order = window_kernel.last_launch["block_order"]
    assert re.fullmatch(r"shuffle:\d+", order)
    assert f"ASC_BLOCK_ORDER={order}" in capfd.readouterr().err


def test_an_unknown_block_order_is_rejected(monkeypatch):
    monkeypatch.setenv("ASC_BLOCK_ORDER", "reverse")
    with pytest.raises(ValueError, match=re.escape("ASC_BLOCK_ORDER='reverse' is not a block order")):
        window_kernel[4](np.zeros(1000, np.float32), np.zeros(1000, np.float32), 1000, 128, 2)


# -- no internal frames in user-facing errors --------------------------------------------------------------------------
_SCRIPT = textwrap.dedent("""
    import numpy as np
    import asc, asc2
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)

    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, n: int, T: asc.ConstExpr[int]):
        x = asc2.tensor(x_ptr, [n])
        asc2.store(asc2.load(x, [{SHAPE}], offsets=[0]), x, offsets=[n])

    def main():
        k[1](np.zeros(256, np.float32), 128, 64)

    main()
""")


@pytest.mark.parametrize("shape, kind", [("T", "KernelRuntimeError"), ("n", "CodegenError")])
def test_errors_about_the_kernel_show_only_the_users_frames(tmp_path, shape, kind):
    script = tmp_path / "kernel.py"
    script.write_text(_SCRIPT.format(SHAPE=shape))
    env = dict(os.environ, PYASC_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("ASC_DEBUG", None)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 1
    frames = re.findall(r'File "([^"]+)", line (\d+)', r.stderr)
    assert frames == [(str(script), "15"), (str(script), "13")], r.stderr
    assert f"{kind}: at {script}:10:" in r.stderr
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                       env=dict(env, ASC_DEBUG="1"))
    internal = [f for f, _ in re.findall(r'File "([^"]+)", line (\d+)', r.stderr) if f != str(script)]
    assert internal and all("/asc/" in f for f in internal), r.stderr


def test_an_atomic_past_the_end_is_treated_as_a_store_past_the_end():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int):
        t = asc2.load(asc2.tensor(x_ptr, [n]), [64], offsets=[0])
        asc2.atomic_add(t, asc2.tensor(out_ptr, [n]), [asc2.block_idx() * 64])
    x = randn(128, np.float32, seed=21)
    out = np.zeros_like(x)
    with pytest.raises(KernelRuntimeError, match=re.escape("at offsets [128] in block 2 lies wholly past the end")):
        k[3](x, out, 128)
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    out[:] = 0
    k[3](x, out, 128)
    np.testing.assert_array_equal(out, np.concatenate([x[:64], x[:64]]))
    (w,) = warnings_of(k)
    assert "at offsets [128] in block 2 lies wholly past the end" in w


def test_a_2d_store_spilling_into_the_next_row_is_reported_beside_a_window_past_the_end():
    # block 0's window spills past its row; block 1's lies wholly past the tensor: the spill is still an error
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        t = asc2.load(asc2.tensor(x_ptr, [4, 32]), [1, 32], offsets=[0, 0])
        b = asc2.block_idx()
        asc2.store(t, asc2.tensor(out_ptr, [4, 32]), offsets=[b * 4, 16 - b * 16])
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(KernelRuntimeError, match=re.escape("at offsets [0, 16] runs past the end of the row")):
        k[2](randn((4, 32), np.float32, seed=22), np.zeros((4, 32), np.float32))

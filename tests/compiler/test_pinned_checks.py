"""Whole-launch sanitizers at their edges (docs/simulator.md, Memory and sanitizers): an un-barriered loop
whose iteration loads what an earlier iteration stored, the coverage warning for outputs that share one
array and for outputs written by both whole-row and windowed stores, and scalar-store warnings on a later
output argument."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc2
from asc.sim.executor import KernelRuntimeError

from kernel_checks import randn


@pytest.mark.parametrize("later", [False, True], ids=["earlier-iteration", "later-iteration"])
def test_a_load_of_what_another_iteration_stores_in_an_un_barriered_loop_is_an_error(later):
    # iteration i stores tile i and loads tile i - 1 (stored by the iteration before) or tile i + 1 (stored
    # by the iteration after): without the loop-end barrier either store may land before the load
    @asc2.jit(always_compile=True)
    def k(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, PARALLEL: asc.ConstExpr[bool],
          LATER: asc.ConstExpr[bool]):
        g = asc2.tensor(buf_ptr, [320])
        o = asc2.tensor(out_ptr, [320])
        if LATER:
            for i in asc2.range(0, 3, parallel=PARALLEL):
                asc2.store(asc2.full([64], 1.0, dtype=asc.float32) * (i + 1), g, offsets=[i * 64])
                asc2.store(asc2.load(g, [64], offsets=[(i + 1) * 64]), o, offsets=[i * 64])
        else:
            for i in asc2.range(1, 4, parallel=PARALLEL):
                asc2.store(asc2.full([64], 1.0, dtype=asc.float32) * i, g, offsets=[i * 64])
                asc2.store(asc2.load(g, [64], offsets=[(i - 1) * 64]), o, offsets=[i * 64])
    buf, out = np.full(320, 9.0, np.float32), np.zeros(320, np.float32)
    k[1](buf, out, False, later)                  # with the loop-end barrier: legal, and in order
    expect = [9, 9, 9, 0, 0] if later else [0, 9, 1, 2, 0]
    np.testing.assert_array_equal(out.reshape(5, 64)[:, 0], expect)
    with pytest.raises(KernelRuntimeError, match="load of 'buf_ptr' reads element 64, which another iteration of "
                                                 "the un-barriered loop"):
        k[1](np.full(320, 9.0, np.float32), np.zeros(320, np.float32), True, later)


def test_two_outputs_in_one_array_report_the_uncovered_range_of_their_own_elements():
    @asc2.jit
    def k(a_ptr: asc.GlobalAddress, b_ptr: asc.GlobalAddress):
        asc2.store(asc2.full([64], 1.0, dtype=asc.float32), asc2.tensor(a_ptr, [128]), offsets=[0])
        asc2.store(asc2.full([32], 2.0, dtype=asc.float32), asc2.tensor(b_ptr, [64]), offsets=[0])
    base = np.zeros(128, np.float32)
    k[1](base, base[64:])                         # b is the second half of a
    hint = ("; if this is an output, check that the tiling covers all of it (e.g. a loop bound from a floor "
            "division drops the tail: use asc.ceildiv)")
    assert k.last_launch["warnings"] == [
        "'a_ptr': 32 of 128 element(s) were never written by any block (the first uncovered range is [96, 128))" + hint,
        "'b_ptr': 32 of 64 element(s) were never written by any block (the first uncovered range is [32, 64))" + hint]
    assert np.all(base[:64] == 1) and np.all(base[64:96] == 2) and np.all(base[96:] == 0)


@pytest.mark.parametrize("width,gap", [(32, None), (24, "32 of 384 element(s) were never written by any block "
                                                    "(the first uncovered range is [280, 288))")])
def test_an_output_covered_by_whole_rows_out_of_order_and_by_column_windows(width, gap):
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress, W: asc.ConstExpr[int]):
        b = asc2.block_idx()
        o = asc2.tensor(out_ptr, [6, 64])
        asc2.store(asc2.full([2, 64], 1.0, dtype=asc.float32), o, offsets=[2 - 2 * b, 0])   # block 1 rows 0-1
        asc2.store(asc2.full([2, W], 2.0, dtype=asc.float32), o, offsets=[4, b * 32])   # rows 4-5 by halves
    out = np.zeros((6, 64), np.float32)
    k[2](out, width)
    assert np.all(out[:4] == 1) and np.all(out[4:, :width] == 2) and np.all(out[4:, 32:32 + width] == 2)
    if gap is None:
        assert k.last_launch["warnings"] == []
    else:
        (w,) = k.last_launch["warnings"]
        assert w.startswith(f"'out_ptr': {gap}")


def test_scalar_stores_sharing_a_32_byte_block_warn_also_after_a_padded_scalar_store():
    @asc2.jit
    def k(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        r = asc2.block_idx()
        s = asc2.reduce_sum(asc2.load(asc2.tensor(x_ptr, [8, 64]), [1, 64], offsets=[r, 0]))
        asc2.store(s, asc2.tensor(out_ptr, [16, 8]), offsets=[r, 0])       # each block its own 32 bytes
        asc2.store(s, asc2.tensor(out_ptr, [128]), offsets=[64 + r])       # eight blocks in one 32-byte block
    x = randn((8, 64), np.float32, seed=21)
    out = np.zeros((16, 8), np.float32)
    k[8](x, out)
    np.testing.assert_allclose(out[:8, 0], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[8], x.sum(axis=1), rtol=1e-5, atol=1e-5)
    found = [w for w in k.last_launch["warnings"] if "scalar stores to 'out_ptr' from different blocks" in w]
    assert len(found) == 1 and "(element 64 by block 0, element 65 by block 1)" in found[0]


def test_the_first_uncovered_range_ends_where_the_next_written_part_begins():
    @asc2.jit
    def k(out_ptr: asc.GlobalAddress):
        b = asc2.block_idx()
        asc2.store(asc2.full([64], 1.0, dtype=asc.float32), asc2.tensor(out_ptr, [384]), offsets=[b * 128])
    k[3](np.zeros(384, np.float32))              # tiles 0, 2 and 4 of 6
    (w,) = k.last_launch["warnings"]
    assert w.startswith("'out_ptr': 192 of 384 element(s) were never written by any block (the first uncovered "
                        "range is [64, 128))")


@pytest.mark.parametrize("rows,warning", [(4, None), (2, "128 of 256 element(s) were never written by any block "
                                                        "(the first uncovered range is [128, 256))")])
def test_rows_past_a_stores_real_shape_count_as_unwritten(rows, warning):
    @asc2.jit
    def k(out_ptr: asc2.GlobalAddress, r: int):
        asc2.copy_out(asc2.full([4, 64], 1.0, dtype=asc2.float32), asc2.global_tensor(out_ptr, [4, 64]), [0, 0],
                      real_shape=[r, 64])
    out = np.zeros((4, 64), np.float32)
    k[1](out, rows)
    assert np.all(out[:rows] == 1) and np.all(out[rows:] == 0)
    if warning is None:
        assert k.last_launch["warnings"] == []
    else:
        (w,) = k.last_launch["warnings"]
        assert w.startswith(f"'out_ptr': {warning}")


def test_a_block_overwriting_what_another_block_read_in_a_parallel_loop_is_a_race_between_blocks():
    @asc2.jit
    def k(buf_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress):
        b = asc2.block_idx()
        g = asc2.tensor(buf_ptr, [128])
        for i in asc2.range(2, parallel=True):
            t = asc2.load(g, [64], offsets=[i * 64])                     # both blocks read the buffer
            asc2.store(t, asc2.tensor(out_ptr, [256]), offsets=[b * 128 + i * 64])
            if b == 1:
                asc2.store(t + 1.0, g, offsets=[i * 64])                 # block 1 updates what it read
    with pytest.raises(KernelRuntimeError, match="store to 'buf_ptr' overwrites elements block 0 read in the same "
                                                 "launch"):
        k[2](np.zeros(128, np.float32), np.zeros(256, np.float32))


# -- the output role: reading an argument before any block wrote it ------------------------------------------------
@asc2.jit
def axpy_august(x_ptr: asc2.GlobalAddress, y_ptr: asc2.GlobalAddress, alpha: float, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    y_gm = asc2.global_tensor(y_ptr, [n])
    for t in range(asc2.block_idx(), asc2.ceildiv(n, 64), asc2.block_num()):
        y = asc2.copy_in(y_gm, [t * 64], [64])
        asc2.copy_out(asc2.copy_in(x_gm, [t * 64], [64]) * alpha + y, y_gm, [t * 64])


@asc2.jit
def axpy_april(x_ptr: asc.GlobalAddress, y_ptr: asc.GlobalAddress, alpha: float, n: int):
    x_gm = asc2.tensor(x_ptr, [n])
    y_gm = asc2.tensor(y_ptr, [n])
    b = asc2.block_idx()
    y = asc2.load(y_gm, [64], offsets=[b * 64])
    asc2.store(asc2.load(x_gm, [64], offsets=[b * 64]) * alpha + y, y_gm, offsets=[b * 64])


@pytest.mark.parametrize("kernel", [axpy_august, axpy_april], ids=["august", "april"])
def test_axpy_updating_its_last_argument_in_place_is_clean(kernel):
    x, y = randn(256, np.float32, seed=11), randn(256, np.float32, seed=12)
    expected = np.float32(2.5) * x + y
    kernel[4](x, y, 2.5, 256)
    np.testing.assert_allclose(y, expected, rtol=1e-6)
    assert kernel.last_launch["warnings"] == []


ACCUMULATE = """
import asc2

@asc2.jit
def k(x_ptr: asc2.GlobalAddress, {dst}: asc2.GlobalAddress, n: int):
    x_gm = asc2.global_tensor(x_ptr, [n])
    d_gm = asc2.global_tensor({dst}, [n])
    b = asc2.block_idx()
    acc = asc2.copy_in(d_gm, [b * 64], [64])
    asc2.copy_out(acc + asc2.copy_in(x_gm, [b * 64], [64]), d_gm, [b * 64])
"""


@pytest.mark.parametrize("dst,role", [("out_ptr", True), ("dst", True), ("z_gm", True), ("yOut", True),
                                      ("output2", True), ("y_ptr", False), ("c", False), ("acc_ptr", False),
                                      ("outer_ptr", False)])
def test_a_load_before_any_store_warns_for_an_argument_named_as_a_result(dst, role, tmp_path):
    path = tmp_path / f"accumulate_{dst}.py"
    src = ACCUMULATE.format(dst=dst)
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    x = randn(256, np.float32, seed=13)
    ns["k"][4](x, np.zeros_like(x), 256)
    warnings = ns["k"].last_launch["warnings"]
    if role:
        (w,) = warnings
        assert w.startswith(f"{path}:9:") and f"load of '{dst}' reads 256 element(s) no block wrote" in w, w
    else:
        assert warnings == []

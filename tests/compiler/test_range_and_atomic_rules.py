"""The defaults of ``range`` in both dialects, the rank rule of atomics, what an atomic update writes, and
the order of atomic updates in a loop."""
from __future__ import annotations

import re

import numpy as np
import pytest

import asc
import asc2
from asc.experimental import asctile
from asc.frontend.errors import CodegenError


@asc2.jit
def april_scale(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, n: int, UF: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [n * 64])
    o_gm = asc2.tensor(out_ptr, [n * 64])
    if UF == 0:
        for i in asc2.range(n):
            asc2.store(asc2.load(x_gm, [64], offsets=[i * 64]) * 2.0, o_gm, offsets=[i * 64])
    else:
        for i in asc2.range(n, unroll_factor=UF):
            asc2.store(asc2.load(x_gm, [64], offsets=[i * 64]) * 2.0, o_gm, offsets=[i * 64])


@asctile.jit
def august_scale(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, n: int, UF: asctile.ConstExpr,
                 BARRIER: asctile.ConstExpr):
    x_gm = asctile.global_tensor(x_ptr, [n * 64])
    o_gm = asctile.global_tensor(out_ptr, [n * 64])
    if UF == 0:
        for i in asctile.range(n):
            asctile.copy_out(asctile.copy_in(x_gm, [i * 64], [64]) * 2.0, o_gm, [i * 64])
    else:
        for i in asctile.range(n, unroll_factor=UF, gm_barrier=BARRIER):
            asctile.copy_out(asctile.copy_in(x_gm, [i * 64], [64]) * 2.0, o_gm, [i * 64])


def _report(kernel, *args):
    x = np.arange(8 * 64, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, 8, *args)
    np.testing.assert_array_equal(out, x * 2)
    r = kernel.last_launch
    return r["ticks"], r["peak_ub_bytes"]


def test_the_default_unroll_factor_is_one_in_both_dialects():
    assert _report(april_scale, 0) == _report(april_scale, 1) != _report(april_scale, 2)
    assert _report(august_scale, 0, False) == _report(august_scale, 1, False) != _report(august_scale, 2, False)


def test_the_august_range_has_no_loop_end_barrier_by_default():
    assert _report(august_scale, 0, False) == _report(august_scale, 1, False) != _report(august_scale, 1, True)


def test_the_august_range_takes_only_a_bool_gm_barrier():
    @asctile.jit
    def k(out_ptr: asctile.GlobalAddress):
        for i in asctile.range(2, gm_barrier=1):
            pass
    with pytest.raises(CodegenError, match=re.escape("'gm_barrier' argument must be bool, got <class 'int'>")):
        k[1](np.zeros(8, np.float32))


@asc2.jit
def atomic_of_rank(out_ptr: asc.GlobalAddress, OFFS: asc.ConstExpr, SHAPE: asc.ConstExpr):
    asc2.atomic_add(asc2.full(SHAPE, 1.0, dtype=asc.float32), asc2.tensor(out_ptr, [2, 64]), OFFS)


@pytest.mark.parametrize("offsets,tile_shape", [([0], [1, 64]), ([0, 0, 0], [1, 64]), ([0, 0], [64]),
                                                ([0, 0], [1, 1, 64])])
def test_an_atomic_update_needs_one_offset_and_one_tile_dimension_per_tensor_dimension(offsets, tile_shape):
    with pytest.raises(CodegenError, match=re.escape("rank of 'tensor_shape' must match rank of 'shape'")) as e:
        atomic_of_rank[1](np.zeros((2, 64), np.float32), offsets, tile_shape)
    assert "asc2.atomic_add(" in str(e.value)            # reported at the user's call


def test_an_atomic_update_of_the_tensor_s_rank_runs():
    out = np.zeros((2, 64), np.float32)
    atomic_of_rank[1](out, [1, 0], [1, 64])
    assert np.all(out[0] == 0) and np.all(out[1] == 1)


@asc2.jit
def load_then_atomic(out_ptr: asc.GlobalAddress, res_ptr: asc.GlobalAddress):
    o_gm = asc2.tensor(out_ptr, [64])
    before = asc2.load(o_gm, [64], offsets=[0])
    asc2.atomic_add(asc2.full([64], 1.0, dtype=asc.float32), o_gm, [0])
    asc2.store(before, asc2.tensor(res_ptr, [64]), offsets=[0])


def test_a_tile_loaded_before_an_atomic_update_keeps_the_values_it_loaded():
    out = np.arange(64, dtype=np.float32)
    res = np.zeros(64, np.float32)
    load_then_atomic[1](out, res)
    np.testing.assert_array_equal(res, np.arange(64, dtype=np.float32))     # the argument is written: copied
    np.testing.assert_array_equal(out, np.arange(64, dtype=np.float32) + 1)


@asc2.jit
def atomic_trips(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, T: asc.ConstExpr[int]):
    x_gm = asc2.tensor(x_ptr, [asc2.block_num() * T * 8])
    for t in asc2.range(T):
        asc2.atomic_add(asc2.load(x_gm, [8], offsets=[(asc2.block_idx() * T + t) * 8]), asc2.tensor(out_ptr, [8]), [0])


def test_atomic_updates_in_a_sequential_loop_apply_trip_by_trip():
    # trip 0 of both blocks, then trip 1: 1e8 - 1e8 + 1 + 1 = 2 in float32 (block by block would give 1)
    x = np.array([1e8, 1.0, -1e8, 1.0], np.float32).repeat(8)
    out = np.zeros(8, np.float32)
    atomic_trips[2](x, out, 2)
    np.testing.assert_array_equal(out, np.full(8, 2.0, np.float32))


@asc2.jit
def read_then_atomic(x_ptr: asc.GlobalAddress, out_ptr: asc.GlobalAddress, res_ptr: asc.GlobalAddress):
    o_gm = asc2.tensor(out_ptr, [64])
    before = asc2.load(o_gm, [64], offsets=[0])
    asc2.atomic_add(asc2.load(asc2.tensor(x_ptr, [64]), [64], offsets=[0]), o_gm, [0])
    asc2.store(before, asc2.tensor(res_ptr, [64]), offsets=[0])


def test_an_output_only_an_atomic_update_writes_is_still_an_output():
    # x is only read; out is written by the atomic update alone: reading it first is reported, x is not
    x = np.ones(64, np.float32)
    read_then_atomic[1](x, np.zeros(64, np.float32), np.zeros(64, np.float32))
    warnings = read_then_atomic.last_launch["warnings"]
    assert any("load of 'out_ptr' reads 64 element(s) no block wrote" in w for w in warnings), warnings
    assert not any("'x_ptr'" in w for w in warnings)

"""The UB budget of August kernels, as pyasc-dev's compiler counts it (every figure below is its own
memory_consumed for the same kernel): ``reuse_alloc=0`` (the default) gives every tile of every unrolled
copy its own 32-byte-rounded buffer, where UnrollLoop makes u copies plus one for a remainder and none
when the loop has fewer trips than u; ``reuse_alloc=2`` reuses dead tiles' buffers and computes
element-wise results in place. Each check sits at the capacity: the tile that fits and one element more."""
from __future__ import annotations

import numpy as np
import pytest

import asc.runtime.config as config
from asc.experimental import asctile
from asc.runtime import last_launch_report

L = asctile.TensorLocation
C310, C220 = config.Platform.Ascend950PR_9599, config.Platform.Ascend910B1


@asctile.jit
def add_tiles(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, z_ptr: asctile.GlobalAddress,
              n: asctile.ConstExpr, tile: asctile.ConstExpr, unroll: asctile.ConstExpr, reuse: asctile.ConstExpr):
    """``zt = at + bt`` over n // tile trips, ``unroll_factor=unroll``; ``reuse``: a chain in place."""
    xg, yg, zg = asctile.global_tensor(x_ptr, [n]), asctile.global_tensor(y_ptr, [n]), asctile.global_tensor(z_ptr, [n])
    for i in range(n // tile, unroll_factor=unroll):
        at = asctile.copy_in(xg, [i * tile], [tile], L.UB)
        bt = asctile.copy_in(yg, [i * tile], [tile], L.UB)
        zt = at + bt
        if reuse:
            zt = zt * 2.0 + at
        asctile.copy_out(zt, zg, [i * tile])


def run(tile, trips, unroll, reuse=0, platform=C310):
    config.set_platform(config.Backend.Model, platform)
    n = tile * trips
    x, y = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    z = np.zeros(n, np.float32)
    add_tiles[1](x, y, z, n, tile, unroll, bool(reuse), reuse_alloc=reuse)
    np.testing.assert_array_equal(z, (x + y) * 2 + x if reuse else x + y)
    return last_launch_report()["peak_ub_bytes"]


def overflow(tile, trips, unroll, reuse=0, platform=C310):
    with pytest.raises(RuntimeError, match=r"UB overflow: \d+ is available, (\d+) is used") as e:
        run(tile, trips, unroll, reuse, platform)
    return int(e.value.args[0].split(", ")[1].split()[0])


def test_a_loop_with_fewer_trips_than_its_unroll_factor_is_not_unrolled():
    # three float32 tiles of 21160 elements (84640 bytes): 253920 of C310's 253952 bytes
    assert run(21160, trips=1, unroll=2) == 253920
    assert overflow(21161, trips=1, unroll=2) == 3 * 84672   # one element more: each tile rounds to 84672


def test_an_unrolled_loop_has_a_copy_per_unrolled_trip_and_one_for_the_remainder():
    assert run(10576, trips=4, unroll=2) == 6 * 42304        # two copies, no remainder: 253824 bytes
    assert overflow(10576, trips=3, unroll=2) == 9 * 42304   # two copies and the remainder's


def test_reuse_alloc_2_computes_element_wise_results_in_place():
    # at, bt -> at + bt, * 2, + at: two buffers of 126976 bytes, exactly C310's UB
    assert run(31744, trips=2, unroll=1, reuse=2) == 253952
    assert overflow(31745, trips=2, unroll=1, reuse=2) == 2 * 127008


def test_c220_counts_its_buffers_unrounded():
    assert run(16384, trips=1, unroll=2, platform=C220) == 196608
    assert overflow(16385, trips=1, unroll=2, platform=C220) == 3 * 65540   # not 3 x 65568


@asctile.jit
def constant_after_loop(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, n: int):
    x_gm = asctile.global_tensor(x_ptr, [n * 1024])
    o_gm = asctile.global_tensor(out_ptr, [n * 1024 + 1024])
    for i in range(n):
        asctile.copy_out(asctile.abs(asctile.copy_in(x_gm, [i * 1024], [1024], L.UB)), o_gm, [i * 1024])
    asctile.copy_out(asctile.full([1024], 7.0, asctile.float32), o_gm, [n * 1024])
    asctile.copy_out(asctile.copy_in(x_gm, [0], [1024], L.UB) + asctile.full([1024], 1.0, asctile.float32),
                     o_gm, [0])


def test_a_constant_tile_is_hoisted_and_one_only_added_is_a_scalar():
    config.set_platform(config.Backend.Model, C310)
    x = np.linspace(-2, 2, 2048, dtype=np.float32)
    out = np.zeros(3072, np.float32)
    constant_after_loop[1](x, out, 2, reuse_alloc=2)
    np.testing.assert_array_equal(out[1024:], np.r_[np.abs(x[1024:]), np.full(1024, 7.0, np.float32)])
    np.testing.assert_array_equal(out[:1024], x[:1024] + 1)
    # the stored constant lives from the kernel's start (its own buffer); the loop's tiles and the last
    # load share one; the added constant is an Adds operand, no buffer
    assert last_launch_report()["peak_ub_bytes"] == 2 * 4096

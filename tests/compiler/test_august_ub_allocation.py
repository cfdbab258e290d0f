"""The UB budget of August kernels, as pyasc-dev's compiler counts it (every figure below is its own
memory_consumed for the same kernel): ``reuse_alloc=0`` (the default) gives every tile of every unrolled
copy its own 32-byte-rounded buffer, where UnrollLoop makes u copies plus one for a remainder and none
when the loop has fewer trips than u; ``reuse_alloc=2`` reuses dead tiles' buffers and computes
element-wise results in place; ``reuse_alloc=1`` does so less (a dead tile's buffer first, an operand's
only for a result that dies no later than every tile live across its op). Each check sits at the capacity: the
tile that fits and one element more."""
from __future__ import annotations

import re

import ml_dtypes
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
    with pytest.raises(RuntimeError, match=r"UB overflow: \d+ bytes are available, (\d+) bytes are used") as e:
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


def test_reuse_alloc_1_computes_a_result_in_place_like_level_2_when_no_operand_is_read_later():
    assert run(31744, trips=2, unroll=1, reuse=1) == 253952
    assert overflow(31745, trips=2, unroll=1, reuse=1) == 2 * 127008


# -- reuse_alloc=1: a result takes a dead tile's buffer first, an operand's only if it dies as early ------
@asctile.jit
def chain(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, n: asctile.ConstExpr):
    """c = a + b; d = c * b; the stored d - c: c is read after b and a die."""
    x, y = asctile.global_tensor(x_ptr, [n]), asctile.global_tensor(y_ptr, [n])
    a, b = asctile.copy_in(x, [0], [n]), asctile.copy_in(y, [0], [n])
    c = a + b
    d = c * b
    asctile.copy_out(d - c, x, [0])


@asctile.jit
def half_sum(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, n: asctile.ConstExpr):
    """float16 loads summed in float32 and stored as float16."""
    x, y = asctile.global_tensor(x_ptr, [n]), asctile.global_tensor(y_ptr, [n])
    s = asctile.copy_in(x, [0], [n]).to(asctile.float32) + asctile.copy_in(y, [0], [n]).to(asctile.float32)
    asctile.copy_out(s.to(asctile.float16), x, [0])


def _ub(kernel, n, reuse, dtype=np.float32):
    config.set_platform(config.Backend.Model, C310)
    x, y = np.linspace(-1, 1, n, dtype=dtype), np.full(n, 0.5, dtype)
    want = (x + y) * y - (x + y) if kernel is chain else (x.astype(np.float32) + y).astype(dtype)
    kernel[1](x, y, n, reuse_alloc=reuse)
    np.testing.assert_allclose(x, want, rtol=1e-6)
    return last_launch_report()["peak_ub_bytes"]


@pytest.mark.parametrize("kernel,dtype,level_2", [(chain, np.float32, 2 * 84672), (half_sum, np.float16, 211680)])
def test_reuse_alloc_1_overflows_where_level_2_fits(kernel, dtype, level_2):
    # pyasc-dev's memory_consumed, level 1: three buffers of 21160 float32 (84640 bytes) fill C310's UB to
    # 253920; one element more (84672 each) is over. chain: level 2 writes c over a; level 1 does not, c
    # being read after b dies (d then takes a's dead buffer). half_sum: level 1 puts a result in a dead
    # tile's buffer before it overwrites an operand, so the float32 sum goes into the first float16
    # load's buffer, which grows to the sum's size; level 2 keeps one float16 buffer.
    assert _ub(kernel, 21160, 1, dtype) == 3 * 84640 == 253920
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 254016 bytes are used.")):
        _ub(kernel, 21161, 1, dtype)
    assert _ub(kernel, 21161, 2, dtype) == level_2


@asctile.jit
def adam_step(p_ptr: asctile.GlobalAddress, m_ptr: asctile.GlobalAddress, v_ptr: asctile.GlobalAddress,
              g_ptr: asctile.GlobalAddress, n: asctile.ConstExpr, b1: float, b2: float, lr: float, eps: float):
    """One Adam update: m and v computed early and stored at the end, with short-lived temporaries between."""
    p_gm, m_gm = asctile.global_tensor(p_ptr, [n]), asctile.global_tensor(m_ptr, [n])
    v_gm, g_gm = asctile.global_tensor(v_ptr, [n]), asctile.global_tensor(g_ptr, [n])
    p, m = asctile.copy_in(p_gm, [0], [n]), asctile.copy_in(m_gm, [0], [n])
    v, g = asctile.copy_in(v_gm, [0], [n]), asctile.copy_in(g_gm, [0], [n])
    m = m + (g - m) * b1
    v = v + (g * g - v) * b2
    p = p - m * lr / (asctile.sqrt(v) + eps)
    asctile.copy_out(m, m_gm, [0])
    asctile.copy_out(v, v_gm, [0])
    asctile.copy_out(p, p_gm, [0])


def _adam(n, reuse):
    config.set_platform(config.Backend.Model, C310)
    rng = np.random.default_rng(7)
    p, m, g = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    v = rng.random(n).astype(np.float32)
    m1 = m + (g - m) * np.float32(0.1)
    v1 = v + (g * g - v) * np.float32(0.01)
    want = p - m1 * np.float32(0.001) / (np.sqrt(v1) + np.float32(1e-8))
    adam_step[1](p, m, v, g, n, 0.1, 0.01, 0.001, 1e-8, reuse_alloc=reuse)
    np.testing.assert_allclose(p, want, rtol=1e-5, atol=1e-6)
    return last_launch_report()["peak_ub_bytes"]


def test_reuse_alloc_1_gives_long_lived_results_buffers_of_their_own():
    # pyasc-dev, level 1: the new m and v, stored last, outlive tiles live where they are made, so they take
    # neither an operand's buffer nor a dead one the short temporaries then use: 7 buffers of 9064 float32
    # (36256 bytes), 253792 bytes; one element more (36288 each) is over C310's 253952. Level 2: 5 buffers.
    assert _adam(9064, 1) == 7 * 36256
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 254016 bytes are used.")):
        _adam(9065, 1)
    assert _adam(9065, 2) == 5 * 36288


@asctile.jit
def masked(mask_ptr: asctile.GlobalAddress, x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress,
           n: asctile.ConstExpr):
    """where(mask != 0, x, y) into x, the int8 mask cast to float16 through int16 (one folded cast)."""
    mask_gm, x_gm = asctile.global_tensor(mask_ptr, [n]), asctile.global_tensor(x_ptr, [n])
    y_gm = asctile.global_tensor(y_ptr, [n])
    keep = asctile.copy_in(mask_gm, [0], [n]).to(asctile.int16).to(asctile.float16) != 0.0
    x, y = asctile.copy_in(x_gm, [0], [n]), asctile.copy_in(y_gm, [0], [n])
    asctile.copy_out(asctile.where(keep, x, y), x_gm, [0])


def _masked(n, reuse):
    config.set_platform(config.Backend.Model, C310)
    mask = (np.arange(n) % 3 == 0).astype(np.int8)
    x, y = np.arange(n).astype(np.float16), np.full(n, -1.0, np.float16)
    want = np.where(mask != 0, x, y)
    masked[1](mask, x, y, n, reuse_alloc=reuse)
    np.testing.assert_array_equal(x, want)
    return last_launch_report()["peak_ub_bytes"]


def test_reuse_alloc_1_writes_a_select_into_a_buffer_of_its_own():
    # pyasc-dev, level 1: the int8 mask (n bytes; the compare's bits then take its dead buffer, while the
    # folded cast reads the mask, its float16 result cannot), the cast's buffer (later y's), x's, and the
    # select's own: 36256 + 3 x 72512 = 253792 bytes; 32 elements more are over. Level 2 selects into x.
    assert _masked(36256, 1) == 253792
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 254016 bytes are used.")):
        _masked(36288, 1)
    assert _masked(36288, 2) == 149696


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


# -- scratch of the ops pyasc-dev lowers with work buffers; every figure is its memory_consumed -------------
@asctile.jit
def row_max(x_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress, n: asctile.ConstExpr, keep: asctile.ConstExpr):
    """reduce_max over the row; ``keep``: the row is stored after the reduction (so it stays live)."""
    x, o = asctile.global_tensor(x_ptr, [1, n]), asctile.global_tensor(o_ptr, [1, 16])
    t = asctile.copy_in(x, [0, 0], [1, n])
    asctile.copy_out(asctile.reduce_max(t, 1, keep_dims=True).broadcast_to(1, 16), o, [0, 0])
    if keep:
        asctile.copy_out(t, x, [0, 0])


def _row_max(n, keep, platform=C310):
    config.set_platform(config.Backend.Model, platform)
    x = np.linspace(-1, 1, n, dtype=np.float16).reshape(1, n)
    o = np.zeros((1, 16), np.float16)
    row_max[1](x, o, n, keep)
    np.testing.assert_array_equal(o, np.full((1, 16), x.max(), np.float16))
    return last_launch_report()["peak_ub_bytes"]


def test_a_reduction_whose_input_stays_live_takes_a_float32_work_buffer():
    # float16 row of n: the row (2n), the result and its broadcast (32 each), and 4n of float32 scratch
    assert _row_max(42304, keep=True) == 6 * 42304 + 64 == 253888
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 253984 bytes are used.")):
        _row_max(42320, keep=True)
    # the reduction is the row's last reader: it works in the row itself (isReuseSource), no scratch
    assert _row_max(42320, keep=False) == 2 * 42320 + 64


@asctile.jit
def softmax_rows(x_ptr: asctile.GlobalAddress, n: asctile.ConstExpr):
    x = asctile.global_tensor(x_ptr, [3, n])
    asctile.copy_out(asctile.softmax(asctile.copy_in(x, [0, 0], [3, n])), x, [0, 0])


def test_softmax_scratch_is_the_input_as_float32_and_padded_row_statistics():
    # float16 [3, n]: input and output (2 x 6n bytes), scratch 12n + 2 x 64 (a float32 per row, 16 rows padded)
    config.set_platform(config.Backend.Model, C310)
    x = np.ones((3, 10576), np.float16)
    softmax_rows[1](x, 10576)
    assert last_launch_report()["peak_ub_bytes"] == 24 * 10576 + 128 == 253952
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 254336 bytes are used.")):
        softmax_rows[1](np.ones((3, 10592), np.float16), 10592)


@asctile.jit
def minus_scalar(x_ptr: asctile.GlobalAddress, n: asctile.ConstExpr, s: float):
    x = asctile.global_tensor(x_ptr, [n])
    asctile.copy_out(asctile.copy_in(x, [0], [n]) - s, x, [0])


def test_c220_fills_the_scalar_of_a_subtraction_into_a_tile():
    # C220 has no Subs: x - s is a Duplicate of s and a Sub, three float32 tiles; C310 needs two
    config.set_platform(config.Backend.Model, C220)
    x = np.arange(16384, dtype=np.float32)
    minus_scalar[1](x, 16384, 1.5)
    np.testing.assert_array_equal(x, np.arange(16384, dtype=np.float32) - 1.5)
    assert last_launch_report()["peak_ub_bytes"] == 3 * 65536 == 196608
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 196608 bytes are available, 196704 bytes are used.")):
        minus_scalar[1](np.ones(16392, np.float32), 16392, 1.5)
    config.set_platform(config.Backend.Model, C310)
    minus_scalar[1](np.ones(16392, np.float32), 16392, 1.5)
    assert last_launch_report()["peak_ub_bytes"] == 2 * 65568


@asctile.jit
def matmul_rows(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                trips: asctile.ConstExpr):
    """[128, 256] x [256, 16] per trip, unroll_factor=2: each unrolled copy has its own L0A operand."""
    a, b = asctile.global_tensor(a_ptr, [128 * trips, 256]), asctile.global_tensor(b_ptr, [256, 16])
    c = asctile.global_tensor(c_ptr, [128 * trips, 16])
    bt = asctile.copy_in(b, [0, 0], [256, 16], location=L.L0B)
    for i in asctile.range(trips, unroll_factor=2):
        at = asctile.copy_in(a, [i * 128, 0], [128, 256], location=L.L0A)
        asctile.copy_out(asctile.matmul(at, bt), c, [i * 128, 0])


def _matmul_rows(trips, platform):
    config.set_platform(config.Backend.Model, platform)
    a, b = np.ones((128 * trips, 256), np.float16), np.ones((256, 16), np.float16)
    c = np.zeros((128 * trips, 16), np.float32)
    matmul_rows[1](a, b, c, trips)
    np.testing.assert_array_equal(c, np.full_like(c, 256.0))


def test_cube_buffers_of_unrolled_copies_count_against_l0a_and_on_c220_against_ub():
    # one copy: the 64 KiB L0A operand fills C310's L0A exactly (L1 stages it and the L0B operand)
    _matmul_rows(1, C310)
    _matmul_rows(1, C220)    # C220 counts its TPipe cube buffers as UB: 155648 bytes
    # two copies: each tile still fits, but two L0A buffers do not (C220: 294912 bytes of "UB")
    with pytest.raises(RuntimeError, match=re.escape("L0A overflow: 65536 bytes are available, 131072 bytes are used.")):
        _matmul_rows(2, C310)
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 196608 bytes are available, 294912 bytes are used.")):
        _matmul_rows(2, C220)


@asctile.jit
def common_and_dead(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, n: asctile.ConstExpr,
                    reuse: asctile.ConstExpr):
    """abs(t) twice (one computation), a load nothing reads, and a float32 -> float16 -> float32 round trip."""
    x, y = asctile.global_tensor(x_ptr, [n]), asctile.global_tensor(y_ptr, [2 * n])
    t = asctile.copy_in(x, [0], [n])
    unused = asctile.copy_in(y, [0], [n])  # noqa: F841 - dropped by pyasc-dev's canonicalizer
    asctile.copy_out(asctile.abs(t) + 1.0, y, [0])
    asctile.copy_out(asctile.abs(t).to(asctile.float16).to(asctile.float32), y, [n])


@pytest.mark.parametrize("reuse,tiles", [(0, 3), (1, 2), (2, 2)])
def test_repeated_computations_unused_loads_and_cast_round_trips_take_no_buffer(reuse, tiles):
    # pyasc-dev: t, abs(t) and abs(t) + 1 (reuse_alloc=2: the sum in t's buffer); the second abs is the
    # first (CSE), the unused load is dropped, the round trip folds to abs(t) itself
    config.set_platform(config.Backend.Model, C310)
    x = np.linspace(-2, 2, 1024, dtype=np.float32)
    y = np.zeros(2048, np.float32)
    common_and_dead[1](x, y, 1024, reuse, reuse_alloc=reuse)
    np.testing.assert_array_equal(y[:1024], np.abs(x) + 1)
    assert last_launch_report()["peak_ub_bytes"] == tiles * 4096


# -- reuse_alloc=1 across unrolled copies: pyasc-dev's second ReuseUBAllocation joins whole buffers ------
@asctile.jit(reuse_alloc=1)
def row_sums(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int, cols: asctile.ConstExpr):
    """Each row's sum broadcast to 8 columns: a loop of runtime trips unrolled twice, and its remainder."""
    x, out = asctile.global_tensor(x_ptr, [num_rows, cols]), asctile.global_tensor(out_ptr, [num_rows, 8])
    for r in asctile.range(num_rows, unroll_factor=2):
        row = asctile.copy_in(x, [r, 0], [1, cols])
        asctile.copy_out(asctile.reduce_sum(row, 1).reshape(1, 1).broadcast_to(1, 8), out, [r, 0])


def _row_sums(cols, rows=5):
    config.set_platform(config.Backend.Model, C310)
    x = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols) % 7
    out = np.zeros((rows, 8), np.float32)
    row_sums[1](x, out, rows, cols)
    np.testing.assert_array_equal(out, np.repeat(x.sum(axis=1, dtype=np.float32)[:, None], 8, axis=1))
    return last_launch_report()["peak_ub_bytes"]


def test_reuse_alloc_1_grows_a_small_buffer_the_next_copy_joins():
    # pyasc-dev: per copy the row, its 32-byte sum and (with the 0-byte temporary) the broadcast; the second
    # copy's row joins the first's sum buffer and its sum the first's row (two loads never share across
    # copies), the broadcasts' buffers stay apart, the remainder reuses them: three whole rows and 32 bytes,
    # 3 x 84640 + 32 = 253952 (planning each copy alone gave 2 x 84640 + 64)
    assert _row_sums(21160) == 253952
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 254048 bytes are used.")):
        _row_sums(21168)


@asctile.jit(reuse_alloc=1)
def scale_by_sum(x_ptr: asctile.GlobalAddress, z_ptr: asctile.GlobalAddress, n: asctile.ConstExpr):
    x, z = asctile.global_tensor(x_ptr, [n]), asctile.global_tensor(z_ptr, [n])
    a = asctile.copy_in(x, [0], [n], L.UB)
    asctile.copy_out(a * asctile.reduce_sum(a), z, [0])


@pytest.mark.parametrize("platform, n, used, more, over", [
    # C310: the 32-byte result tile, filled into a tile before the product, which then takes the result's
    # dead buffer (growing it): three tiles of the row; 8 elements more are over
    (C310, 21160, 253920, 8, 254016),
    # C220: the 4-byte result (unrounded) beside the row and the product: 2 x 4n + 4, so the row that
    # would fill the UB exactly is 4 bytes over
    (C220, 24575, 196604, 1, 196612)])
def test_a_reduction_keeps_its_scalar_in_a_tile_until_it_is_read(platform, n, used, more, over):
    config.set_platform(config.Backend.Model, platform)

    def launch(size):
        x = np.full(size, 0.5, np.float32)
        z = np.zeros_like(x)
        scale_by_sum[1](x, z, size)
        np.testing.assert_allclose(z, x * np.float32(size / 2))
        return last_launch_report()["peak_ub_bytes"]
    assert launch(n) == used
    with pytest.raises(RuntimeError, match=re.escape(f"bytes are available, {over} bytes are used.")):
        launch(n + more)


@asctile.jit
def to_bfloat16(x_ptr: asctile.GlobalAddress, z_ptr: asctile.GlobalAddress, n: asctile.ConstExpr):
    x, z = asctile.global_tensor(x_ptr, [n]), asctile.global_tensor(z_ptr, [n])
    asctile.copy_out(asctile.copy_in(x, [0], [n], L.UB).to(asctile.bfloat16), z, [0])


@pytest.mark.parametrize("reuse", [1, 2])
def test_a_cast_never_overwrites_its_operand_even_of_its_size(reuse):
    # pyasc-dev: float16 -> bfloat16 of n takes two buffers of 2n at either level (not one, in place)
    config.set_platform(config.Backend.Model, C310)

    def launch(n):
        x = (np.arange(n) % 100).astype(np.float16)
        z = np.zeros(n, ml_dtypes.bfloat16)
        to_bfloat16[1](x, z, n, reuse_alloc=reuse)
        np.testing.assert_array_equal(z.astype(np.float32), x.astype(np.float32))
        return last_launch_report()["peak_ub_bytes"]
    assert launch(63488) == 253952
    with pytest.raises(RuntimeError, match=re.escape("UB overflow: 253952 bytes are available, 254016 bytes are used.")):
        launch(63504)

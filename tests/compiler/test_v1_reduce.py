"""v1 reductions against numpy on both platforms: the index order and tie-breaking of whole_reduce_max/min,
the binary-tree rounding of the sums in half, block / pair results per repeat, reduce_* over a whole operand."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


def tree(v, dtype):
    """The docstrings' binary tree: adjacent pairs, level by level, each sum rounded to the dtype."""
    v = list(np.asarray(v, dtype))
    while len(v) & (len(v) - 1):
        v.append(dtype(0))
    while len(v) > 1:
        v = [dtype(np.float32(v[i]) + np.float32(v[i + 1])) for i in range(0, len(v), 2)]
    return v[0]


@pytest.mark.parametrize("dtype,it", [(np.float16, np.uint16), (np.float32, np.uint32)])
@pytest.mark.parametrize("order", ["ORDER_VALUE_INDEX", "ORDER_INDEX_VALUE", "ORDER_ONLY_VALUE", "ORDER_ONLY_INDEX"])
@pytest.mark.parametrize("kind", ["max", "min"])
def test_whole_reduce_max_min_value_and_index_per_repeat_in_the_requested_order(platform, dtype, it, order, kind):
    lanes = 256 // np.dtype(dtype).itemsize
    rt = 3
    rng = np.random.default_rng(4)
    x = rng.permutation(rt * lanes).astype(dtype) / dtype(8)
    ext = np.max if kind == "max" else np.min
    x[lanes + 5] = x[lanes + 9] = ext(x[lanes: 2 * lanes]) * 2   # a tie in repeat 1: the first lane counts
    x[2 * lanes + lanes - 1] = dtype(1000 if kind == "max" else -1000)   # outside the mask of 100 lanes
    z = np.zeros(64, np.uint8)
    mask = 100 if lanes == 128 else 50

    def body(a, b, m, d):
        getattr(asc, f"whole_reduce_{kind}")(d.reinterpret_cast(a.dtype), a, mask, rt, 2, 1, 8,
                                            order=getattr(asc.ReduceOrder, order))
    got = run(body, x, None, None, z)
    isz = np.dtype(dtype).itemsize
    width = {"ORDER_ONLY_VALUE": isz, "ORDER_ONLY_INDEX": 4}.get(order, 2 * isz)
    for r in range(rt):
        seg = x[r * lanes: r * lanes + mask]
        k = int((np.argmax if kind == "max" else np.argmin)(seg))
        rec = got[r * 2 * width: r * 2 * width + width]
        val, idx = rec[:isz].view(dtype)[0], None
        if order == "ORDER_VALUE_INDEX":
            idx = rec[isz:].view(it)[0]
        elif order == "ORDER_INDEX_VALUE":
            idx, val = rec[:isz].view(it)[0], rec[isz:].view(dtype)[0]
        elif order == "ORDER_ONLY_INDEX":
            idx, val = rec.view(np.uint32)[0], seg[k]
        assert val == seg[k]
        assert idx is None or idx == k
    assert not got[rt * 2 * width:].any()                           # dst_rep_stride 2: gaps stay untouched


def test_whole_reduce_sum_adds_as_a_binary_tree_rounding_each_level_in_half(platform):
    lanes = 128
    x = np.full(lanes, 1, np.float16)
    x[0] = np.float16(2048)                 # 2048 + 1 rounds to 2048 in half: order matters
    z = np.zeros(32, np.float16)

    def body(a, b, m, d):
        asc.whole_reduce_sum(d, a, 128, 1, 1, 1, 8)
    got = run(body, x, None, None, z)[0]
    sequential = np.float16(0)
    for v in x:
        sequential = np.float16(np.float32(sequential) + np.float32(v))
    assert got == tree(x, np.float16) and got != sequential


@pytest.mark.parametrize("name", ["whole_reduce_sum", "block_reduce_sum", "repeat_reduce_sum"])
def test_half_pair_sums_past_the_largest_half_stay_at_it(platform, name):
    # the docstrings' example: 60000 + 60000 gives 65504, -30000 + 100 = -29900, then 65504 - 29900 = 35604
    x = np.zeros(128, np.float16)
    x[:4] = [60000, 60000, -30000, 100]
    x[16:20] = [-60000, -60000, 30000, -100]   # the same below zero (block 1)
    x[32:34] = [65504, 0]                     # the largest half itself passes unchanged (block 2)
    x[48:50] = [65504, 16]                    # 65520 would round to inf: it stays 65504 (block 3)
    z = np.zeros(16, np.float16)

    def body(a, b, m, d):
        if name == "block_reduce_sum":
            asc.block_reduce_sum(d, a, 1, 128, 1, 1, 8)
        elif name == "whole_reduce_sum":
            asc.whole_reduce_sum(d, a, 16, 1, 1, 1, 8)        # block 0's 16 lanes only
        else:
            asc.repeat_reduce_sum(d, a, 1, 16, 0, 1, 1, 8)
    got = run(body, x, None, None, z)
    # in half: -30000 + 100 rounds to -29904, and 65504 - 29904 = 35600 to 35584 (the docstring's 35604 is
    # the exact arithmetic); without the saturation the first sum would be inf and so the result
    assert got[0] == np.float16(35584)
    if name == "block_reduce_sum":
        np.testing.assert_array_equal(got[1:4], np.float16([-35584, 65504, 65504]))


def test_a_float_sum_overflows_as_ieee(platform):
    x = np.zeros(64, np.float32)
    x[:2] = [3e38, 3e38]
    z = np.zeros(8, np.float32)

    def body(a, b, m, d):
        asc.whole_reduce_sum(d, a, 64, 1, 1, 1, 8)
    assert run(body, x, None, None, z)[0] == np.inf


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_block_reduce_gives_one_result_per_block_with_the_mask(platform, kind, dtype):
    lanes = 256 // np.dtype(dtype).itemsize
    per = lanes // 8
    rt = 2
    rng = np.random.default_rng(6)
    x = (rng.random(rt * lanes) * 4 - 2).astype(dtype)
    z = np.zeros(64, dtype)
    mask = lanes - per + 1                     # the last block keeps one lane

    def body(a, b, m, d):
        getattr(asc, f"block_reduce_{kind}")(d, a, rt, mask, 1, 1, 8)
    got = run(body, x, None, None, z)
    for r in range(rt):
        for b in range(8):
            seg = x[r * lanes + b * per: r * lanes + min((b + 1) * per, mask)]
            want = tree(seg, dtype) if kind == "sum" else (seg.max() if kind == "max" else seg.min())
            assert got[r * 8 + b] == want, (r, b)


def test_pair_reduce_sum_adds_neighbours(platform):
    x = np.arange(128, dtype=np.float32)
    z = np.full(64, -1, np.float32)

    def body(a, b, m, d):
        asc.pair_reduce_sum(d, a, 2, 64, 1, 1, 8)
    got = run(body, x, None, None, z)
    np.testing.assert_array_equal(got, x[0::2] + x[1::2])


def test_repeat_reduce_sum_per_repeat_at_its_stride(platform):
    x = np.arange(256, dtype=np.float32)
    z = np.full(16, -1, np.float32)

    def body(a, b, m, d):
        asc.repeat_reduce_sum(d, a, 4, 10, 0, 1, 2, 8)
    got = run(body, x, None, None, z)
    want = np.full(16, -1, np.float32)
    want[0:8:2] = [x[r * 64: r * 64 + 10].sum() for r in range(4)]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype,it", [(np.float16, np.uint16), (np.float32, np.uint32)])
def test_reduce_max_min_over_the_count_with_the_first_index(platform, dtype, it):
    n = 1000                                   # a partial last repeat
    rng = np.random.default_rng(8)
    x = (rng.random(1024) * 10).astype(dtype)
    x[n:] = dtype(99)                          # past the count: not looked at
    x[700] = x[900] = dtype(50)
    z = np.zeros(16, dtype)
    tmp = np.zeros(512, dtype)

    def body(a, b, m, d):
        asc.reduce_max(d, a, b, n, cal_index=True)
    got = run(body, x, tmp, None, z)
    assert got[0] == dtype(50) and got[1:2].view(it)[0] == 700

    def body_min(a, b, m, d):
        asc.reduce_min(d, a, b, count=n)
    assert run(body_min, x, tmp, None, np.zeros(16, dtype))[0] == x[:n].min()


@pytest.mark.parametrize("dt", [np.float16, np.float32])
def test_reduce_sum_count_form_adds_repeats_in_order(platform, dt):
    per_repeat = 256 // np.dtype(dt).itemsize
    n = 3 * per_repeat                      # three repeats: the count form adds their results in order
    x = np.ones(n, dt)
    x[0] = dt(2048) if dt == np.float16 else dt(2.0 ** 24)
    z = np.zeros(16, dt)

    def body(a, b, m, d):
        asc.reduce_sum(d, a, b, n)
    got = run(body, x, np.zeros(256, dt), None, z)[0]
    per = [tree(x[r * per_repeat:(r + 1) * per_repeat], dt) for r in range(3)]
    acc = per[0]
    for p in per[1:]:
        acc = dt(np.float32(acc) + np.float32(p))
    assert got == acc


@asc.jit
def families(x: asc.GlobalAddress, z: asc.GlobalAddress):
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * 128, 128)
    z_gm.set_global_buffer(z + b * 32, 32)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 128)
    d = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 512, 32)
    asc.data_copy(a, x_gm, 128)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.duplicate(d, 0.0, 32)
    asc.whole_reduce_sum(d, a, 64, 2, 1, 1, 8)
    asc.cast(d[8:], a, asc.RoundMode.CAST_FLOOR, 8)
    asc.block_reduce_max(d[16:], a, 1, 64, 1, 1, 8)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, d, 32)


def test_a_repeated_launch_of_the_families_replays_with_its_own_data(platform):
    """The second launch of one structure runs the recorded ops on its own buffers (replay.py)."""
    for seed in (1, 2, 3):
        xs = np.random.default_rng(seed).random(4 * 128).astype(np.float32) * 10
        zs = np.zeros(4 * 32, np.float32)
        families[4](xs, zs)
        for x, z in zip(xs.reshape(4, 128), zs.reshape(4, 32)):
            assert z[0] == tree(x[:64], np.float32) and z[1] == tree(x[64:], np.float32)
            np.testing.assert_array_equal(z[8:16], np.floor(x[:8]))
            np.testing.assert_array_equal(z[16:24], x[:64].reshape(8, 8).max(axis=1))
    assert any(t is not None for t in families.__dict__.get("_v1_tapes", {}).values())   # it was replayed


def test_an_order_that_is_not_a_reduce_order_is_an_error_at_the_line():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.float32)

    def body(a, b, m, d):
        asc.whole_reduce_max(d, a, 64, 1, 1, 1, 8, order=7)
    line = body.__code__.co_firstlineno + 1
    with pytest.raises(ValueError, match=rf"test_v1_reduce.py:{line}: whole_reduce_max: order 7 is not a ReduceOrder"):
        run(body, x, None, None, np.zeros(64, np.float32))


def test_a_reduction_pays_the_tree_over_the_lanes_of_one_result(platform):
    """Over the same four repeats, a whole reduce folds 64 float32 lanes a result, a block reduce 8 and a pair
    reduce 2: six, three and one dependent steps of the vector op latency before the result is ready. The
    calls occupy the vector pipe alike; the store after the V -> MTE3 flag starts later by the deeper tree."""
    from asc.runtime import last_launch_report
    from asc.runtime.platforms import hardware

    x = np.ones(256, np.float32)
    z = np.zeros(64, np.float32)
    busy, ticks = {}, {}
    for name, call in (("whole", lambda a, d: asc.whole_reduce_sum(d, a, 64, 4, 1, 1, 8)),
                       ("block", lambda a, d: asc.block_reduce_sum(d, a, 4, 64, 1, 1, 8)),
                       ("pair", lambda a, d: asc.pair_reduce_sum(d, a, 4, 64, 1, 1, 8))):
        run(lambda a, b, m, d, call=call: call(a, d), x, None, None, z.copy())
        report = last_launch_report()
        busy[name], ticks[name] = report["pipes"]["V"], report["ticks"]
    op = hardware(platform).vector_op
    assert busy["whole"] == busy["block"] == busy["pair"]
    assert ticks["whole"] - ticks["block"] == pytest.approx(3 * op, abs=1)
    assert ticks["block"] - ticks["pair"] == pytest.approx(2 * op, abs=1)

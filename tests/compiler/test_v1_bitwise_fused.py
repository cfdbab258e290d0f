"""The elementwise instructions beyond the basic arithmetic against numpy on both platforms: bitwise and /
or / not on int16 and uint16 (sign bit included), shifts at the width's last bit (arithmetic right shift of
negatives), the relu and multiply-add forms (which read their destination), and the dtype rules."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


@pytest.mark.parametrize("dtype", [np.int16, np.uint16])
def test_bitwise_and_or_not(platform, dtype):
    rng = np.random.default_rng(12)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, 128, endpoint=True).astype(dtype)
    y = rng.integers(info.min, info.max, 128, endpoint=True).astype(dtype)
    x[0], y[0] = info.min, info.max                  # the sign bit of int16
    for op, ref in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or)):
        def body(a, b, m, d, op=op):
            getattr(asc, op)(d, a, b, 128)
        np.testing.assert_array_equal(run(body, x, y, None, np.zeros(128, dtype)), ref(x, y))

    def body_not(a, b, m, d):
        asc.bitwise_not(d, a, 128)
    np.testing.assert_array_equal(run(body_not, x, None, None, np.zeros(128, dtype)), np.invert(x))


@pytest.mark.parametrize("dtype,bits", [(np.int16, 15), (np.int32, 31), (np.uint16, 15)])
def test_shifts_at_the_last_bit(platform, dtype, bits):
    x = np.resize(np.array([1, -1, 3, -4, 0x1234], np.int64).astype(dtype), 128)

    def left(a, b, m, d):
        asc.shift_left(d, a, bits, 128)

    def right(a, b, m, d):
        asc.shift_right(d, a, 1, 128)
    np.testing.assert_array_equal(run(left, x, None, None, np.zeros(128, dtype)), np.left_shift(x, dtype(bits)))
    np.testing.assert_array_equal(run(right, x, None, None, np.zeros(128, dtype)), np.right_shift(x, dtype(1)))


def test_a_shift_past_the_width_is_rejected():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.int16)

    def body(a, b, m, d):
        asc.shift_left(d, a, 16, 64)
    with pytest.raises(ValueError, match=r"shifting int16 by 16 bits is outside \[0, 15\]"):
        run(body, x, None, None, x.copy())


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_relu_and_multiply_add_forms(platform, dtype):
    rng = np.random.default_rng(13)
    x = (rng.random(128) * 4 - 2).astype(dtype)
    y = (rng.random(128) * 4 - 2).astype(dtype)
    z0 = (rng.random(128) * 4 - 2).astype(dtype)
    w = np.float32
    cases = {"add_relu": np.maximum(x.astype(w) + y, 0), "sub_relu": np.maximum(x.astype(w) - y, 0),
             "fused_mul_add": x.astype(w) * z0 + y, "mul_add_dst": x.astype(w) * y + z0,
             "fused_mul_add_relu": np.maximum(x.astype(w) * z0 + y, 0)}
    for op, want in cases.items():
        def body(a, b, m, d, op=op):
            getattr(asc, op)(d, a, b, 128)
        np.testing.assert_array_equal(run(body, x, y, None, z0.copy()), want.astype(dtype), err_msg=op)


def test_bitwise_on_float_is_rejected_with_pyascs_message():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.float32)

    def body(a, b, m, d):
        asc.bitwise_and(d, a, b, 64)
    with pytest.raises(TypeError, match="Invalid dst data type, got float32, expect one of int16, uint16"):
        run(body, x, x, None, x.copy())


SPELLINGS = {
    "whole_reduce_max": [lambda d, a: asc.whole_reduce_max(d, a, 64, 2, 1, 1, 8, asc.ReduceOrder.ORDER_VALUE_INDEX),
                         lambda d, a: asc.whole_reduce_max(d, a, mask=64, repeat_time=2, dst_rep_stride=1,
                                                           src_blk_stride=1, src_rep_stride=8)],
    "block_reduce_sum": [lambda d, a: asc.block_reduce_sum(d, a, 2, [2 ** 64 - 1], 1, 1, 8),
                         lambda d, a: asc.block_reduce_sum(d, a, repeat=2, mask=64, dst_rep_stride=1,
                                                           src_blk_stride=1, src_rep_stride=8)],
    "adds": [lambda d, a: asc.adds(d, a, 2.0, 128),
             lambda d, a: asc.adds(d, a, 2.0, count=128),
             lambda d, a: asc.adds(d, a, 2.0, 64, 2, asc.UnaryRepeatParams()),
             lambda d, a: asc.adds(d, a, 2.0, mask=[2 ** 64 - 1], repeat_times=2, repeat_params=asc.UnaryRepeatParams(),
                                   is_set_mask=True)],
    "cast": [lambda d, a: asc.cast(d, a, asc.RoundMode.CAST_RINT, 128),
             lambda d, a: asc.cast(d, a, round_mode=asc.RoundMode.CAST_RINT, count=128),
             lambda d, a: asc.cast(d, a, asc.RoundMode.CAST_RINT, 64, 2, asc.UnaryRepeatParams(1, 1, 8, 8), True)],
}


@pytest.mark.parametrize("op", list(SPELLINGS))
def test_positional_and_keyword_spellings_agree(op):
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.random.default_rng(17).random(128).astype(np.float32) * 9
    outs = []
    for spell in SPELLINGS[op]:
        def body(a, b, m, d, spell=spell):
            spell(d, a)
        outs.append(run(body, x, None, None, np.zeros(128, np.float32)))
    assert outs[0].any()
    for o in outs[1:]:
        np.testing.assert_array_equal(o, outs[0])

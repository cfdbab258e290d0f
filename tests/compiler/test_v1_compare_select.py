"""asc.compare / compare_scalar / select / get_cmp_mask / set_cmp_mask against numpy on both platforms: the
bit order of the packed result, the mask form's repeats and strides, the count form's 256-byte rule, the
three select modes."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import bits_of, platform, run  # noqa: F401  (platform: a fixture)

NP_CMP = {"LT": np.less, "GT": np.greater, "EQ": np.equal, "LE": np.less_equal, "GE": np.greater_equal,
          "NE": np.not_equal}


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("mode", list(NP_CMP))
def test_compare_count_form_packs_one_bit_per_element_little_endian(platform, mode, dtype):
    n = 256
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, n).astype(dtype)
    y = rng.integers(-3, 4, n).astype(dtype)       # many ties: EQ / LE / GE differ from LT / GT
    z = np.zeros(64, np.uint8)

    def body(a, b, m, d):
        asc.compare(d, a, b, getattr(asc.CMPMODE, mode), n)
    got = bits_of(run(body, x, y, None, z), n)
    np.testing.assert_array_equal(got, NP_CMP[mode](x, y))
    assert not run(body, x, y, None, np.zeros(64, np.uint8))[n // 8:].any()   # nothing past the n bits


def test_compare_mask_form_lane_65_of_half_sits_in_the_high_word_and_repeats_follow_the_src_stride(platform):
    n = 512
    x = np.arange(n, dtype=np.float16)
    y = np.full(n, 1000, np.float16)              # x < y everywhere: the bits show which lanes ran
    z = np.full(64, 0xAA, np.uint8)

    def body(a, b, m, d):
        asc.compare(d, a, b, asc.CMPMODE.LT, mask=[0, 1], repeat_times=2,
                    repeat_params=asc.BinaryRepeatParams(1, 1, 1, 8, 16, 8))
    got = run(body, x, y, None, z)
    bits = bits_of(got, 256)
    want = np.zeros(256, bool)
    want[[64, 128 + 64]] = True                  # lane 64 of each repeat: bit 0 of the high word
    np.testing.assert_array_equal(bits, want)
    assert (got[32:] == 0xAA).all()              # two repeats of 128 half lanes write 32 bytes


def test_compare_count_form_of_a_partial_repeat_is_rejected_at_the_users_line(platform):
    x = np.zeros(64, np.float32)
    z = np.zeros(32, np.uint8)

    def body(a, b, m, d):
        asc.compare(d, a, a, asc.CMPMODE.EQ, 40)  # the line the error names
    line = body.__code__.co_firstlineno + 1
    with pytest.raises(ValueError, match=rf"test_v1_compare_select.py:{line}: compare: count 40 of float32 is 160 "
                       r"bytes, not a multiple of 256"):
        run(body, x, None, None, z)


def test_compare_scalar_and_counter_mode(platform):
    n = 128
    x = np.linspace(-2, 2, n).astype(np.float32)
    z = np.zeros(32, np.uint8)

    def body(a, b, m, d):
        asc.compare_scalar(d, a, 0.0, asc.CMPMODE.GT, n)
    np.testing.assert_array_equal(bits_of(run(body, x, None, None, z), n), x > 0)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_select_tensor_tensor_and_tensor_scalar_consume_one_bit_per_element(platform, dtype):
    n = 256
    rng = np.random.default_rng(2)
    x = rng.random(n).astype(dtype)
    y = -rng.random(n).astype(dtype)
    sel = rng.integers(0, 256, 64).astype(np.uint8)
    bits = bits_of(sel, n)

    def body2(a, b, m, d):
        asc.select(d, m, a, b, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, n)
    np.testing.assert_array_equal(run(body2, x, y, sel, np.zeros(n, dtype)), np.where(bits, x, y))

    def body1(a, b, m, d):
        asc.select(d, m, a, 2.5, sel_mode=asc.SelMode.VSEL_TENSOR_SCALAR_MODE, count=n)
    np.testing.assert_array_equal(run(body1, x, y, sel, np.zeros(n, dtype)), np.where(bits, x, dtype(2.5)))


def test_select_mode_0_reuses_the_first_repeats_bits_in_every_repeat(platform):
    n, lanes = 192, 64
    x = np.arange(n, dtype=np.float32)
    y = -np.arange(n, dtype=np.float32)
    sel = np.zeros(32, np.uint8)
    sel[0], sel[7], sel[8] = 0b101, 0x80, 0xFF     # lanes 0, 2, 63; bits 64.. are not used in mode 0
    z = np.zeros(n, np.float32)

    def body(a, b, m, d):
        asc.select(d, m, a, b, asc.SelMode.VSEL_CMPMASK_SPR, mask=64, repeat_times=3,
                   repeat_params=asc.BinaryRepeatParams())
    lane_bits = bits_of(sel, lanes)
    want = np.where(np.tile(lane_bits, 3), x, y)
    np.testing.assert_array_equal(run(body, x, y, sel, z), want)


def test_compare_into_the_register_then_select_by_it(platform):
    n = 64
    x = np.arange(n, dtype=np.float32)
    y = np.full(n, 10, np.float32)
    z = np.zeros(n, np.float32)

    def body(a, b, m, d):
        asc.compare(a, b, asc.CMPMODE.LT, mask=64, repeat_params=asc.BinaryRepeatParams())
        asc.select(d, a, b, repeat_times=1, repeat_params=asc.BinaryRepeatParams(),
                   sel_mode=asc.SelMode.VSEL_CMPMASK_SPR)
    np.testing.assert_array_equal(run(body, x, y, None, z), np.where(x < 10, x, y))

    def body_get(a, b, m, d):
        asc.compare(a, b, asc.CMPMODE.GE, mask=64, repeat_params=asc.BinaryRepeatParams())
        asc.get_cmp_mask(d)
    got = run(body_get, x, y, None, np.zeros(32, np.uint8))
    np.testing.assert_array_equal(bits_of(got[:8], 64), x >= 10)
    assert not got[8:16].any()


def test_set_cmp_mask_feeds_the_register_select(platform):
    n = 64
    x = np.arange(n, dtype=np.float32)
    y = -x
    sel = np.zeros(32, np.uint8)
    sel[:8] = np.array([1, 0, 0, 0, 0, 0, 0, 0x80], np.uint8)    # lanes 0 and 63

    def body(a, b, m, d):
        asc.set_cmp_mask(m)
        asc.select(d, a, b, repeat_times=1, repeat_params=asc.BinaryRepeatParams(),
                   sel_mode=asc.SelMode.VSEL_CMPMASK_SPR)
    want = y.copy()
    want[[0, 63]] = x[[0, 63]]
    np.testing.assert_array_equal(run(body, x, y, sel, np.zeros(n, np.float32)), want)


def test_select_rejects_a_scalar_outside_mode_1():
    x = np.zeros(64, np.float32)

    def body(a, b, m, d):
        asc.select(d, m, a, 1.0, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 64)
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises(TypeError, match="VSEL_TENSOR_TENSOR_MODE takes a LocalTensor src1"):
        run(body, x, x, np.zeros(32, np.uint8), np.zeros(64, np.float32))


def test_select_count_form_takes_a_partial_repeat(platform):
    n = 40                                         # 160 bytes of float: not a whole repeat
    x = np.arange(64, dtype=np.float32)
    y = -x
    sel = np.zeros(32, np.uint8)
    sel[0] = 0b10110001

    def body(a, b, m, d):
        asc.select(d, m, a, b, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, n)
    got = run(body, x, y, sel, np.full(64, 7, np.float32))
    bits = np.unpackbits(sel, bitorder="little")[:n].astype(bool)
    np.testing.assert_array_equal(got[:n], np.where(bits, x[:n], y[:n]))
    assert (got[n:] == 7).all()                    # one element past the count: untouched


def test_select_takes_the_call_forms_upstream_dispatches_and_no_other(platform):
    # a float scalar only (upstream's RuntimeFloat), repeat_params in the mask form, no is_set_mask
    x, sel = np.ones(64, np.float32), np.full(8, 0xFF, np.uint8)
    calls = {
        "an int scalar": (lambda d, m, a: asc.select(d, m, a, 3, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 64),
                          "takes a float src1"),
        "no repeat_params": (lambda d, m, a: asc.select(d, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 64, 1),
                             "needs mask, repeat_times and repeat_params"),
        "is_set_mask": (lambda d, m, a: asc.select(d, m, a, a, asc.SelMode.VSEL_TENSOR_TENSOR_MODE, 64, 1,
                                                   asc.BinaryRepeatParams(), is_set_mask=True), "unexpected"),
    }
    for what, (call, message) in calls.items():
        with pytest.raises(TypeError, match=message):
            run(lambda a, b, m, d: call(d, m, a), x, x, sel, np.zeros(64, np.float32))
    got = run(lambda a, b, m, d: asc.select(d, m, a, 3.0, asc.SelMode.VSEL_TENSOR_SCALAR_MODE, 64), x, x, sel,
              np.zeros(64, np.float32))
    assert (got == 1).all()

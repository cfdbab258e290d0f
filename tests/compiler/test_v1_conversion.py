"""asc.cast against numpy on both platforms: round-half-even ties, every RoundMode at values between two
halves (and at the top of half's range), integer saturation, each operand addressed with its own element
size in the mask form; the fused add_relu_cast / mul_cast."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)

ULP = 2.0 ** -10   # one half ulp at 1.0


def _between():
    """float32 values exactly between two halves, a quarter of the way, and past half's largest value."""
    base = np.array([1.0, 1.0 + ULP, -1.0, -(1.0 + ULP), 2048.0, 2050.0], np.float64)
    v = np.concatenate([base + ULP / 2 * np.sign(base) * (base < 2048) + (base >= 2048) * 1.0,
                        base + ULP / 4 * np.sign(base), [65520.0, 65519.0, -65520.0, 1e-8, -1e-8]])
    return np.resize(v, 64).astype(np.float32)


def _bits(v):
    return np.array(v, np.float16).view(np.uint16) if abs(v) < 65536 else np.uint16(0x7C00)


def _want(x, mode):
    x = x.astype(np.float64)
    finite = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64)
    halves = np.sort(np.unique(np.concatenate([finite, -finite, [65536.0, -65536.0]])))   # 65536: IEEE's inf
    out = []
    for v in x:
        k = np.searchsorted(halves, v)
        if k < len(halves) and halves[k] == v:
            out.append(v)
            continue
        lo, hi = halves[k - 1], halves[k]
        if mode == "CAST_FLOOR":
            r = lo
        elif mode == "CAST_CEIL":
            r = hi
        elif mode == "CAST_TRUNC":
            r = lo if v > 0 else hi
        elif mode in ("CAST_RINT", "CAST_ROUND"):
            if v - lo != hi - v:
                r = lo if v - lo < hi - v else hi
            elif mode == "CAST_ROUND":
                r = hi if v > 0 else lo
            else:
                r = lo if not (_bits(lo) & 1) else hi
        else:
            r = lo if _bits(lo) & 1 else hi
        out.append(np.copysign(r, v))        # a value rounding to 0 keeps its sign
    with np.errstate(over="ignore"):
        return np.array(out).astype(np.float16)


@pytest.mark.parametrize("mode", ["CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_TRUNC", "CAST_ROUND", "CAST_ODD"])
def test_cast_float_to_half_rounds_by_the_mode_at_ties_and_the_range_end(platform, mode):
    x = _between()
    z = np.zeros(64, np.float16)

    def body(a, b, m, d):
        asc.cast(d, a, getattr(asc.RoundMode, mode), 64)
    got = run(body, x, None, None, z)
    np.testing.assert_array_equal(got.view(np.uint16), _want(x, mode).view(np.uint16))


def test_cast_rint_is_half_to_even_and_saturates_into_int16(platform):
    x = np.resize(np.array([0.5, 1.5, 2.5, -0.5, -2.5, 40000.0, -40000.0, np.nan], np.float32), 64)
    z = np.zeros(64, np.int16)

    def body(a, b, m, d):
        asc.cast(d, a, asc.RoundMode.CAST_RINT, 64)
    got = run(body, x, None, None, z)
    want = np.where(np.isnan(x), 0, np.clip(np.rint(x), -32768, 32767)).astype(np.int16)
    np.testing.assert_array_equal(got, want)

    def body_round(a, b, m, d):
        asc.cast(d, a, asc.RoundMode.CAST_ROUND, 64)
    got = run(body_round, x, None, None, np.zeros(64, np.int16))
    assert list(got[:5]) == [1, 2, 3, -1, -3]


def test_cast_half_to_float_mask_form_addresses_each_operand_by_its_own_size(platform):
    x = np.arange(256, dtype=np.float16)
    z = np.full(256, -1, np.float32)

    def body(a, b, m, d):
        # 64 lanes per repeat (the float side's 256 bytes); the half source's repeat is 4 blocks
        asc.cast(d, a, asc.RoundMode.CAST_NONE, 64, 2, asc.UnaryRepeatParams(1, 1, 8, 4))
    got = run(body, x, None, None, z)
    np.testing.assert_array_equal(got[:128], x[:128].astype(np.float32))
    assert (got[128:] == -1).all()


def test_cast_rejects_a_pair_cast_does_not_convert():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.int8)

    def body(a, b, m, d):
        asc.cast(d, a, asc.RoundMode.CAST_NONE, 64)
    with pytest.raises(TypeError, match="cast from int8 to float32 is not supported"):
        run(body, x, None, None, np.zeros(64, np.float32))


def test_add_relu_cast_and_mul_cast(platform):
    rng = np.random.default_rng(9)
    x = (rng.random(128) * 8 - 4).astype(np.float32)
    y = (rng.random(128) * 8 - 4).astype(np.float32)

    def body(a, b, m, d):
        asc.add_relu_cast(d, a, b, 128)
    got = run(body, x, y, None, np.zeros(128, np.float16))
    np.testing.assert_array_equal(got, np.maximum(x + y, 0).astype(np.float16))

    h = (rng.random(128) * 30 - 15).astype(np.float16)

    def body_mul(a, b, m, d):
        asc.mul_cast(d, a, b, 128)
    got = run(body_mul, h, h, None, np.zeros(128, np.int8))
    want = np.clip(np.rint((h * h).astype(np.float16).astype(np.float64)), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode,want", [("CAST_FLOOR", [1.0, -1.0078125]), ("CAST_CEIL", [1.0078125, -1.0]),
                                       ("CAST_RINT", [1.0, -1.0])])
def test_cast_float_to_bfloat16_by_mode(platform, mode, want):
    import ml_dtypes
    x = np.resize(np.array([1 + 2.0 ** -9, -(1 + 2.0 ** -9)], np.float32), 64)   # a quarter ulp of bf16 past 1

    def body(a, b, m, d):
        asc.cast(d, a, getattr(asc.RoundMode, mode), 64)
    got = run(body, x, None, None, np.zeros(64, ml_dtypes.bfloat16))
    np.testing.assert_array_equal(got[:2].astype(np.float64), want)


def test_dequantising_conversions_scale_by_the_deq_register(platform):
    x = np.resize(np.array([-300, -3, 0, 5, 7, 1000, 32767, -32768], np.int16), 128)

    def body(a, b, m, d):
        asc.set_deq_scale(0.5, 3, True)
        asc.cast_deq(d, a, count=128, is_vec_deq=False, half_block=True)
    got = run(body, x, None, None, np.full(256, 99, np.int8))
    want = np.clip(np.rint(x.astype(np.float32) * 0.5 + 3), -128, 127).astype(np.int8)
    blocks = got.reshape(8, 32)
    np.testing.assert_array_equal(blocks[:, :16].reshape(-1), want)    # each source block's 16 results
    assert (blocks[:, 16:] == 99).all()                                  # in the lower half of its block

    big = np.resize(np.array([1, -7, 100000, 3], np.int32), 64)

    def body_add(a, b, m, d):
        asc.set_deq_scale(0.25)
        asc.add_deq_relu(d, a, b, 64)
    got = run(body_add, big, big, None, np.zeros(64, np.float16))
    np.testing.assert_array_equal(got, np.maximum((2 * big).astype(np.float32) * np.float32(0.25), 0)
                                  .astype(np.float16))

    def body_cast(a, b, m, d):
        asc.set_deq_scale(2.0)
        asc.cast(d, a, asc.RoundMode.CAST_NONE, 64)
    got = run(body_cast, big, None, None, np.zeros(64, np.float16))
    with np.errstate(over="ignore"):                 # 200000 is past half's range: inf
        np.testing.assert_array_equal(got, (big.astype(np.float32) * 2).astype(np.float16))


def test_vector_dequantisation_takes_group_e_for_element_e_of_each_source_block(platform):
    """cast_deq's default is_vec_deq=True: the 16 (scale, offset) groups of set_deq_scale(vdeq, info), element
    e of each 32-byte source block (16 int16) taking group e; saturating to the destination type."""
    x = np.resize(np.array([100, -100, 7, 300], np.int16), 128)
    scales = [0.5 * (k + 1) for k in range(16)]
    offsets = [k - 8 for k in range(16)]

    def body(a, b, m, d):
        vdeq = asc.LocalTensor(dtype=asc.uint64, pos=asc.TPosition.VECIN, addr=4096, tile_size=16)
        asc.set_deq_scale(vdeq, asc.VdeqInfo(scales, offsets, [True] * 16))
        asc.cast_deq(d, a, count=128, half_block=True)
    got = run(body, x, None, None, np.full(256, 99, np.int8))
    e = np.arange(128) % 16
    want = np.clip(np.rint(x * np.float32(0.5) * (e + 1) + (e - 8)), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(got.reshape(8, 32)[:, :16].reshape(-1), want)


def test_vector_dequantisation_without_its_groups_names_the_call_that_sets_them(platform):
    x = np.zeros(128, np.int16)

    def body(a, b, m, d):
        asc.set_deq_scale(0.5, 3, True)
        asc.cast_deq(d, a, count=128)
    with pytest.raises(Exception, match=r"is_vec_deq=True \(its default\) reads the 16 groups") as e:
        run(body, x, None, None, np.zeros(256, np.int8))
    assert "is_vec_deq=False" in e.value.hint

    def small(a, b, m, d):
        vdeq = asc.LocalTensor(dtype=asc.uint64, pos=asc.TPosition.VECIN, addr=4096, tile_size=15)
        asc.set_deq_scale(vdeq, asc.VdeqInfo([1.0] * 16, [0] * 16, [True] * 16))
    with pytest.raises(Exception, match="holds 120 bytes; the 16 groups take 128"):
        run(small, x, None, None, np.zeros(256, np.int8))


@pytest.mark.parametrize("mode, want", [
    ("CAST_RINT", [2147483648, -2147483648, 16777216, 16777220]),
    ("CAST_TRUNC", [2147483520, -2147483520, 16777216, 16777218]),
    ("CAST_FLOOR", [2147483520, -2147483648, 16777216, 16777218]),
    ("CAST_CEIL", [2147483648, -2147483520, 16777218, 16777220]),
    ("CAST_ROUND", [2147483648, -2147483648, 16777218, 16777220]),
])
def test_cast_int32_past_float_mantissa_rounds_by_the_mode(platform, mode, want):
    # 2**24 + 1 and + 3 lie between two floats (a tie each); 2**31 - 1 just under a power of two
    x = np.resize(np.array([2147483647, -2147483647, 16777217, 16777219], np.int32), 64)

    def body(a, b, m, d):
        asc.cast(d, a, getattr(asc.RoundMode, mode), 64)
    got = run(body, x, None, None, np.zeros(64, np.float32))
    assert got[:4].astype(np.int64).tolist() == want


def test_cast_float32_to_float32_with_cast_none_rounds_half_to_even_keeping_the_sign(platform):
    # the docstring: CAST_NONE is CAST_RINT where the conversion loses precision (an integer value here)
    x = np.resize(np.array([0.5, 1.5, 2.5, -0.3, -2.5], np.float32), 64)

    def body(a, b, m, d):
        asc.cast(d, a, asc.RoundMode.CAST_NONE, 64)
    got = run(body, x, None, None, np.zeros(64, np.float32))
    assert got[:5].tolist() == [0.0, 2.0, 2.0, -0.0, -2.0] and np.signbit(got[3])

"""The vector mask register shared by every v1 vector instruction: a mask bit at the lane boundary, the mask an
is_set_mask=True call leaves for a later is_set_mask=False call, set_vector_mask in Normal (len and bit
forms) and Counter mode, reset_mask, and the count form leaving Normal mode with every lane set."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)

P = asc.UnaryRepeatParams


@pytest.mark.parametrize("dtype,word,lane", [(np.float16, [0, 1], 64), (np.float16, [1 << 63, 0], 63),
                                             (np.float32, [1 << 63], 63), (np.float32, [1], 0)])
def test_a_mask_bit_at_the_lane_boundary_touches_that_element_of_every_repeat(platform, dtype, word, lane):
    lanes = 256 // np.dtype(dtype).itemsize
    x = np.arange(3 * lanes, dtype=dtype)
    z = np.full(3 * lanes, -1, dtype)

    def body(a, b, m, d):
        asc.adds(d, a, 1, word, 3, P())
    want = np.full(3 * lanes, -1, dtype)
    want[lane::lanes] = x[lane::lanes] + 1
    np.testing.assert_array_equal(run(body, x, None, None, z), want)


def test_a_mask_list_with_no_lane_is_rejected():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.float32)

    def body(a, b, m, d):
        asc.adds(d, a, 1, [0, 1], 1, P())          # float32: the high word has no lanes
    with pytest.raises(ValueError, match="selects none of the 64 lanes"):
        run(body, x, None, None, x.copy())


def test_counter_mode_processes_the_count_across_repeats_and_ignores_repeat_times(platform):
    n = 256
    x = np.arange(n, dtype=np.float32)
    z = np.full(n, -1, np.float32)

    def body(a, b, m, d):
        asc.set_mask_count()
        asc.set_vector_mask(150, dtype=asc.float32, mode=asc.MaskMode.COUNTER)
        asc.adds(d, a, 1, 64, 1, P(), False)        # repeat_times 1 is ignored: 150 elements = 3 repeats
        asc.set_mask_norm()
        asc.reset_mask()
    want = z.copy()
    want[:150] = x[:150] + 1
    np.testing.assert_array_equal(run(body, x, None, None, z), want)


def test_counter_mode_with_is_set_mask_takes_the_mask_as_the_count_and_keeps_the_strides(platform):
    n = 512
    x = np.arange(n, dtype=np.float32)
    z = np.full(n, -1, np.float32)

    def body(a, b, m, d):
        asc.set_mask_count()
        asc.muls(d, a, 2, 70, 1, P(1, 1, 16, 8))    # 70 elements: repeat 0 at 0, repeat 1 (6 lanes) at 128
        asc.set_mask_norm()
    want = z.copy()
    want[:64] = x[:64] * 2
    want[128:134] = x[64:70] * 2
    np.testing.assert_array_equal(run(body, x, None, None, z), want)


def test_normal_mode_register_mask_len_and_bits_and_the_mask_a_call_leaves(platform):
    n = 128
    x = np.arange(n, dtype=np.float32)

    def body_len(a, b, m, d):
        asc.set_mask_norm()
        asc.set_vector_mask(10, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
        asc.adds(d, a, 1, 64, 2, P(), is_set_mask=False)
    want = np.full(n, -1, np.float32)
    want[:10], want[64:74] = x[:10] + 1, x[64:74] + 1
    np.testing.assert_array_equal(run(body_len, x, None, None, np.full(n, -1, np.float32)), want)

    def body_bits(a, b, m, d):
        asc.set_vector_mask(0, 0b1001, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
        asc.adds(d, a, 1, 64, 1, P(), is_set_mask=False)
    want = np.full(n, -1, np.float32)
    want[[0, 3]] = x[[0, 3]] + 1
    np.testing.assert_array_equal(run(body_bits, x, None, None, np.full(n, -1, np.float32)), want)

    def body_left(a, b, m, d):
        asc.adds(d, a, 1, 5, 1, P())                   # sets the register to 5 lanes
        asc.muls(d, a, 3, 64, 2, P(), is_set_mask=False)  # uses those 5 lanes
    want = np.full(n, -1, np.float32)
    want[:5], want[64:69] = x[:5] * 3, x[64:69] * 3
    np.testing.assert_array_equal(run(body_left, x, None, None, np.full(n, -1, np.float32)), want)


def test_the_count_form_and_reset_mask_restore_every_lane(platform):
    n = 128
    x = np.arange(n, dtype=np.float32)

    def body(a, b, m, d):
        asc.set_vector_mask(3, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
        asc.adds(d, a, 0, 8)                           # the count form: Normal mode, full mask afterwards
        asc.adds(d, a, 1, 64, 2, P(), is_set_mask=False)
    np.testing.assert_array_equal(run(body, x, None, None, np.full(n, -1, np.float32)), x + 1)

    def body_reset(a, b, m, d):
        asc.set_vector_mask(3, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
        asc.reset_mask()
        asc.adds(d, a, 1, 64, 2, P(), is_set_mask=False)
    np.testing.assert_array_equal(run(body_reset, x, None, None, np.full(n, -1, np.float32)), x + 1)


def test_set_vector_mask_len_outside_the_repeat_is_rejected():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.float32)

    def body(a, b, m, d):
        asc.set_vector_mask(65, dtype=asc.float32, mode=asc.MaskMode.NORMAL)
    with pytest.raises(ValueError, match=r"len 65 is outside \[1, 64\] for float32"):
        run(body, x, None, None, x.copy())


def test_a_destination_partly_overlapping_its_source_is_rejected_the_same_address_is_not():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.arange(128, dtype=np.float32)

    def in_place(a, b, m, d):
        asc.adds(a, a, 1, 128)
        asc.adds(d, a, 0, 128)
    np.testing.assert_array_equal(run(in_place, x, None, None, np.zeros(128, np.float32)), x + 1)

    def shifted(a, b, m, d):
        asc.adds(a[8:], a, 1, 64)
    with pytest.raises(ValueError, match=r"adds: the destination \(bytes \[32, 288\) of UB\) partly overlaps a "
                                         r"source \(bytes \[0, 256\)\) in \[32, 256\)"):
        run(shifted, x, None, None, np.zeros(128, np.float32))


@asc.jit
def strided_to_the_end(x: asc.GlobalAddress, z: asc.GlobalAddress, repeats: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    cap = asc.property(asc.TOTAL_UB_SIZE)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    d = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, cap - 3 * 512 + 256, 64)  # its last block: UB's last
    asc.data_copy(a, x_gm, 64)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adds(d, a, 1.0, 64, repeats, asc.UnaryRepeatParams(1, 1, 16, 0))   # repeats 512 bytes apart
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, d, 64)


def test_the_last_repeat_with_a_stride_reaches_the_end_of_ub_and_one_more_is_past_it(platform):
    x = np.arange(64, dtype=np.float32)
    z = np.zeros(64, np.float32)
    strided_to_the_end[1](x, z, 3)                  # repeat 2 writes UB's last 256 bytes
    np.testing.assert_array_equal(z, x + 1)
    cap = {"Ascend910B1": 192, "Ascend950PR_9599": 248}[platform.value] * 1024
    with pytest.raises(Exception, match=rf"adds touches bytes \[{cap - 1280}, {cap + 512}\) of UB .* which has "
                       rf"{cap} bytes"):
        strided_to_the_end[1](x, z, 4)


@asc.jit
def vector_mask_without_mode(x: asc.GlobalAddress):
    asc.set_vector_mask(64, dtype=asc.float32)                   # line: no mode


def test_set_vector_mask_needs_its_mode_as_upstreams_signature_does():
    """pyasc's set_vector_mask(*args, dtype, mode) has no default mode; the engine used to take Normal."""
    import inspect
    with pytest.raises(TypeError, match=r"set_vector_mask\(\) missing required keyword argument 'mode'") as e:
        vector_mask_without_mode[1](np.zeros(16, np.float32))
    lines, first = inspect.getsourcelines(vector_mask_without_mode.fn)
    line = first + next(i for i, t in enumerate(lines) if "# line: no mode" in t)
    assert f"test_v1_mask_modes.py:{line}: " in str(e.value) and "mode=asc.MaskMode.NORMAL" in str(e.value)

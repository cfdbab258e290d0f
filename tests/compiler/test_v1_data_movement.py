"""data_copy_pad, copy and the atomic modes against numpy on both platforms: a one-element tail copied in
with padding and out without touching the next GM element, rows with byte and block strides, copy's mask and
strides, and atomic add / max from 48 blocks into one GM row."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


@asc.jit
def pad_round_trip(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], rows: asc.ConstExpr[int],
                   gap: asc.ConstExpr[int], pad: asc.ConstExpr[int]):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x)
    z_gm.set_global_buffer(z)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 1024)
    isz = x.dtype.sizeof()
    asc.data_copy_pad(ub, x_gm, asc.DataCopyExtParams(rows, n * isz, gap * isz, 1, 0),
                      asc.DataCopyPadExtParams(x.dtype, True, 0, pad, 7))
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    # rows come back with their padding: n + pad elements each, GM rows packed
    asc.data_copy_pad(z_gm, ub, asc.DataCopyExtParams(rows, (n + pad) * isz, 1, 0, 0))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_data_copy_pad_one_element_tail_in_and_out(platform, dtype):
    x = np.arange(64, dtype=dtype) + 1
    z = np.full(64, -1, dtype)
    pad_round_trip[1](x, z, 1, 1, 0, 1)             # one element, one padding element
    assert list(z[:3]) == [x[0], 7, -1]             # the next GM element is not written


def test_data_copy_pad_rows_with_strides(platform):
    x = np.arange(64, dtype=np.float32)
    z = np.full(64, -1, np.float32)
    pad_round_trip[1](x, z, 3, 4, 2, 2)             # rows of 3 every 5 elements, padded by 2 with 7
    want = np.full(64, -1, np.float32)
    for i in range(4):
        want[i * 5: i * 5 + 5] = np.concatenate([x[i * 5: i * 5 + 3], [7, 7]])
    np.testing.assert_array_equal(z, want)


def test_data_copy_pad_without_padding_leaves_the_row_tail_undefined(platform):
    import asc.runtime as rt
    x = np.arange(64, dtype=np.float32)

    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
        asc.data_copy_pad(ub, x_gm, asc.DataCopyExtParams(1, 12, 0, 0, 0), asc.DataCopyPadExtParams(x.dtype))
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm, ub, 8)                      # reads the 5 undefined elements of the block
    k[1](x, np.zeros(64, np.float32))
    warnings = rt.last_launch_report()["warnings"]
    assert "data_copy reads 20 bytes of UB" in warnings[0]
    assert "[12, 32) that no instruction of block 0 wrote" in warnings[0]


def test_copy_with_mask_and_repeat_strides(platform):
    x = np.arange(512, dtype=np.float32)
    z = np.full(512, -1, np.float32)

    def body(a, b, m, d):
        asc.copy(d, a, 12, 2, asc.CopyRepeatParams(2, 1, 16, 8))   # dst blocks 2 apart, repeats 16 blocks
    got = run(body, x, None, None, z)
    want = np.full(512, -1, np.float32)
    for r in range(2):
        for k in range(12):
            b, e = divmod(k, 8)
            want[(r * 16 + b * 2) * 8 + e] = x[r * 64 + k]
    np.testing.assert_array_equal(got, want)


def test_copy_in_counter_mode_copies_the_mask_elements_of_each_of_its_repeats(platform):
    """copy's docstring: in Counter mode its mask is each repeat's element count and repeat_time counts. The
    engine used to take the mask as the whole call's count (one repeat of 40 here)."""
    x = np.arange(512, dtype=np.float32)
    z = np.full(512, -1, np.float32)

    def body(a, b, m, d):
        asc.set_mask_count()
        asc.copy(d, a, 40, 3, asc.CopyRepeatParams(1, 1, 8, 8))
        asc.set_mask_norm()
    got = run(body, x, None, None, z)
    want = np.full(512, -1, np.float32)
    for r in range(3):
        want[r * 64:r * 64 + 40] = x[r * 64:r * 64 + 40]
    np.testing.assert_array_equal(got, want)          # element 64 + 39 copied, 64 + 40 not, repeat 2 too


def test_copy_takes_upstreams_signature_only(platform):
    x = np.arange(128, dtype=np.float32)

    def without_params(a, b, m, d):
        asc.copy(d, a, 64, 1)

    def plural_keyword(a, b, m, d):
        asc.copy(d, a, mask=64, repeat_times=1, repeat_params=asc.CopyRepeatParams(1, 1, 8, 8))

    with pytest.raises(TypeError, match="copy: the mask form needs mask, repeat_times and repeat_params"):
        run(without_params, x, None, None, np.zeros(128, np.float32))
    with pytest.raises(TypeError, match="copy\\(\\) got an unexpected keyword argument 'repeat_times'"):
        run(plural_keyword, x, None, None, np.zeros(128, np.float32))


@asc.jit
def atomic_rows(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int], kind: asc.ConstExpr[str]):
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * n, n)
    z_gm.set_global_buffer(z, n)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    asc.data_copy(ub, x_gm, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    if kind == "add":
        asc.set_atomic_add(x.dtype)
    else:
        asc.set_atomic_max(x.dtype)
    asc.data_copy(z_gm, ub, n)
    asc.set_atomic_none()


@pytest.mark.parametrize("kind", ["add", "max"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_atomic_from_48_blocks_into_one_row(platform, kind, dtype):
    n, blocks = 64, 48
    rng = np.random.default_rng(21)
    x = rng.integers(-100, 100, blocks * n).astype(dtype)
    z0 = rng.integers(-100, 100, n).astype(dtype)
    z = z0.copy()
    atomic_rows[blocks](x, z, n, kind)
    rows = x.reshape(blocks, n)
    want = z0 + rows.sum(axis=0) if kind == "add" else np.maximum(z0, rows.max(axis=0))
    np.testing.assert_array_equal(z, want.astype(dtype))


def test_without_atomic_blocks_writing_one_row_differently_is_a_race():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)

    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress, n: asc.ConstExpr[int]):
        b = asc.get_block_idx()
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x + b * n, n)
        z_gm.set_global_buffer(z, n)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
        asc.data_copy(ub, x_gm, n)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.set_atomic_add(x.dtype)
        asc.set_atomic_none()                         # switched off again: a plain, racing write
        asc.data_copy(z_gm, ub, n)
    with pytest.raises(Exception, match="different values"):
        k[4](np.arange(4 * 64, dtype=np.float32), np.zeros(64, np.float32), 64)


def test_store_atomic_config_is_the_atomic_mode(platform):
    got = []

    @asc.jit(always_compile=True)
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
        asc.data_copy(ub, x_gm, 64)
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        got.append(asc.get_store_atomic_config())
        asc.set_store_atomic_config(asc.AtomicDtype.ATOMIC_F32, asc.AtomicOp.ATOMIC_SUM)
        got.append(asc.get_store_atomic_config())
        asc.data_copy(z_gm, ub, 64)
        asc.set_store_atomic_config(asc.AtomicDtype.ATOMIC_NONE, asc.AtomicOp.ATOMIC_SUM)
    x = np.arange(64, dtype=np.float32)
    z = np.full(64, 10, np.float32)
    k[1](x, z)
    assert got == [(0, 0), (1, 0)]
    np.testing.assert_array_equal(z, x + 10)


def test_set_pad_value_fills_the_padding_of_a_copy_without_its_own_value(platform):
    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
        asc.set_pad_value(-5.0, asc.TPosition.VECIN)
        asc.data_copy_pad(ub, x_gm, asc.DataCopyExtParams(2, 12, 0, 0, 0),
                          asc.DataCopyPadExtParams(x.dtype, False, 1, 2, 0))
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm, ub, 16)
    x = np.arange(64, dtype=np.float32) + 1
    z = np.zeros(64, np.float32)
    k[1](x, z)
    row = lambda r: [-5, *x[3 * r: 3 * r + 3], -5, -5]           # noqa: E731  (left 1, 3 values, right 2)
    np.testing.assert_array_equal(z[:6], row(0))
    np.testing.assert_array_equal(z[8:14], row(1))                # rows on 32-byte blocks


@pytest.mark.parametrize("value,ok", [(127, True), (128, False), (-128, True), (1.5, False)])
def test_a_pad_value_the_copied_dtype_cannot_hold_is_an_error(platform, value, ok):
    @asc.jit
    def k(x: asc.GlobalAddress, z: asc.GlobalAddress, v: asc.ConstExpr[float], own: asc.ConstExpr[bool]):
        x_gm = asc.GlobalTensor()
        z_gm = asc.GlobalTensor()
        x_gm.set_global_buffer(x)
        z_gm.set_global_buffer(z)
        ub = asc.LocalTensor(asc.int8, asc.TPosition.VECIN, 0, 32)
        asc.set_pad_value(v)
        asc.data_copy_pad(ub, x_gm, asc.DataCopyExtParams(1, 30, 0, 0, 0),
                          asc.DataCopyPadExtParams(asc.int8, own, 0, 2, v if own else 0))
        asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
        asc.data_copy(z_gm, ub, 32)
    for own in (False, True):                   # set_pad_value's value, and the parameters' own
        x = np.arange(32, dtype=np.int8)
        z = np.zeros(32, np.int8)
        if ok:
            k[1](x, z, value, own)
            np.testing.assert_array_equal(z, [*x[:30], value, value])
        else:
            with pytest.raises((ValueError, TypeError), match=rf"data_copy_pad \({'padding_value' if own else 'the padding set_pad_value gave VECIN'}\): the scalar {value!r} is not a int8 value"):
                k[1](x, z, value, own)


def test_data_copy_pad_launched_again_replays_with_the_new_data(platform):
    for k in range(3):
        x = np.arange(4 * 64, dtype=np.float32) + 10 * k
        z = np.full(4 * 4, -1, np.float32)          # every element written: a launch without warnings
        pad_multi[4](x, z)
        for b in range(4):
            np.testing.assert_array_equal(z[b * 4:(b + 1) * 4], [*x[b * 64: b * 64 + 3], 7])
    assert any(t is not None for t in pad_multi.__dict__.get("_v1_tapes", {}).values())


@asc.jit
def pad_multi(x: asc.GlobalAddress, z: asc.GlobalAddress):
    b = asc.get_block_idx()
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x + b * 64, 64)
    z_gm.set_global_buffer(z + b * 4, 4)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    asc.data_copy_pad(ub, x_gm, asc.DataCopyExtParams(1, 12, 0, 0, 0),
                      asc.DataCopyPadExtParams(x.dtype, True, 0, 1, 7))
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy_pad(z_gm, ub, asc.DataCopyExtParams(1, 16, 0, 0, 0))

"""v1 gathers against numpy on both platforms: gather by byte offsets (count and mask forms, an offset one
element past the source), gatherb blocks, brcb's broadcast blocks with strides, gather_mask with built-in and
tensor patterns and its returned count."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_gather_count_form_reads_elements_at_byte_offsets(platform, dtype):
    n = 128
    isz = np.dtype(dtype).itemsize
    x = np.arange(256, dtype=dtype)
    idx = np.random.default_rng(3).integers(0, 256 - 8, n)
    offs = (idx * isz).astype(np.uint32)

    def body(a, b, m, d):
        asc.gather(d, a, b, 8 * isz, n)         # src_base: 8 elements in
    got = run(body, x, offs, None, np.zeros(n, dtype))
    np.testing.assert_array_equal(got, x[idx + 8])


def test_gather_mask_form_places_each_repeat_at_its_stride(platform):
    x = np.arange(128, dtype=np.float32)
    offs = (np.arange(128)[::-1] * 4).astype(np.uint32)
    z = np.full(256, -1, np.float32)

    def body(a, b, m, d):
        asc.gather(d, a, b, 0, mask=10, repeat_times=2, dst_rep_stride=16)   # repeat 1 at element 128
    got = run(body, x, offs, None, z)
    want = np.full(256, -1, np.float32)
    want[0:10] = x[127 - np.arange(10)]
    want[128:138] = x[127 - (64 + np.arange(10))]
    np.testing.assert_array_equal(got, want)


def test_gather_offset_past_the_source_is_an_error_with_the_offset():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.arange(64, dtype=np.float32)
    offs = np.zeros(64, np.uint32)
    offs[5] = 64 * 4                             # one element past the end

    def body(a, b, m, d):
        asc.gather(d, a, b, 0, 64)
    with pytest.raises(Exception, match=r"offset 5 is byte offset 256, which is past the end of the source "
                                        r"\(256 bytes"):
        run(body, x, offs, None, np.zeros(64, np.float32))


def test_gatherb_moves_blocks(platform):
    x = np.arange(256, dtype=np.float32)
    offs = (np.array([7, 0, 3, 3, 1, 2, 6, 5, 4, 4, 4, 4, 0, 0, 0, 0]) * 32).astype(np.uint32)
    offs = np.resize(offs, 16)
    z = np.zeros(128, np.float32)

    def body(a, b, m, d):
        asc.gatherb(d, a, b, 2, asc.GatherRepeatParams(1, 8))
    got = run(body, x, offs, None, z).reshape(16, 8)
    np.testing.assert_array_equal(got, x.reshape(32, 8)[offs // 32])


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_brcb_fills_each_block_with_one_element(platform, dtype):
    per = 32 // np.dtype(dtype).itemsize
    x = np.arange(16, dtype=dtype) + 1
    z = np.zeros(per * 32, dtype)

    def body(a, b, m, d):
        asc.brcb(d, a, 2, asc.BrcbRepeatParams(2, 16))     # block b of repeat r at block 16 r + 2 b
    got = run(body, x, None, None, z).reshape(32, per)
    want = np.zeros((32, per), dtype)
    for r in range(2):
        for b in range(8):
            want[16 * r + 2 * b] = x[8 * r + b]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call", [lambda d, a, b: asc.brcb(d, a, 2), lambda d, a, b: asc.gatherb(d, a, b, 2)])
def test_brcb_and_gatherb_need_their_repeat_params_as_upstreams_signatures(platform, call):
    def body(a, b, m, d):
        call(d, a, b)
    with pytest.raises(Exception, match=r"test_v1_gather.py:\d+.*(brcb|gatherb)\(\) missing required argument "
                                        r"'repeat_params'"):
        run(body, np.zeros(64, np.float32), np.zeros(16, np.uint32), None, np.zeros(512, np.float32))


@pytest.mark.parametrize("pattern,pick", [(1, lambda i: i % 2 == 0), (2, lambda i: i % 2 == 1),
                                          (4, lambda i: i % 4 == 1), (7, lambda i: i >= 0)])
def test_gather_mask_builtin_patterns_pack_the_picked_elements(platform, pattern, pick):
    x = np.arange(256, dtype=np.float16)
    counts = []

    def body(a, b, m, d):
        counts.append(asc.gather_mask(d, a, pattern, False, 0, asc.GatherMaskParams(1, 2, 8, 0)))
        counts.append(asc.get_gather_mask_remain_count())
    got = run(body, x, None, None, np.zeros(256, np.float16))
    sel = x[pick(np.arange(256) % 128)]
    np.testing.assert_array_equal(got[:sel.size], sel)
    assert counts == [sel.size, sel.size]


def test_gather_mask_tensor_pattern_bits_and_reduce_mode(platform):
    x = np.arange(128, dtype=np.float32)
    pat = np.zeros(8, np.uint32)
    pat[0], pat[1] = 0b1011, 1 << 31             # lanes 0, 1, 3 and 63
    counts = []

    def body(a, b, m, d):
        counts.append(asc.gather_mask(d, a, b, False, 0, asc.GatherMaskParams(1, 2, 8, 0)))
    got = run(body, x, pat, None, np.zeros(64, np.float32))
    want = np.concatenate([x[[0, 1, 3, 63]], x[[64, 65, 67, 127]]])   # src1_repeat_stride 0: same bits
    np.testing.assert_array_equal(got[:8], want)
    assert counts == [8]

    def body_reduce(a, b, m, d):
        counts.append(asc.gather_mask(d, a, b, True, 2, asc.GatherMaskParams(1, 2, 8, 0)))
    got = run(body_reduce, x, pat, None, np.zeros(64, np.float32))
    np.testing.assert_array_equal(got[:4], x[[0, 1, 64, 65]])     # 2 elements per repeat: lanes 0, 1
    assert counts[-1] == 4


def test_scatter_writes_elements_at_byte_offsets(platform):
    x = np.arange(64, dtype=np.float32) + 1
    perm = np.random.default_rng(5).permutation(128)[:64]
    offs = (perm * 4).astype(np.uint32)
    z = np.full(256, -1, np.float32)

    def body(a, b, m, d):
        asc.scatter(d, a, b, 64 * 4, 64)            # dst_base: element 64
    got = run(body, x, offs, None, z)
    want = np.full(256, -1, np.float32)
    want[64 + perm] = x
    np.testing.assert_array_equal(got, want)


def test_scatter_offset_one_past_the_destination_is_an_error():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(64, np.float32)
    offs = np.zeros(64, np.uint32)
    offs[63] = 64 * 4

    def body(a, b, m, d):
        asc.scatter(d, a, b, 0, 64)
    with pytest.raises(Exception, match=r"offset 63 is byte offset 256, which is past the end of the destination"):
        run(body, x, offs, None, np.zeros(64, np.float32))

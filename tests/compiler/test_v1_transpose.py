"""v1 transposes against numpy on both platforms: the 16 x 16 block (in place too), NCHW <-> NHWC, and
trans_data_to_5hd's 16-block transposition with repeat strides."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)


@pytest.mark.parametrize("dtype", [np.float16, np.int16])
def test_transpose_16_by_16_and_in_place(platform, dtype):
    x = np.arange(256).astype(dtype)

    def body(a, b, m, d):
        asc.transpose(d, a)
    np.testing.assert_array_equal(run(body, x, None, None, np.zeros(256, dtype)), x.reshape(16, 16).T.reshape(-1))

    def body_in_place(a, b, m, d):
        asc.transpose(a, a)
        asc.adds(d, a, 0, 256)
    np.testing.assert_array_equal(run(body_in_place, x, None, None, np.zeros(256, dtype)),
                                  x.reshape(16, 16).T.reshape(-1))


@pytest.mark.parametrize("kind", ["TRANSPOSE_NCHW2NHWC", "TRANSPOSE_NHWC2NCHW"])
def test_transpose_ext_between_nchw_and_nhwc(platform, kind):
    n, c, h, w = 2, 16, 4, 4
    x = np.arange(n * c * h * w).astype(np.float16)
    tmp = np.zeros(1024, np.uint8)

    def body(a, b, m, d):
        asc.transpose(d, a, b.reinterpret_cast(asc.uint8),
                      asc.TransposeParamsExt(n, c, h, w, getattr(asc.TransposeType, kind)))
    got = run(body, x, tmp.view(np.float16), None, np.zeros(x.size, np.float16))
    if kind == "TRANSPOSE_NCHW2NHWC":
        want = x.reshape(n, c, h, w).transpose(0, 2, 3, 1)
    else:
        want = x.reshape(n, h, w, c).transpose(0, 3, 1, 2)
    np.testing.assert_array_equal(got, want.reshape(-1))


def test_trans_data_to_5hd_transposes_16_blocks_per_repeat(platform):
    x = np.arange(1024).astype(np.float16)       # 64 blocks of 16
    z = np.zeros(1024, np.float16)

    def body(a, b, m, d):
        srcs = [a[16 * i:] for i in range(16)]
        dsts = [d[16 * i:] for i in range(16)]
        asc.trans_data_to_5hd(dsts, srcs, asc.TransDataTo5HDParams(False, False, 2, 16, 16))
    got = run(body, x, None, None, z)
    want = np.zeros(1024, np.float16)
    for r in range(2):
        m = x[r * 256: r * 256 + 256].reshape(16, 16)
        want[r * 256: r * 256 + 256] = m.T.reshape(-1)
    np.testing.assert_array_equal(got, want)


def test_transpose_of_4_byte_elements_is_rejected():
    import asc.runtime.config as config
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.zeros(256, np.float32)

    def body(a, b, m, d):
        asc.transpose(d, a)
    with pytest.raises(TypeError, match="Invalid dst data type, got float32"):
        run(body, x, None, None, x.copy())

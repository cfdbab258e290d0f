"""The raw cube path (ND -> NZ data_copy, load_data, mmad, fixpipe) against numpy on both platforms, at the
edges where a layout or rounding bug shows: a K tail of one fractal, M and N off the 16 grid, a transposed
non-square B, an accumulation over 3 mmad calls rounded per call, int8 into int32, the fixpipe's quantisation
rounding and ReLU; and the checks: a missing MTE1_M / M_FIX / M_MTE1 flag named with its fix, L0 capacity."""
from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import asc
import asc.runtime as rt
import asc.runtime.config as config
from asc.sim.executor import KernelRuntimeError

sys.path.insert(0, os.path.dirname(__file__))
from v1_cube_kernels import cube_matmul, cube_matmul_db, pad  # noqa: E402

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]


def _f64(x):
    return x.astype(np.float64)


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("m,n,k", [(40, 48, 49), (16, 16, 16), (33, 20, 64)])
def test_raw_cube_matmul_equals_numpy_fp16_exact_products_fp32_sum(platform, m, n, k):
    config.set_platform(config.Backend.Model, platform)
    rng = np.random.default_rng(m * n + k)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, np.float32)
    cube_matmul[1](a, b, c, m, n, k, 1, True, True, False)
    np.testing.assert_array_equal(c, (_f64(a) @ _f64(b)).astype(np.float32))
    report = rt.last_launch_report()
    assert report["warnings"] == [] and report["kernel_type"] == "AIC_ONLY"
    assert report["pipes"]["M"] > 0 and report["pipes"]["FIX"] > 0 and report["pipes"]["MTE1"] > 0


def test_k_tail_of_one_fractal_reads_no_padding():
    """K = 17: the second K fractal holds one real column; the rest of it must not enter the sum."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    m, n, k = 16, 32, 17
    a = np.ones((m, k), np.float16)
    b = np.ones((k, n), np.float16)
    c = np.zeros((m, n), np.float32)
    cube_matmul[1](a, b, c, m, n, k, 1, True, True, False)
    assert (c == 17).all()


@pytest.mark.parametrize("platform", PLATFORMS)
def test_accumulation_over_three_mmads_rounds_to_fp32_per_call(platform):
    """C += A_s . B_s over three K steps: each step's exact sum is added to the fp32 L0C value and rounded."""
    config.set_platform(config.Backend.Model, platform)
    m, n, k = 32, 32, 48
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((m, k)) * 64).astype(np.float16)
    b = (rng.standard_normal((k, n)) / 7).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    cube_matmul[1](a, b, c, m, n, k, 3, True, True, False)
    acc = np.zeros((m, n), np.float32)
    for s in range(3):
        part = _f64(a[:, 16 * s: 16 * s + 16]) @ _f64(b[16 * s: 16 * s + 16])
        acc = (_f64(acc) + part).astype(np.float32)
    np.testing.assert_array_equal(c, acc)
    one_rounding = (_f64(a) @ _f64(b)).astype(np.float32)
    assert (c != one_rounding).any()          # the per-call rounding is visible at these magnitudes


@pytest.mark.parametrize("platform", PLATFORMS)
def test_int8_accumulates_in_int32(platform):
    config.set_platform(config.Backend.Model, platform)
    m, n, k = 20, 32, 96
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    c = np.zeros((m, n), np.int32)
    # int8 fractals are 16 x 32: B has no 2-byte fractal transpose, so it is loaded as B^T (N x K, NZ == ZN)
    cube_int8[1](a, np.ascontiguousarray(b.T), c, m, n, k)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


@asc.jit(always_compile=True)
def cube_int8(a: asc.GlobalAddress, bt: asc.GlobalAddress, c: asc.GlobalAddress, m: asc.ConstExpr[int],
              n: asc.ConstExpr[int], k: asc.ConstExpr[int]):
    mp, np_, kp = pad(m), pad(n), pad(k, 32)
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(bt)
    cg.set_global_buffer(c)
    a1 = asc.LocalTensor(asc.int8, asc.TPosition.A1, 0, mp * kp)
    b1 = asc.LocalTensor(asc.int8, asc.TPosition.B1, pad(mp * kp, 512), np_ * kp)
    a2 = asc.LocalTensor(asc.int8, asc.TPosition.A2, 0, mp * kp)
    b2 = asc.LocalTensor(asc.int8, asc.TPosition.B2, 0, np_ * kp)
    c1 = asc.LocalTensor(asc.int32, asc.TPosition.CO1, 0, mp * np_)
    asc.data_copy(a1, ag, asc.Nd2NzParams(1, m, k, 0, k, mp, 1, 0))
    asc.data_copy(b1, bg, asc.Nd2NzParams(1, n, k, 0, k, np_, 1, 0))     # B^T: N rows of K
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    for i in range(mp // 16):
        asc.load_data(a2[i * 16 * kp:], a1, asc.LoadData2DParams(i, kp // 32, mp // 16))
    for j in range(kp // 32):     # ZN: k-block j holds the N blocks of B^T's column block j
        asc.load_data(b2[j * 32 * np_:], b1, asc.LoadData2DParams(j * (np_ // 16), np_ // 16, 1))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(cg, c1, asc.FixpipeParamsV220(n, m, mp, n))


@pytest.mark.parametrize("platform", PLATFORMS)
def test_transpose_of_a_non_square_b_block(platform):
    """B is k x n = 48 x 32 (3 x 2 fractals): each fractal is transposed on the way to L0B, their order not."""
    config.set_platform(config.Backend.Model, platform)
    m, n, k = 16, 32, 48
    a = np.eye(16, 48, dtype=np.float16)          # C = the first 16 rows of B
    b = np.arange(k * n, dtype=np.float16).reshape(k, n) % 251
    c = np.zeros((m, n), np.float32)
    cube_matmul[1](a, b, c, m, n, k, 1, True, True, False)
    np.testing.assert_array_equal(c, b[:16].astype(np.float32))


@pytest.mark.parametrize("flags,event", [((False, True), "MTE1_M"), ((True, False), "M_FIX")])
def test_missing_cube_flag_is_named_with_the_fix(flags, event):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    a, b = np.ones((16, 16), np.float16), np.ones((16, 16), np.float16)
    with pytest.raises(KernelRuntimeError, match=rf"(?s)race.*asc\.HardEvent\.{event}, id"):
        cube_matmul[1](a, b, np.zeros((16, 16), np.float32), 16, 16, 16, 1, *flags, False)


def test_l0a_capacity_is_checked_with_the_numbers():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    a, b = np.ones((256, 256), np.float16), np.ones((256, 16), np.float16)
    with pytest.raises(KernelRuntimeError, match=r"L0A, which has 65536 bytes"):
        cube_matmul[1](a, b, np.zeros((256, 16), np.float32), 256, 16, 256, 1, True, True, False)


# -- fixpipe quantisation ------------------------------------------------------------------------------
def _word(scale, offset=0):
    bits = int(np.float32(scale).view(np.uint32))
    return bits | ((offset & 0x1FF) << 37)


@asc.jit
def fix_quant(x: asc.GlobalAddress, y: asc.GlobalAddress, words: asc.GlobalAddress, n: asc.ConstExpr[int],
              mode: asc.ConstExpr[int], word: asc.ConstExpr[int], relu: asc.ConstExpr[bool],
              nz: asc.ConstExpr[bool], unit: asc.ConstExpr[bool]):
    """C = R . X (16 x n) in L0C, then the fixpipe with ``mode``, ``word`` (or the per-column ``words``),
    ``relu``, ND or NZ out; ``unit``: M and FIX ordered by unit flags instead of an M_FIX flag."""
    xg, yg, wg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    wg.set_global_buffer(words)
    src_t = asc.float16 if x.dtype.sizeof() == 2 else asc.int8
    c0 = 32 // src_t.sizeof()
    rows_a2 = asc.LocalTensor(src_t, asc.TPosition.A2, 0, 16 * c0)
    b1 = asc.LocalTensor(src_t, asc.TPosition.B1, 0, n * c0)
    b2 = asc.LocalTensor(src_t, asc.TPosition.B2, 0, n * c0)
    c1 = asc.LocalTensor(asc.float32 if c0 == 16 else asc.int32, asc.TPosition.CO1, 0, 16 * n)
    asc.data_copy(b1, xg, asc.Nd2NzParams(1, n, c0, 0, c0, n, 1, 0))
    one = asc.LocalTensor(src_t, asc.TPosition.A1, 4096, 16 * c0)
    asc.data_copy(one, xg[n * c0:], asc.Nd2NzParams(1, 16, c0, 0, c0, 16, 1, 0))
    ws = asc.LocalTensor(asc.uint64, asc.TPosition.A1, 8192, n)
    asc.data_copy(ws, wg, n)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(rows_a2, one, asc.LoadData2DParams(0, 1, 1))
    asc.load_data(b2, b1, asc.LoadData2DParams(0, n // 16, 1))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(c1, rows_a2, b2, asc.MmadParams(16, n, c0, 3 if unit else 0, False, True))
    if not unit:
        asc.set_flag(asc.HardEvent.M_FIX, 0)
        asc.wait_flag(asc.HardEvent.M_FIX, 0)
    size = y.dtype.sizeof()
    params = asc.FixpipeParamsV220(n, 16, 16, 16 * 16 * size // 32 if nz else n, mode, word, 1, 0, 0, relu,
                                   3 if unit else 0)
    if mode in (asc.QuantModes.VDEQF16, asc.QuantModes.VREQ8, asc.QuantModes.VQF322B8_PRE):
        asc.fixpipe(yg, c1, ws, params)
    else:
        asc.fixpipe(yg, c1, params, asc.FixpipeConfig.cfg_nz if nz else asc.FixpipeConfig.cfg_row_major)


def _through_fixpipe(vals16xn, mode, word, relu, out, rows=None, words=None, nz=False, unit=False):
    """C = R . X through the fixpipe: X (16 x n, fp16 or int8 values) staged as B^T, R (16 x 16; default the
    identity) as A, so C holds exact sums of X's rows. Returns y as 16 x n (an NZ output is put back)."""
    n = vals16xn.shape[1]
    c0 = 16 if vals16xn.dtype == np.float16 else 32
    xt = np.zeros((n, c0), vals16xn.dtype)
    xt[:, :16] = vals16xn.T                      # B^T rows: column j of X
    r = np.zeros((16, c0), vals16xn.dtype)
    r[:, :16] = np.eye(16, dtype=vals16xn.dtype) if rows is None else rows
    y = np.zeros(16 * n, out)
    w = np.zeros(n, np.uint64) if words is None else np.asarray(words, np.uint64)
    fix_quant[1](np.concatenate([xt.reshape(-1), r.reshape(-1)]), y, w, n, int(mode), word, relu, nz, unit)
    if nz:       # column blocks of 16 x 16, one after another
        return y.reshape(n // 16, 16, 16).transpose(1, 0, 2).reshape(16, n)
    return y.reshape(16, n)


def test_fixpipe_f322f16_rounds_half_to_even_and_relu_clamps():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    # row 0 of C = X[0] + X[1]: fp32 sums exactly between two fp16 neighbours (ties), and past fp16's range
    x = np.zeros((16, 16), np.float16)
    x[0, :5] = [2048, 2050, -2048, 65504, 3]
    x[1, :5] = [1, 1, -1, 16, 0.25]
    rows = np.zeros((16, 16), np.float16)
    rows[0, :2] = 1
    y = _through_fixpipe(x, asc.QuantModes.F322F16, 0, False, np.float16, rows)
    assert list(y[0, :5]) == [2048, 2052, -2048, np.inf, 3.25]
    y = _through_fixpipe(x, asc.QuantModes.F322F16, 0, True, np.float16, rows)
    assert list(y[0, :5]) == [2048, 2052, 0, np.inf, 3.25]


def test_fixpipe_req8_scale_field_offset_and_saturation():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    x = np.zeros((16, 32), np.int8)
    x[0, :6] = [5, 7, -5, 100, -100, 1]
    # scale 0.5 exactly: 2.5 -> 2, 3.5 -> 4 (half to even), -2.5 -> -2; 50 + 100 saturates at 127
    y = _through_fixpipe(x, asc.QuantModes.REQ8, _word(0.5, 0), False, np.int8)
    assert list(y[0, :6]) == [2, 4, -2, 50, -50, 0]
    y = _through_fixpipe(x, asc.QuantModes.REQ8, _word(0.5, 100), False, np.int8)
    assert list(y[0, :6]) == [102, 104, 98, 127, 50, 100]
    # the scale field keeps 10 mantissa bits: 1 + 2**-11 is read as 1.0
    y = _through_fixpipe(x, asc.QuantModes.REQ8, _word(1 + 2 ** -11, 0), False, np.int8)
    assert list(y[0, :6]) == [5, 7, -5, 100, -100, 1]


@asc.jit
def mmad_on_gm(x: asc.GlobalAddress):
    xg = asc.GlobalTensor()
    xg.set_global_buffer(x)
    c1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 256)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, 256)
    asc.mmad(c1, xg, b2, asc.MmadParams(16, 16, 16))


def test_mmad_on_a_gm_operand_names_the_position_at_the_users_line():
    import inspect
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    line = inspect.getsourcelines(mmad_on_gm.fn)[1] + 6
    with pytest.raises(TypeError, match=rf"(?s)test_v1_cube.py:{line}.*left matrix \(fm\) must be a LocalTensor at "
                       r"TPosition A2, got a GlobalTensor.*pos=asc.TPosition.A2"):
        mmad_on_gm[1](np.zeros(256, np.float16))


@pytest.mark.parametrize("platform", PLATFORMS)
def test_double_buffered_raw_matmul_runs_clean_and_equals_numpy(platform):
    """L1 and L0 slots reused behind MTE1_MTE2 / M_MTE1 flags, L0C behind FIX_M: no race, no warning; the
    block's K steps accumulate in L0C (rounded to fp32 after each step)."""
    config.set_platform(config.Backend.Model, platform)
    m, n, k = 256, 128, 192
    rng = np.random.default_rng(8)
    a = rng.integers(-8, 9, (m, k)).astype(np.float16)
    b = rng.integers(-8, 9, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    cube_matmul_db[1](a, b, c, m, n, k, 128, 128, 64)
    np.testing.assert_array_equal(c, _f64(a) @ _f64(b))
    assert rt.last_launch_report()["warnings"] == []


def test_fixpipe_nz_output_vector_scales_and_unit_flag():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(6)
    x = rng.integers(-100, 100, (16, 32)).astype(np.int8)
    # NZ out: column blocks of 16; the put-back matrix is C
    y = _through_fixpipe(x, asc.QuantModes.NoQuant, 0, False, np.int32, nz=True)
    np.testing.assert_array_equal(y, x.astype(np.int32))
    # VDEQF16: one scale per column from the A1 workspace
    scales = np.array([2.0 ** (j % 5 - 2) for j in range(32)], np.float32)
    y = _through_fixpipe(x, asc.QuantModes.VDEQF16, 0, False, np.float16, words=[_word(s) for s in scales])
    np.testing.assert_array_equal(y, (x.astype(np.float32) * scales[None, :]).astype(np.float16))
    # unit flags order M and FIX instead of a flag
    y = _through_fixpipe(x, asc.QuantModes.NoQuant, 0, True, np.int32, unit=True)
    np.testing.assert_array_equal(y, np.maximum(x, 0).astype(np.int32))
    report = rt.last_launch_report()
    assert report["warnings"] == []


# -- load-3D (im2col), data_copy from CO1, NZ -> ND out of UB ----------------------------------------------
@asc.jit
def im2col_kernel(fmap: asc.GlobalAddress, eye: asc.GlobalAddress, out: asc.GlobalAddress, h: asc.ConstExpr[int],
                  w: asc.ConstExpr[int], me: asc.ConstExpr[int], kk: asc.ConstExpr[int], k0: asc.ConstExpr[int],
                  via_copy: asc.ConstExpr[bool]):
    """The im2col window (me x kk from column k0) of a 16-channel h x w map (3 x 3 filter, stride 1, pad 1,
    dilation 2 in W), multiplied by the identity so the fixpipe writes it out."""
    fg, eg, og = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    fg.set_global_buffer(fmap)
    eg.set_global_buffer(eye)
    og.set_global_buffer(out)
    f1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, h * w * 16)
    b1 = asc.LocalTensor(asc.float16, asc.TPosition.B1, 65536, kk * kk)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, me * kk)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, kk * kk)
    c1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, me * kk)
    asc.data_copy(f1, fg, h * w * 16)
    asc.data_copy(b1, eg, asc.Nd2NzParams(1, kk, kk, 0, kk, kk, 1, 0))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, f1, asc.LoadData3DParamsV2((1, 1, 1, 1), h, w, 16, kk, me, k0, 0, 1, 1, 3, 3, 2, 1, False, 0))
    for j in range(kk // 16):
        asc.load_data(b2[j * 16 * kk:], b1, asc.LoadData2DParams(j, kk // 16, kk // 16, 0, 0, True))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(c1, a2, b2, asc.MmadParams(me, kk, kk))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    if via_copy:
        asc.set_fix_pipe_pre_quant_flag(0)
        asc.data_copy(og, c1, asc.DataCopyCO12DstParams(kk, me, kk, me, asc.QuantModes.F322F16, 0, False, True))
    else:
        asc.fixpipe(og, c1, asc.FixpipeParamsV220(kk, me, me, kk, asc.QuantModes.F322F16))


def _im2col(fmap, pad, dil_w, kh=3, kw=3):
    c, h, w = fmap.shape
    p = np.zeros((c, h + 2 * pad, w + 2 * pad), fmap.dtype)
    p[:, pad:pad + h, pad:pad + w] = fmap
    wo = (w + 2 * pad - dil_w * (kw - 1) - 1) + 1
    ho = h + 2 * pad - (kh - 1)
    rows = []
    for oh in range(ho):
        for ow in range(wo):
            rows.append([p[ch, oh + i, ow + j * dil_w] for i in range(kh) for j in range(kw) for ch in range(c)])
    return np.array(rows)


@pytest.mark.parametrize("via_copy", [False, True])
def test_load_3d_im2col_window_and_data_copy_from_co1(via_copy):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    h, w = 5, 6
    rng = np.random.default_rng(9)
    fmap = rng.integers(-9, 10, (16, h, w)).astype(np.float16)           # C x H x W, C1 = 1
    full = _im2col(fmap, 1, 2)                                          # Ho x Wo rows, (kh, kw, c) columns
    me, kk, k0 = 32, 64, 16
    out = np.zeros((me, kk), np.float16)
    im2col_kernel[1](np.ascontiguousarray(fmap.transpose(1, 2, 0)).reshape(-1), np.eye(kk, dtype=np.float16), out,
                     h, w, me, kk, k0, via_copy)
    want = np.zeros((me, kk), np.float16)                               # rows past Ho x Wo: the pad value
    want[: min(me, full.shape[0])] = full[:me, k0:k0 + kk]
    np.testing.assert_array_equal(out, want)


@asc.jit
def nz2nd_kernel(x: asc.GlobalAddress, y: asc.GlobalAddress, rows: asc.ConstExpr[int], cols: asc.ConstExpr[int]):
    xg, yg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    ub = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 0, rows * cols)
    asc.data_copy(ub, xg, rows * cols)
    asc.set_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE3, 0)
    asc.data_copy(yg, ub, asc.Nz2NdParamsFull(1, rows, cols - 3, 0, rows, cols, 0))


def test_nz_to_nd_out_of_ub_drops_the_column_padding():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rows, cols = 16, 32
    m = np.arange(rows * cols, dtype=np.float16).reshape(rows, cols)
    stored = m.reshape(rows, cols // 16, 16).transpose(1, 0, 2).reshape(-1)     # NZ, column blocks of 16
    y = np.full((rows, cols), -1, np.float16)
    nz2nd_kernel[1](stored, y.reshape(-1), rows, cols)
    np.testing.assert_array_equal(y[:, :cols - 3], m[:, :cols - 3])
    assert (y[:, cols - 3:] == -1).all()


@asc.jit
def sparse_kernel(a: asc.GlobalAddress, bdt: asc.GlobalAddress, idx: asc.GlobalAddress, c: asc.GlobalAddress,
                  m: asc.ConstExpr[int], n: asc.ConstExpr[int], k: asc.ConstExpr[int]):
    ag, bg, ig, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(bdt)
    ig.set_global_buffer(idx)
    cg.set_global_buffer(c)
    kd = k // 2
    a1 = asc.LocalTensor(asc.int8, asc.TPosition.A1, 0, m * k)
    b1 = asc.LocalTensor(asc.int8, asc.TPosition.B1, 65536, n * kd)
    i1 = asc.LocalTensor(asc.uint8, asc.TPosition.B1, 131072, n * kd // 4)
    a2 = asc.LocalTensor(asc.int8, asc.TPosition.A2, 0, m * k)
    b2 = asc.LocalTensor(asc.int8, asc.TPosition.B2, 0, n * kd)
    c1 = asc.LocalTensor(asc.int32, asc.TPosition.CO1, 0, m * n)
    asc.data_copy(a1, ag, asc.Nd2NzParams(1, m, k, 0, k, m, 1, 0))
    asc.data_copy(b1, bg, asc.Nd2NzParams(1, n, kd, 0, kd, n, 1, 0))   # the dense B^T: N rows of K / 2
    asc.data_copy(i1, ig, n * kd // 4)
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    for i in range(m // 16):
        asc.load_data(a2[i * 16 * k:], a1, asc.LoadData2DParams(i, k // 32, m // 16))
    for j in range(kd // 32):
        asc.load_data_with_sparse(b2[j * 32 * n:], b1, i1, asc.LoadData2DParams(j * (n // 16), n // 16, 1))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad_with_sparse(c1, a2, b2, asc.MmadParams(m, n, k))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(cg, c1, asc.FixpipeParamsV220(n, m, m, n))


def _densify(b):
    """4:2 densification of B (k x n): per column and group of 4, the first two non-zeros (zeros fill), and the
    indices p0 and p1 - 1."""
    k, n = b.shape
    dense = np.zeros((k // 2, n), np.int8)
    index = np.zeros((k // 2, n), np.uint8)
    for g in range(k // 4):
        for j in range(n):
            nz = [p for p in range(4) if b[4 * g + p, j] != 0][:2]
            nz = nz + [p for p in range(4) if p not in nz][: 2 - len(nz)]
            p0, p1 = sorted(nz)
            dense[2 * g, j], dense[2 * g + 1, j] = b[4 * g + p0, j], b[4 * g + p1, j]
            index[2 * g, j], index[2 * g + 1, j] = p0, p1 - 1
    return dense, index


def test_sparse_mmad_expands_b_by_its_indices():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    m, n, k = 16, 32, 128
    rng = np.random.default_rng(10)
    a = rng.integers(-100, 100, (m, k)).astype(np.int8)
    b = rng.integers(-100, 100, (k, n)).astype(np.int8)
    for g in range(k // 4):                      # keep at most two non-zeros per group of 4
        for j in range(n):
            b[4 * g + rng.choice(4, 2, replace=False), j] = 0
    dense, index = _densify(b)
    # the indices ride with the dense bytes: B^T stored NZ (column blocks of 32 k-values), four per byte
    nz_index = index.T.reshape(n, k // 64, 32).transpose(1, 0, 2).reshape(-1)
    packed = (nz_index.reshape(-1, 4).astype(np.uint8) << np.array([0, 2, 4, 6], np.uint8)).sum(axis=1)
    c = np.zeros((m, n), np.int32)
    sparse_kernel[1](a, np.ascontiguousarray(dense.T), packed.astype(np.uint8), c, m, n, k)
    np.testing.assert_array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("platform", PLATFORMS)
def test_load_data_2d_v2_windows_equal_the_per_block_loads(platform):
    """K in 2 steps: each step's A window (all M blocks x half the K blocks) by one LoadData2DParamsV2."""
    config.set_platform(config.Backend.Model, platform)
    m, n, k = 48, 32, 64
    rng = np.random.default_rng(11)
    a = rng.integers(-8, 9, (m, k)).astype(np.float16)
    b = rng.integers(-8, 9, (k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    cube_matmul[1](a, b, c, m, n, k, 2, True, True, True)
    np.testing.assert_array_equal(c, _f64(a) @ _f64(b))


@asc.jit
def cube_misuse(x: asc.GlobalAddress, y: asc.GlobalAddress, kind: asc.ConstExpr[int]):
    xg, yg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, 256)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, 256)
    c1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 256)
    asc.load_data(a2, xg, asc.LoadData2DParams(0, 1, 1))            # GM -> L0A on MTE2
    asc.load_data(b2, xg[256:], asc.LoadData2DParams(0, 1, 1))
    asc.set_flag(asc.HardEvent.MTE2_M, 0)
    asc.wait_flag(asc.HardEvent.MTE2_M, 0)
    asc.mmad(c1, a2, b2, asc.MmadParams(16, 16, 16, 0, False, True))
    if kind == 0:
        asc.set_flag(asc.HardEvent.M_FIX, 0)
        asc.wait_flag(asc.HardEvent.M_FIX, 0)
        asc.fixpipe(yg, c1, asc.FixpipeParamsV220(16, 16, 16, 16))
    elif kind == 1:                       # unit_flag 3 on the fixpipe, none on the mmad
        asc.fixpipe(yg, c1, asc.FixpipeParamsV220(16, 16, 16, 16, unit_flag=3))
    else:                                 # F322F16 into a float32 destination
        asc.set_flag(asc.HardEvent.M_FIX, 0)
        asc.wait_flag(asc.HardEvent.M_FIX, 0)
        asc.fixpipe(yg, c1, asc.FixpipeParamsV220(16, 16, 16, 16, asc.QuantModes.F322F16))


def test_gm_to_l0_loads_and_fixpipe_misuse():
    """Fractals straight from GM into L0A / L0B (MTE2): A's fractal row-major (ZZ), B's n-major (ZN)."""
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(12)
    a = rng.integers(-5, 6, (16, 16)).astype(np.float16)
    bt = rng.integers(-5, 6, (16, 16)).astype(np.float16)          # L0B holds B^T's rows
    y = np.zeros((16, 16), np.float32)
    cube_misuse[1](np.concatenate([a.reshape(-1), bt.reshape(-1)]), y, 0)
    np.testing.assert_array_equal(y, a.astype(np.float64) @ bt.T.astype(np.float64))
    with pytest.raises(ValueError, match="(?s)unit_flag = 3 waits for an mmad.*M_FIX"):
        cube_misuse[1](np.zeros(512, np.float16), y, 1)
    with pytest.raises(TypeError, match="(?s)F322F16 converts float32 to float16, got float32 -> float32.*float16"):
        cube_misuse[1](np.zeros(512, np.float16), y, 2)


@asc.jit
def transpose_load(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, v2: asc.ConstExpr[bool]):
    """A 16 x 16 from GM into L0A; B 32 x 16 (two K fractals) NZ into B1, each fractal transposed into L0B by
    load_data_with_transpose (LoadData2dTransposeParams or its V2)."""
    ag, bg, cg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    a1 = asc.LocalTensor(asc.float16, asc.TPosition.A1, 0, 16 * 32)
    b1 = asc.LocalTensor(asc.float16, asc.TPosition.B1, 4096, 32 * 16)
    a2 = asc.LocalTensor(asc.float16, asc.TPosition.A2, 0, 16 * 32)
    b2 = asc.LocalTensor(asc.float16, asc.TPosition.B2, 0, 32 * 16)
    c1 = asc.LocalTensor(asc.float32, asc.TPosition.CO1, 0, 256)
    asc.data_copy(a1, ag, asc.Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0))
    asc.data_copy(b1, bg, asc.Nd2NzParams(1, 32, 16, 0, 16, 32, 1, 0))
    asc.set_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.wait_flag(asc.HardEvent.MTE2_MTE1, 0)
    asc.load_data(a2, a1, asc.LoadData2DParams(0, 2, 1))
    if v2:
        asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParamsV2(0, 2, 1, 0, 0, 0, 0))
    else:
        asc.load_data_with_transpose(b2, b1, asc.LoadData2dTransposeParams(0, 2, 1, 0, 0, 0))
    asc.set_flag(asc.HardEvent.MTE1_M, 0)
    asc.wait_flag(asc.HardEvent.MTE1_M, 0)
    asc.mmad(c1, a2, b2, asc.MmadParams(16, 16, 32))
    asc.set_flag(asc.HardEvent.M_FIX, 0)
    asc.wait_flag(asc.HardEvent.M_FIX, 0)
    asc.fixpipe(cg, c1, asc.FixpipeParamsV220(16, 16, 16, 16))


@pytest.mark.parametrize("v2", [False, True])
def test_load_data_with_transpose_both_records(v2):
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(13)
    a = rng.integers(-5, 6, (16, 32)).astype(np.float16)
    b = rng.integers(-5, 6, (32, 16)).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    transpose_load[1](a, b, c, v2)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b)

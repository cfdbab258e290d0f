"""Matmul modes: quantised output (scalar and per-column words, int8 x int8 into half and int8), NZ
operands and output, a UB operand, HF32, batches delivered by get_batch_tensor_c, asynchronous delivery,
get_offset_c, iterate_n_batch, and the cube-only iterate_batch with set_batch_num."""
from __future__ import annotations

import numpy as np
import pytest

import asc
import asc.runtime as rt
import asc.runtime.config as config
from asc.sim.executor import KernelRuntimeError

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]
GM, ND, NZ = asc.TPosition.GM, asc.CubeFormat.ND, asc.CubeFormat.NZ


def tiling(m, n, k, bm=32, bn=32, bk=32):
    return asc.adv.TCubeTiling(used_core_num=1, m=m, n=n, k_a=k, k_b=k, single_core_m=m, single_core_n=n,
                               single_core_k=k, base_m=bm, base_n=bn, base_k=bk, depth_a1=1, depth_b1=1, step_m=1,
                               step_n=1, step_k_a=1, step_k_b=1)


def word(scale, offset=0):
    return int(np.float32(scale).view(np.uint32)) | ((offset & 0x1FF) << 37)


@asc.jit
def mm_mode(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, q: asc.GlobalAddress,
            t: asc.adv.TCubeTiling, ws: asc.GlobalAddress, mode: asc.ConstExpr[str], w: asc.ConstExpr[int]):
    ag, bg, cg, qg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    qg.set_global_buffer(q)
    a_pos = asc.TPosition.VECIN if mode == "ub_a" else GM
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(a_pos, NZ if mode in ("nz", "nz_c") else ND, ag.dtype),
                        b=asc.adv.MatmulType(GM, NZ if mode == "nz" else ND, bg.dtype),
                        c=asc.adv.MatmulType(GM, NZ if mode == "nz_c" else ND, cg.dtype))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, t)
    if mode == "quant_scalar":
        mm.set_quant_scalar(w)
    elif mode == "quant_vector":
        mm.set_quant_vector(qg)
    elif mode == "hf32":
        mm.set_hf32(True)          # trans_mode 0: to nearest even
    elif mode == "hf32_zero":
        mm.set_hf32(True, 1)       # toward zero
    if mode == "ub_a":
        ua = asc.LocalTensor(ag.dtype, asc.TPosition.VECIN, 0, t.m * t.k_a)
        asc.data_copy(ua, ag, t.m * t.k_a)
        asc.set_flag(asc.HardEvent.MTE2_FIX, 0)
        asc.wait_flag(asc.HardEvent.MTE2_FIX, 0)
        mm.set_tensor_a(ua)
    else:
        mm.set_tensor_a(ag)
    mm.set_tensor_b(bg)
    mm.iterate_all(cg)
    mm.end()


def nz(x, c0):
    """x (rows x cols) stored NZ: column blocks of c0, rows padded to 16."""
    r, c = x.shape
    rp, cp = -(-r // 16) * 16, -(-c // c0) * c0
    p = np.zeros((rp, cp), x.dtype)
    p[:r, :c] = x
    return p.reshape(rp, cp // c0, c0).transpose(1, 0, 2).reshape(-1)


def run(mode, a, b, c, q=None, w=0, t=None):
    m, k = a.shape
    n = b.shape[1]
    t = t or tiling(m, n, k)
    qa = q if q is not None else np.zeros(1, np.uint64)
    aa, bb = a, b
    if mode == "nz":
        aa, bb = nz(a, 32 // a.itemsize), nz(b, 32 // b.itemsize)
    elif mode == "nz_c":
        aa = nz(a, 32 // a.itemsize)
    mm_mode[1](aa, bb, c, qa, t, np.zeros(64, np.uint8), mode, w)
    return c


@pytest.mark.parametrize("platform", PLATFORMS)
def test_int8_matmul_dequantised_to_half_by_a_scalar_word(platform):
    config.set_platform(config.Backend.Model, platform)
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (32, 64)).astype(np.int8)
    b = rng.integers(-128, 128, (64, 32)).astype(np.int8)
    c = np.zeros((32, 32), np.float16)
    run("quant_scalar", a, b, c, w=word(1 / 64))
    acc = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(c, (acc.astype(np.float32) * np.float32(1 / 64)).astype(np.float16))


def test_int8_matmul_requantised_per_column_rounds_and_saturates():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(2)
    a = rng.integers(-20, 20, (32, 32)).astype(np.int8)
    b = rng.integers(-20, 20, (32, 32)).astype(np.int8)
    scales = np.array([2.0 ** -(j % 6 + 2) for j in range(32)], np.float32)
    q = np.array([word(s, 3) for s in scales], np.uint64)
    c = np.zeros((32, 32), np.int8)
    run("quant_vector", a, b, c, q=q)
    acc = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32) * scales[None, :]
    np.testing.assert_array_equal(c, np.clip(np.rint(acc.astype(np.float64) + 3), -128, 127).astype(np.int8))


def test_quantised_matmul_without_a_scale_is_an_error():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    a = np.ones((32, 32), np.int8)
    with pytest.raises(KernelRuntimeError, match="set_quant_scalar"):
        run("plain", a, a, np.zeros((32, 32), np.float16))


@pytest.mark.parametrize("platform", PLATFORMS)
def test_nz_operands_and_nz_output(platform):
    config.set_platform(config.Backend.Model, platform)
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (40, 48)).astype(np.float16)        # rows padded to 48 in NZ
    b = rng.integers(-4, 5, (48, 32)).astype(np.float16)
    c = np.zeros((40, 32), np.float32)
    run("nz", a, b, c, t=tiling(40, 32, 48, 16, 16, 16))
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b)
    c_nz = np.zeros(48 * 32, np.float32)
    run("nz_c", a, b, c_nz, t=tiling(40, 32, 48, 16, 16, 16))
    back = c_nz.reshape(2, 48, 16).transpose(1, 0, 2).reshape(48, 32)[:40]
    np.testing.assert_array_equal(back, a.astype(np.float64) @ b)


def test_ub_operand_and_hf32():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(4)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    run("ub_a", a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b)
    x = (1 + rng.integers(0, 2 ** 12, (32, 32)) * 2.0 ** -23).astype(np.float32)   # bits below HF32's 11
    y = np.eye(32, dtype=np.float32)
    out = np.zeros((32, 32), np.float32)
    from asc.sim.ops.arith import hf32
    run("hf32", x, y, out)
    np.testing.assert_array_equal(out, hf32(x, toward_zero=False))
    assert (out != x).any()
    run("hf32_zero", x, y, out)
    np.testing.assert_array_equal(out, hf32(x))
    assert (hf32(x) != hf32(x, toward_zero=False)).any()   # the two modes differ on these values


@asc.jit
def mm_batches(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, out: asc.GlobalAddress,
               t: asc.adv.TCubeTiling, ws: asc.GlobalAddress, mode: asc.ConstExpr[str]):
    ag, bg, cg, og = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    og.set_global_buffer(out)
    kind = asc.LayoutMode.NORMAL
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(GM, ND, ag.dtype, False, kind),
                        b=asc.adv.MatmulType(GM, ND, bg.dtype, False, kind),
                        c=asc.adv.MatmulType(GM, ND, cg.dtype, False, kind))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, t)
    mm.set_tensor_a(ag)
    mm.set_tensor_b(bg)
    size = t.m * t.n
    if mode == "get_batch":
        mm.iterate_batch(cg, 2, 2, False, sync=False)
        ub = asc.LocalTensor(cg.dtype, asc.TPosition.VECOUT, 0, 2 * size)
        mm.get_batch_tensor_c(ub, 2, 2, False, False)
        asc.set_flag(asc.HardEvent.FIX_MTE3, 0)
        asc.wait_flag(asc.HardEvent.FIX_MTE3, 0)
        asc.data_copy(og, ub, 2 * size)
    elif mode == "n_batch":
        mm.set_workspace(cg)
        mm.iterate_n_batch(2, 2, 2, False)
    else:
        mm.set_batch_num(2, 2)
        mm.iterate_batch(cg, False, 0, False)
    mm.end()


@pytest.mark.parametrize("mode", ["get_batch", "n_batch", "cube_only"])
def test_batch_modes(mode):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(5)
    nb = 4 if mode == "n_batch" else 2
    a = rng.integers(-4, 5, (nb, 32, 16)).astype(np.float16)
    b = rng.integers(-4, 5, (nb, 16, 32)).astype(np.float16)
    c = np.zeros((nb, 32, 32), np.float32)
    out = np.zeros((2, 32, 32), np.float32)
    mm_batches[1](a, b, c, out, tiling(32, 32, 16, 32, 32, 16), np.zeros(64, np.uint8), mode)
    want = np.matmul(a.astype(np.float64), b)
    np.testing.assert_array_equal(c, want)
    if mode == "get_batch":
        np.testing.assert_array_equal(out, want)


@asc.jit
def mm_async(a: asc.GlobalAddress, b: asc.GlobalAddress, c: asc.GlobalAddress, offs: asc.GlobalAddress,
             t: asc.adv.TCubeTiling, ws: asc.GlobalAddress, wait: asc.ConstExpr[bool]):
    ag, bg, cg, og = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    ag.set_global_buffer(a)
    bg.set_global_buffer(b)
    cg.set_global_buffer(c)
    og.set_global_buffer(offs)
    mm = asc.adv.Matmul(a=asc.adv.MatmulType(GM, ND, ag.dtype), b=asc.adv.MatmulType(GM, ND, bg.dtype),
                        c=asc.adv.MatmulType(asc.TPosition.VECCALC, ND, cg.dtype))
    asc.adv.register_matmul(asc.TPipe(), ws, mm, t)
    mm.set_tensor_a(ag)
    mm.set_tensor_b(bg)
    ub = asc.LocalTensor(cg.dtype, asc.TPosition.VECCALC, 0, t.base_m * t.base_n)
    with mm.iterate() as count:
        mm.async_get_tensor_c(ub)
        if wait:
            mm.wait_get_tensor_c()
        off = mm.get_offset_c()
        og.set_value(count * 2, off.row)
        og.set_value(count * 2 + 1, off.col)
        asc.muls(ub, ub, 2.0, t.base_m * t.base_n)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        params = asc.DataCopyParams(t.base_m, t.base_n * 4 // 32, 0, (t.n - t.base_n) * 4 // 32)
        asc.data_copy(cg[off.offset:], ub, repeat_params=params)
        asc.set_flag(asc.HardEvent.MTE3_V, 0)
        asc.wait_flag(asc.HardEvent.MTE3_V, 0)
    mm.end()


def test_async_get_tensor_c_needs_its_wait_and_get_offset_c_places_blocks():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    rng = np.random.default_rng(6)
    a = rng.integers(-4, 5, (64, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 64)).astype(np.float16)
    c = np.zeros((64, 64), np.float32)
    offs = np.zeros(8, np.int32)
    mm_async[1](a, b, c, offs, tiling(64, 64, 32), np.zeros(64, np.uint8), True)
    np.testing.assert_array_equal(c, 2 * (a.astype(np.float64) @ b))
    assert list(offs) == [0, 0, 32, 0, 0, 32, 32, 32]          # M fastest
    with pytest.raises(KernelRuntimeError, match="(?s)read-after-write.*FIX and V"):
        mm_async[1](a, b, c, offs, tiling(64, 64, 32), np.zeros(64, np.uint8), False)

"""asc.adv beyond Matmul: the elementwise math against its float64 reference rounded to the output type (at
domain edges, rounding ties, poles), exp's Taylor levels, power / xor / axpy, and the checks (overlap,
dtypes, count)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import special

import asc
import asc.runtime.config as config

PLATFORMS = [config.Platform.Ascend910B1, config.Platform.Ascend950PR_9599]


@asc.jit
def unary(x: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int], fn: asc.ConstExpr[str],
          level: asc.ConstExpr[int]):
    xg, yg = asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    yg.set_global_buffer(y)
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(x.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(a, xg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if fn == "exp":
        asc.adv.exp(b, a, n, level)
    else:
        getattr(asc.adv, fn)(b, a)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(yg, b, n)


REF = {"acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan,
       "atanh": np.arctanh, "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh, "digamma": special.digamma,
       "erf": special.erf, "erfc": special.erfc, "floor": np.floor, "frac": lambda v: np.fmod(v, 1.0),
       "lgamma": special.gammaln, "log": np.log, "round": np.rint, "sign": np.sign,
       "sin": np.sin, "sinh": np.sinh, "tan": np.tan, "tanh": np.tanh, "trunc": np.trunc, "exp": np.exp}


def run_unary(fn, x, level=0):
    y = np.zeros_like(x)
    unary[1](x, y, x.size, fn, level)
    return y


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("fn", sorted(REF))
def test_math_is_the_float64_reference_rounded_to_the_output(fn, dtype):
    config.set_platform(config.Backend.Model, PLATFORMS[hash(fn) % 2])
    x = np.concatenate([np.linspace(-4, 4, 57), [0.5, 1.5, 2.5, -0.5, -2.5, 1.0, -1.0, 0.0, 3.75, -1.25, 0.999,
                                                 1.001, 7.0]]).astype(dtype)
    x = np.resize(x, 64 if dtype == np.float32 else 80)
    y = run_unary(fn, x)
    with np.errstate(all="ignore"):
        want = REF[fn](x.astype(np.float64)).astype(dtype)
    np.testing.assert_array_equal(y, want)


def test_edges_a_user_relies_on():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.5, 0, 0], np.float32)
    assert list(run_unary("round", x)[:6]) == [0, 2, 2, -0.0, -2, 4]           # half to even
    f = run_unary("frac", np.array([-1.25, 2.75, 3, -0.0, 0, 0, 0, 0], np.float32))
    assert list(f[:3]) == [-0.25, 0.75, 0]
    s = run_unary("sign", np.array([-3, 0, 2, -0.0, np.nan, 0, 0, 0], np.float32))
    assert list(s[:4]) == [-1, 0, 1, 0] and np.isnan(s[4])
    e = run_unary("acos", np.array([1, np.nextafter(np.float32(1), np.float32(2)), -1, 0, 0, 0, 0, 0], np.float32))
    assert e[0] == 0 and np.isnan(e[1]) and e[2] == np.float32(np.pi)
    lg = run_unary("lgamma", np.array([-0.5, 1, 2, 0.5, 0, -3, 1, 1], np.float32))
    assert lg[0] == np.float32(np.log(2 * np.sqrt(np.pi))) and lg[1] == 0 and lg[2] == 0
    assert lg[4] == np.inf and lg[5] == np.inf                                  # log|gamma| at its poles
    d = run_unary("digamma", np.array([1, 0, -1, 2, 1, 1, 1, 1], np.float32))
    assert d[0] == np.float32(-np.euler_gamma) and not np.isfinite(d[1]) and not np.isfinite(d[2])


def test_exp_taylor_levels_follow_ascend_cs_expansion():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    x = np.array([0.9, -1.5, 2.25, 0.0, 0.5, 1, 3, -4], np.float32)
    n = np.floor(x.astype(np.float64))
    f = x - n
    y2 = run_unary("exp", x, 2)
    np.testing.assert_array_equal(y2, (np.exp(n) * (1 + f + f * f / 2)).astype(np.float32))
    assert y2[0] != np.float32(np.exp(0.9))              # a low level shows its error
    y0 = run_unary("exp", x, 0)
    np.testing.assert_array_equal(y0, np.exp(x.astype(np.float64)).astype(np.float32))


@asc.jit
def binary(x0: asc.GlobalAddress, x1: asc.GlobalAddress, y: asc.GlobalAddress, n: asc.ConstExpr[int],
           fn: asc.ConstExpr[str]):
    g0, g1, yg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    g0.set_global_buffer(x0)
    g1.set_global_buffer(x1)
    yg.set_global_buffer(y)
    a = asc.LocalTensor(x0.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(x1.dtype, asc.TPosition.VECIN, 4096, n)
    c = asc.LocalTensor(y.dtype, asc.TPosition.VECOUT, 8192, n)
    asc.data_copy(a, g0, n)
    asc.data_copy(b, g1, n)
    asc.data_copy(c, yg, n)
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if fn == "axpy":
        asc.adv.axpy(c, a, 0.1)
    else:
        getattr(asc.adv, fn)(c, a, b)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(yg, c, n)


def test_power_xor_axpy():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    base = np.array([2, -3, 5, 1, -1, 7, 2, 0], np.int32)
    ex = np.array([31, 3, 0, -4, -3, 2, 32, 5], np.int32)
    y = np.zeros(8, np.int32)
    binary[1](base, ex, y, 8, "power")
    assert list(y) == [-2 ** 31, -27, 1, 1, -1, 49, 0, 0]              # 32-bit wrap, negative exponents
    a = np.array([1.5, 2, 0.5, 3, 9, 1, 1, 1], np.float16)
    b = np.array([2, 0.5, -1, 2, 0.5, 0, 3, 1], np.float16)
    yf = np.zeros(16, np.float16)
    binary[1](np.resize(a, 16), np.resize(b, 16), yf, 16, "power")
    np.testing.assert_array_equal(yf[:8], np.power(a.astype(np.float64), b.astype(np.float64)).astype(np.float16))
    u = np.array([0x0F0F, 0x7FFF, -1, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], np.int16)
    v = np.array([0x00FF, 0x0001, 0x5555, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3], np.int16)
    yx = np.zeros(16, np.int16)
    binary[1](u, v, yx, 16, "xor")
    np.testing.assert_array_equal(yx, u ^ v)
    # axpy: Muls rounded to half first (0.1 * 2049 -> 204.875 -> 204.9 in half), then the Add rounded
    src = np.full(16, 2049, np.float16)
    dst = np.full(16, 1000, np.float16)
    binary[1](src, np.zeros(16, np.float16), dst, 16, "axpy")
    prod = (src.astype(np.float64) * 0.1).astype(np.float16)
    np.testing.assert_array_equal(dst, (1000 + prod.astype(np.float64)).astype(np.float16))


@asc.jit
def misuse(x: asc.GlobalAddress, kind: asc.ConstExpr[int]):
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, 64)
    if kind == 0:
        asc.adv.sin(a[16:], a)                   # overlapping operands
    elif kind == 1:
        asc.adv.sin(a, a[32:], 64)               # count past src
    else:
        b = asc.LocalTensor(asc.int32, asc.TPosition.VECIN, 1024, 64)
        asc.adv.sin(b, b[32:])                   # int32


@pytest.mark.parametrize("kind,msg", [(0, "overlap"), (1, "count 64 exceeds"), (2, "takes float16 / float32")])
def test_misuse_is_a_clear_error(kind, msg):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    with pytest.raises((ValueError, TypeError), match=msg):
        misuse[1](np.zeros(64, np.float32), kind)

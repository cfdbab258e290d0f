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
        asc.adv.__dict__[fn](b, a)
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
        asc.adv.__dict__[fn](c, a, b)
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


# -- row operations -----------------------------------------------------------------------------------
@asc.jit
def rows_kernel(x: asc.GlobalAddress, g: asc.GlobalAddress, y: asc.GlobalAddress, side: asc.GlobalAddress,
                n: asc.ConstExpr[int], m: asc.ConstExpr[int], op: asc.ConstExpr[str], tiling: asc.adv.RmsNormTiling):
    """``x`` (n elements, m rows) and ``g`` in, ``y`` (n) and ``side`` (4 x m x 8 per-row values) out."""
    xg, gg, yg, sg = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    xg.set_global_buffer(x)
    gg.set_global_buffer(g)
    yg.set_global_buffer(y)
    sg.set_global_buffer(side)
    per = 32 // 4
    a = asc.LocalTensor(x.dtype, asc.TPosition.VECIN, 0, n)
    b = asc.LocalTensor(g.dtype, asc.TPosition.VECIN, 16384, n)
    c = asc.LocalTensor(y.dtype, asc.TPosition.VECOUT, 32768, n)
    rows = [asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 49152 + i * 4096, m * per) for i in range(4)]
    asc.data_copy(a, xg, n)
    asc.data_copy(b, gg, n)
    for i in range(2):
        asc.data_copy(rows[2 + i], sg[(2 + i) * m * per:], m * per)      # in_exp_sum, in_max
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    if op == "rmsnorm":
        asc.adv.rmsnorm(c, a, b, 1e-6, tiling)
    elif op == "swiglu":
        asc.adv.swiglu(c, a, b, 0.5)
    else:
        a.set_shape_info(asc.ShapeInfo(asc.array(asc.int32, [m, n // m])))
        ex = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 65536, m * per)
        asc.adv.softmax_flash_v2(c, rows[0], rows[1], a, ex, rows[2], rows[3], asc.adv.SoftmaxTiling(),
                                 asc.adv.SoftMaxShapeInfo(m, n // m, m, n // m), is_update=op == "flash_update")
        asc.set_flag(asc.HardEvent.V_MTE3, 1)
        asc.wait_flag(asc.HardEvent.V_MTE3, 1)
        for i in range(2):
            asc.data_copy(sg[i * m * per:], rows[i], m * per)
        if op == "flash_update":
            asc.data_copy(sg[4 * m * per:], ex, m * per)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(yg, c, n)


def test_rmsnorm_over_original_h_with_padding_and_gamma():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    b, s, h, real = 2, 3, 16, 13
    rng = np.random.default_rng(1)
    x = np.zeros((b * s, h), np.float32)
    x[:, :real] = rng.standard_normal((b * s, real))
    gamma = rng.standard_normal(h).astype(np.float32)
    t = asc.adv.RmsNormTiling(b_length=b, s_length=s, h_length=h, original_h_length=real)
    y = np.zeros(b * s * h, np.float32)
    rows_kernel[1](x.reshape(-1), np.resize(gamma, b * s * h), y, np.zeros(5 * 6 * 8, np.float32), b * s * h, 6,
                   "rmsnorm", t)
    x64 = x.astype(np.float64)
    want = x64 / np.sqrt((x64[:, :real] ** 2).mean(axis=1, keepdims=True) + 1e-6) * gamma
    np.testing.assert_array_equal(y.reshape(b * s, h), want.astype(np.float32))


def test_swiglu_half():
    config.set_platform(config.Backend.Model, config.Platform.Ascend950PR_9599)
    rng = np.random.default_rng(2)
    a, g = (rng.standard_normal(64) * 3).astype(np.float16), (rng.standard_normal(64) * 3).astype(np.float16)
    y = np.zeros(64, np.float16)
    rows_kernel[1](a, g, y, np.zeros(5 * 4 * 8, np.float32), 64, 4, "swiglu", asc.adv.RmsNormTiling())
    g64 = g.astype(np.float64)
    np.testing.assert_array_equal(y, (a * g64 / (1 + np.exp(-0.5 * g64))).astype(np.float16))


@pytest.mark.parametrize("update", [False, True])
def test_softmax_flash_v2_first_block_and_update(update):
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    m, k, per = 4, 16, 8
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((m, k)) * 4).astype(np.float32)
    old_max = np.array([1.0, 9.0, -2.0, 0.5])
    old_sum = np.array([3.0, 1.5, 7.0, 2.0])
    side = np.zeros(5 * m * per, np.float32)
    side[2 * m * per: 3 * m * per] = np.repeat(old_sum, per)
    side[3 * m * per: 4 * m * per] = np.repeat(old_max, per)
    y = np.zeros(m * k, np.float32)
    rows_kernel[1](x.reshape(-1), np.zeros(m * k, np.float32), y, side, m * k, m,
                   "flash_update" if update else "flash", asc.adv.RmsNormTiling())
    x64 = x.astype(np.float64)
    mx = np.maximum(x64.max(axis=1), old_max) if update else x64.max(axis=1)
    e = np.exp(x64 - mx[:, None])
    total = (np.exp(old_max - mx) * old_sum if update else 0) + e.sum(axis=1)
    np.testing.assert_array_equal(y.reshape(m, k), e.astype(np.float32))
    np.testing.assert_array_equal(side[:m * per], np.repeat(total, per).astype(np.float32))
    np.testing.assert_array_equal(side[m * per: 2 * m * per], np.repeat(mx, per).astype(np.float32))
    if update:
        np.testing.assert_array_equal(side[4 * m * per:], np.repeat(np.exp(old_max - mx), per).astype(np.float32))


@asc.jit
def sort_kernel(v: asc.GlobalAddress, entries: asc.GlobalAddress, vals: asc.GlobalAddress, idx: asc.GlobalAddress):
    vg, eg, og, ig = asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor(), asc.GlobalTensor()
    vg.set_global_buffer(v)
    eg.set_global_buffer(entries)
    og.set_global_buffer(vals)
    ig.set_global_buffer(idx)
    src = asc.LocalTensor(asc.float32, asc.TPosition.VECIN, 0, 32)
    ent = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 1024, 64)
    tmp = asc.LocalTensor(asc.float32, asc.TPosition.VECCALC, 2048, 64)
    out_v = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 4096, 32)
    out_i = asc.LocalTensor(asc.uint32, asc.TPosition.VECOUT, 8192, 32)
    asc.data_copy(src, vg, 32)
    asc.data_copy(ent, eg, 64)                   # entries with their indices already in place
    asc.set_flag(asc.HardEvent.MTE2_V, 0)
    asc.wait_flag(asc.HardEvent.MTE2_V, 0)
    asc.adv.concat(ent, src, tmp, 2)
    asc.adv.extract(out_v, out_i, ent, 1)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(og, out_v, 32)
    asc.data_copy(ig, out_i, 32)


def test_concat_writes_scores_extract_reads_scores_and_indices():
    config.set_platform(config.Backend.Model, config.Platform.Ascend910B1)
    v = np.arange(32, dtype=np.float32) * 1.5
    entries = np.zeros(64, np.float32)
    entries.view(np.uint32)[1::2] = np.arange(100, 132, dtype=np.uint32)
    vals, idx = np.zeros(32, np.float32), np.zeros(32, np.uint32)
    sort_kernel[1](v, entries, vals, idx)
    np.testing.assert_array_equal(vals, v)
    np.testing.assert_array_equal(idx, np.arange(100, 132))


def test_matmul_config_getters_and_static_tiling():
    cfg = asc.adv.get_basic_config(128, 128, 64)
    assert (cfg.basic_m, cfg.basic_n, cfg.basic_k, cfg.template()) == (128, 128, 64, "BASIC_BLOCK")
    assert asc.adv.get_normal_config().template() == "NORM" and asc.adv.get_mdl_config().template() == "MDL"
    assert asc.adv.get_special_mdl_config().template() == "SPECIAL_MDL"
    assert asc.adv.get_ib_share_norm_config().template() == "IBSHARE_NORM"
    sp = asc.adv.get_special_basic_config(64, 64, 32, 256, 256, 512, 2, 2)
    assert sp.template() == "SPECIAL_BASIC_BLOCK" and sp.single_core_k == 512
    mm = asc.adv.get_mm_config(asc.MatmulConfigMode.CONFIG_MDL, asc.adv.MatmulShapeParams(128, 256, 64, 64, 64, 32),
                               asc.adv.MatmulFuncParams(iterate_order=asc.IterateOrder.ORDER_N))
    assert mm.template() == "MDL" and mm.single_core_n == 256 and mm.iterate_order == asc.IterateOrder.ORDER_N
    half = asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND, asc.float16)
    st = asc.adv.get_matmul_api_tiling(sp, half, half, asc.adv.MatmulType(asc.TPosition.GM, asc.CubeFormat.ND,
                                                                          asc.float32), None, 64 * 1024)
    stage = 64 * 32 * 2 * 2
    assert (st.base_m, st.base_k, st.single_core_k, st.m) == (64, 32, 512, -1)
    assert st.depth_a1 == min(64 * 1024 // stage, 512 // 32)
    with pytest.raises(TypeError, match="no field 'bogus'"):
        asc.adv.MatmulConfig(bogus=1)


def test_upstreams_adv_and_cube_names_work_at_least_95_percent():
    """Upstream's asc.adv ``__all__`` and the cube part of basic (mm.py, fixpipe.py and the parameter records
    they take; read beside the repository): every adv name exists, and of adv and cube names together
    >= 95 % work (the load-3D V1 / V2Pro records are the ones left)."""
    import ast
    from pathlib import Path
    from asc.language.v1.names import NotSupportedByEngineError
    base = next((p / "shared" / "upstream" / "pyasc-v1" / "asc" / "language" for p in Path(__file__).resolve().parents
                 if (p / "shared" / "upstream" / "pyasc-v1").is_dir()), None)
    if base is None:
        pytest.skip("../shared/upstream/pyasc-v1 is not beside the repository")
    tree = ast.parse((base / "adv" / "__init__.py").read_text())
    adv = next(ast.literal_eval(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)
               and any(getattr(t, "id", None) == "__all__" for t in n.targets))
    assert [n for n in adv if not hasattr(asc.adv, n)] == []
    cube = set()
    for f in ("mm.py", "fixpipe.py"):
        t = ast.parse((base / "basic" / f).read_text())
        for n in ast.walk(t):
            if isinstance(n, ast.FunctionDef) and not n.name.startswith("_"):
                cube.add(n.name)
            if isinstance(n, ast.arg) and n.annotation is not None:       # the parameter records they take
                name = getattr(n.annotation, "id", None)
                if name and name[0].isupper() and name not in ("LocalTensor", "GlobalTensor", "BaseTensor",
                                                               "RuntimeInt", "RuntimeBool", "Optional", "Union"):
                    cube.add(name)

    def works(name):
        try:
            getattr(asc, name)
            return True
        except (NotSupportedByEngineError, AttributeError):
            return False
    missing = sorted(n for n in cube if not works(n))
    # (the LoadData3DParamsV1 / V2Pro records exist; load_data refuses them: test_v1_records.py)
    assert len(cube) >= 20 and missing == []
    assert (len(adv) + len(cube) - len(missing)) / (len(adv) + len(cube)) >= 0.95

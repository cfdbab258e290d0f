"""What ``asc.adv``'s elementwise math and its row operations compute (``language/v1/adv_math.py``,
``adv_ops.py``): float64 references rounded once to the output type (the accuracy contract in
adv_math's docstring)."""
from __future__ import annotations

import numpy as np

from .impls import impl


def _special(name):
    """scipy.special's function, imported on first use (importing scipy.special costs a first launch of any
    v1 kernel about half a second)."""
    def f(x):
        from scipy import special
        return getattr(special, name)(x)
    return f


_F64 = {"acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan,
        "atanh": np.arctanh, "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh, "digamma": _special("digamma"),
        "erf": _special("erf"), "erfc": _special("erfc"), "floor": np.floor, "frac": lambda x: x - np.trunc(x),
        "lgamma": _special("gammaln"), "log": np.log, "round": np.rint, "sign": np.sign, "sin": np.sin,
        "sinh": np.sinh, "tan": np.tan, "tanh": np.tanh, "trunc": np.trunc, "exp": np.exp}


def _taylor_exp(x, level):
    """Ascend C's Taylor form: e^floor(x) times the expansion of e^f, f = x - floor(x) in [0, 1)."""
    n = np.floor(x)
    f = x - n
    term, total = np.ones_like(f), np.ones_like(f)
    for i in range(1, level + 1):
        term = term * f / i
        total = total + term
    return np.exp(n) * total


def _int_power(base, exp):
    b, e = base.astype(np.int64), exp.astype(np.int64)
    out = np.empty(b.shape, dtype=np.int64)
    for i, (x, y) in enumerate(zip(b.tolist(), e.tolist())):
        if y >= 0:
            out[i] = pow(x, y, 2 ** 32)
        else:
            out[i] = 1 if x == 1 else (-1) ** (-y) if x == -1 else 0
    return ((out + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int32)


@impl("adv_math")
def _adv_math(eng, op):
    a = op.attrs
    n, fn = a["count"], a["fn"]
    d, db = eng.view(a["dst"])
    xs = []
    for s in a["srcs"]:
        arr, base = eng.view(s)
        xs.append(arr[base: base + n])
    out = d.dtype
    with np.errstate(all="ignore"):
        if fn == "axpy":     # Muls in the source's type, then Add in the destination's
            prod = (xs[0].astype(np.float64) * a["scalar"]).astype(xs[0].dtype)
            r = (d[db: db + n].astype(np.float64) + prod.astype(np.float64))
        elif fn == "xor":
            r = np.bitwise_xor(xs[0], xs[1])
        elif fn == "power":
            r = _int_power(xs[0], xs[1]) if out.kind == "i" else np.power(xs[0].astype(np.float64),
                                                                          xs[1].astype(np.float64))
        elif fn == "exp" and a.get("level"):
            r = _taylor_exp(xs[0].astype(np.float64), a["level"])
        else:
            r = _F64[fn](xs[0].astype(np.float64))
        d[db: db + n] = np.asarray(r).astype(out)


def _rows(eng, t, n):
    arr, base = eng.view(t)
    return arr, base, arr[base: base + n]


@impl("adv_rows")
def _adv_rows(eng, op):
    a = op.attrs
    with np.errstate(all="ignore"):
        ROWS[a["op"]](eng, a)


def _rmsnorm(eng, a):
    rows, h, real = a["rows"], a["h"], a["real"]
    _, _, x = _rows(eng, a["src"], rows * h)
    _, _, g = _rows(eng, a["gamma"], h)
    x = x.astype(np.float64).reshape(rows, h)
    ms = (x[:, :real] ** 2).sum(axis=1, keepdims=True) / real
    d, db, _ = _rows(eng, a["dst"], 0)
    d[db: db + rows * h] = (x / np.sqrt(ms + a["eps"]) * g.astype(np.float64)[None, :]).reshape(-1).astype(d.dtype)


def _swiglu(eng, a):
    n = a["count"]
    _, _, x0 = _rows(eng, a["a"], n)
    _, _, x1 = _rows(eng, a["b"], n)
    x1 = x1.astype(np.float64)
    d, db, _ = _rows(eng, a["dst"], 0)
    d[db: db + n] = (x0.astype(np.float64) * x1 / (1 + np.exp(-a["beta"] * x1))).astype(d.dtype)


def _put_rows(eng, t, vals, per):
    arr, base = eng.view(t)
    arr[base: base + vals.size * per] = np.repeat(vals.reshape(-1), per).astype(arr.dtype)


def _softmax_flash_v2(eng, a):
    m, k, per = a["m"], a["k"], a["per"]
    _, _, x = _rows(eng, a["src"], m * k)
    x = x.astype(np.float64).reshape(m, k)
    mx = x.max(axis=1)
    if a["update"]:
        _, _, old_max = _rows(eng, a["in_max"], m * per)
        _, _, old_sum = _rows(eng, a["in_sum"], m * per)
        old_max = old_max.astype(np.float64)[::per]
        mx = np.maximum(mx, old_max)
    ex = np.exp(x - mx[:, None])
    total = ex.sum(axis=1)
    if a["update"]:
        scale = np.exp(old_max - mx)
        total = scale * old_sum.astype(np.float64)[::per] + total
        _put_rows(eng, a["exp_max"], scale, per)
    d, db = eng.view(a["dst"])
    d[db: db + m * k] = ex.reshape(-1).astype(d.dtype)
    _put_rows(eng, a["sum"], total, per)
    _put_rows(eng, a["max"], mx, per)


def _concat(eng, a):
    n, per = a["n"], a["per"]
    _, _, s = _rows(eng, a["src"], n)
    d, db = eng.view(a["dst"])
    d[db: db + n * per: per] = s


def _extract(eng, a):
    n, per = a["n"], a["per"]
    s, sb = eng.view(a["src"])
    v, vb = eng.view(a["value"])
    v[vb: vb + n] = s[sb: sb + n * per: per]
    raw = eng.byte_view(a["src"])
    entries = raw[0][raw[1]: raw[1] + 8 * n].reshape(n, 8)
    i, ib = eng.view(a["index"])
    i[ib: ib + n] = entries[:, 4:].copy().view(np.uint32).reshape(-1)


ROWS = {"rmsnorm": _rmsnorm, "swiglu": _swiglu, "softmax_flash_v2": _softmax_flash_v2, "concat": _concat,
        "extract": _extract}

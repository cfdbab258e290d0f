"""What ``asc.adv``'s elementwise math and its row operations compute (``language/v1/adv_math.py``,
``adv_ops.py``): float64 references rounded once to the output type (the accuracy contract in
adv_math's docstring)."""
from __future__ import annotations

import numpy as np
from scipy import special

from .compute import impl

_F64 = {"acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan,
        "atanh": np.arctanh, "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh, "digamma": special.digamma,
        "erf": special.erf, "erfc": special.erfc, "floor": np.floor, "frac": lambda x: x - np.trunc(x),
        "lgamma": special.gammaln, "log": np.log, "round": np.rint, "sign": np.sign, "sin": np.sin,
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

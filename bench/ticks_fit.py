"""Fitting the tick model's fitted numbers to camodel rows, inside their physical ranges.

Residuals are log(model / camodel) per row (relative error, symmetric in over and under); the fitted names
of a platform (``platforms.FITTED``) move inside their ``SOURCES`` ranges only (bounded least squares), so
a row the physics cannot reach shows as an error instead of a stretched constant.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import least_squares

import asc.runtime.config as config
from asc.runtime import last_launch_report
from asc.runtime.config import platform_to_arch
from asc.runtime.platforms import FITTED, SOURCES, hardware, tuned


def model_ticks(fn):
    """Modelled ticks of one row: a launch, or the sum of a list of launches."""
    total = 0
    for f in fn if isinstance(fn, list) else [fn]:
        f()
        total += last_launch_report()["ticks"]
    return total


def ticks_with(platform, values, rows):
    """Modelled ticks of ``rows`` with the fitted names set to ``values`` (a dict)."""
    config.set_platform(config.Backend.Model, platform)
    with tuned(platform, **values):
        return [model_ticks(fn) for _, _, fn in rows]


def fitted_names(platform):
    arch = platform_to_arch(platform)
    return FITTED[arch], [SOURCES[arch][n][2] for n in FITTED[arch]]


def table_values(platform):
    names, _ = fitted_names(platform)
    hw = hardware(platform)
    return {n: float(getattr(hw, n)) for n in names}


def fit(platform, rows, start=None):
    """The fitted names' values (a dict) that best match ``rows`` (name, measured, fn) inside their ranges."""
    names, ranges = fitted_names(platform)
    lo = np.array([r[0] for r in ranges], float)
    hi = np.array([r[1] for r in ranges], float)
    x0 = np.array([(start or table_values(platform))[n] for n in names], float)
    x0 = np.clip(x0, lo + 1e-6 * (hi - lo), hi - 1e-6 * (hi - lo))
    measured = np.array([m for _, m, _ in rows], float)

    def residuals(x):
        got = np.array(ticks_with(platform, dict(zip(names, x)), rows), float)
        return np.log(got / measured)

    # ticks are piecewise linear in the numbers (a max over pipes): finite differences over a few ticks'
    # worth of each range see past the kinks
    res = least_squares(residuals, x0, bounds=(lo, hi), diff_step=0.02, x_scale=hi - lo, max_nfev=60,
                        loss="soft_l1", f_scale=0.1)
    return dict(zip(names, (float(v) for v in res.x)))


def errors(platform, values, rows):
    """|model / camodel - 1| per row."""
    got = ticks_with(platform, values, rows)
    return [abs(t / m - 1) for t, (_, m, _) in zip(got, rows)]


def leave_one_out(platform, rows, full):
    """Each row predicted by a fit without it (started from the full fit): |model / camodel - 1| per row."""
    out = []
    for i, row in enumerate(rows):
        values = fit(platform, rows[:i] + rows[i + 1:], start=full)
        out.append(errors(platform, values, [row])[0])
    return out


def out_of_range(platform, values):
    """Names whose value lies outside its range (rounding to the table's precision allowed)."""
    names, ranges = fitted_names(platform)
    return [n for n, (lo, hi) in zip(names, ranges) if not lo - 0.5 <= values[n] <= hi + 0.5]


def median_max(errs):
    return (float(np.median(errs)), float(np.max(errs))) if errs else (math.nan, math.nan)

"""Helpers of the compiler tests (imported by the test modules of this directory)."""
from __future__ import annotations

import re

import numpy as np

import asc.runtime.config as config

PLATFORM = config.Platform.Ascend950PR_9599
FILE_LINE = re.compile(r"at (?P<file>\S+\.py):(?P<line>\d+):(?P<col>\d+):")


def location(err):
    """(file, line, col) named by a compile or runtime error report."""
    m = FILE_LINE.search(str(err))
    assert m, f"no file:line:col in\n{err}"
    return m.group("file"), int(m.group("line")), int(m.group("col"))


def assert_reported(err, message, source_fragment, *, hint=True):
    """The report carries the pyasc message, points into this test file at the offending source line
    (shown in the report), and (by default) a one-line fix hint."""
    text = str(err)
    assert message in text, text
    file, line, _ = location(err)
    assert file.endswith(".py") and "/tests/compiler/" in file, text
    import linecache
    src = linecache.getline(file, line)
    assert source_fragment in src, f"line {line} is {src!r}, expected it to contain {source_fragment!r}\n{text}"
    assert source_fragment in text, text
    if hint:
        hints = [l for l in text.splitlines() if l.startswith("hint: ")]
        assert len(hints) == 1 and len(hints[0]) > 10, text


def rng(seed=2026):
    return np.random.default_rng(seed)


def randn(shape, dtype, seed=2026, scale=1.0):
    """Random data of a numpy dtype (float16 via float32, as numpy cannot draw float16)."""
    import ml_dtypes
    g = rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return g.integers(lo, hi, size=shape).astype(dtype)
    x = (g.standard_normal(shape).astype(np.float32) * scale)
    return x.astype(ml_dtypes.bfloat16) if np.dtype(dtype) == np.dtype(ml_dtypes.bfloat16) else x.astype(dtype)

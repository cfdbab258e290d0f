"""A float literal meeting an integer runtime scalar is converted to the scalar's type (as pyasc does);
when that changes the number, the launch report says so at the line."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import asc
import asc2


def _line(kernel, text):
    lines, first = inspect.getsourcelines(kernel.fn)
    return first + next(i for i, l in enumerate(lines) if text in l)


@asc2.jit
def scaled(out_ptr: asc.GlobalAddress, n: int, KIND: asc.ConstExpr[int]):
    out_gm = asc2.tensor(out_ptr, [8])
    if KIND == 0:
        s = n * 1.5                   # 1.5 becomes 1
    elif KIND == 1:
        s = n * 2.0                   # exact: no warning
    elif KIND == 2:
        s = n.cast(asc.float32) * 1.5  # computed in float
    else:
        s = n + 0.5                   # 0.5 becomes 0
    asc2.store(asc2.full([8], s, dtype=asc.float32), out_gm, offsets=[0])


@pytest.mark.parametrize("kind, value, symbol, literal, kept, text", [
    (0, 3.0, "*", "1.5", 1, "n * 1.5"), (3, 3.0, "+", "0.5", 0, "n + 0.5")])
def test_a_fractional_literal_with_an_int_scalar_warns_at_its_line(kind, value, symbol, literal, kept, text):
    out = np.zeros(8, np.float32)
    scaled[1](out, 3, kind)
    np.testing.assert_array_equal(out, value)  # pyasc's arithmetic: the literal in the scalar's type
    (w,) = scaled.last_launch["warnings"]
    assert f":{_line(scaled, text)}: the float literal {literal} in '{symbol}' with an int32 scalar is " \
           f"converted to int32 ({kept})" in w
    assert f"v.cast(asc.float32) {symbol} {literal}" in w


@pytest.mark.parametrize("kind, value", [(1, 6.0), (2, 4.5)])
def test_an_exact_literal_or_a_float_scalar_is_silent(kind, value):
    out = np.zeros(8, np.float32)
    scaled[1](out, 3, kind)
    np.testing.assert_array_equal(out, value)
    assert scaled.last_launch["warnings"] == []


@asc2.jit
def bounded(out_ptr: asc.GlobalAddress, n: int):
    out_gm = asc2.tensor(out_ptr, [8])
    v = 0.0
    if n < 2.5:                        # compares n < 2: n = 2 takes the else branch
        v = 1.0
    asc2.store(asc2.full([8], v, dtype=asc.float32), out_gm, offsets=[0])


def test_a_comparison_with_a_fractional_literal_warns_with_its_operator():
    out = np.zeros(8, np.float32)
    bounded[1](out, 2)
    np.testing.assert_array_equal(out, 0.0)
    (w,) = bounded.last_launch["warnings"]
    assert f":{_line(bounded, 'n < 2.5')}: the float literal 2.5 in '<' with an int32 scalar" in w

"""Integer division of runtime scalars and of integer tiles by a scalar: C's truncation toward zero for
``/`` and ``//``, ``%`` taking the sign of the dividend, every sign combination and the divisors 1 and
-1; a zero divisor is reported."""
from __future__ import annotations

import numpy as np
import pytest

import asc2


@asc2.jit
def scalar_div(out_ptr: asc2.GlobalAddress, n: int, m: int):
    out = asc2.global_tensor(out_ptr, [24])
    asc2.copy_out(asc2.full([8], n / m, dtype=asc2.int32), out, [0])
    asc2.copy_out(asc2.full([8], n // m, dtype=asc2.int32), out, [8])
    asc2.copy_out(asc2.full([8], n % m, dtype=asc2.int32), out, [16])


def c_div(n, m):
    q = abs(n) // abs(m) * (1 if (n < 0) == (m < 0) else -1)
    return q, q, n - q * m


@pytest.mark.parametrize("n,m", [(7, 2), (-7, 2), (7, -2), (-7, -2), (6, 3), (-6, 3), (7, 1), (-7, -1), (0, -5),
                                 (5, 7), (-5, 7)])
def test_runtime_int_division_truncates_and_the_remainder_takes_the_dividends_sign(n, m):
    out = np.zeros(24, np.int32)
    scalar_div[1](out, n, m)
    assert out.reshape(3, 8)[:, 0].tolist() == list(c_div(n, m)) and (out.reshape(3, 8) == out.reshape(3, 8)[:, :1]).all()


@asc2.jit
def tile_div(x_ptr: asc2.GlobalAddress, out_ptr: asc2.GlobalAddress, m: int):
    x = asc2.copy_in(asc2.global_tensor(x_ptr, [64]), [0], [64])
    asc2.copy_out(x / m, asc2.global_tensor(out_ptr, [64]), [0])


@pytest.mark.parametrize("m", [-2, -1, 1, 3])
def test_an_integer_tile_divided_by_a_runtime_scalar_truncates(m):
    x = np.arange(-32, 32, dtype=np.int32)
    out = np.zeros_like(x)
    tile_div[1](x, out, m)
    np.testing.assert_array_equal(out, [c_div(int(v), m)[0] for v in x])


def test_a_zero_divisor_is_reported_for_scalars_and_tiles():
    with pytest.raises(RuntimeError, match="integer division by zero"):
        scalar_div[1](np.zeros(24, np.int32), 7, 0)
    with pytest.raises(RuntimeError, match="integer division by zero"):
        tile_div[1](np.arange(64, dtype=np.int32), np.zeros(64, np.int32), 0)


@pytest.mark.parametrize("a,b", [(2**62 + 1, 1), (2**62 + 1, 3), (-(2**62) - 7, 3), (2**63 - 1, -2), (-(2**63) + 1, 7)])
def test_int64_division_is_exact_past_two_to_the_53(a, b):
    # a float quotient would round these; C's int64 division truncates exactly
    from asc.sim.integer import int_div
    q = int(int_div(np.int64(a), np.int64(b), "div"))
    expected = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    assert q == expected
    assert int(int_div(np.int64(a), np.int64(b), "mod")) == a - expected * b

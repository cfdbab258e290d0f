"""The scalar-unit helpers against Python's integers and numpy: bit positions and counts of 64-bit values at
their edges (0, all ones, the sign bit), and scalar_cast rounding as cast does."""
from __future__ import annotations

import numpy as np
import pytest

import asc
from v1_family_kit import platform, run  # noqa: F401  (platform: a fixture)

EDGES = [0, 1, 2, (1 << 63), (1 << 64) - 1, (1 << 63) - 1, 0x00F0, 0x8000_0000_0000_0001]


@pytest.mark.parametrize("v", EDGES)
def test_bit_helpers_at_the_edges(v):
    bits = [(v >> k) & 1 for k in range(64)]
    for want_bit in (0, 1):
        first = next((k for k, b in enumerate(bits) if b == want_bit), -1)
        assert asc.scalar_get_sff_value(v, want_bit) == first
        assert asc.scalar_get_count_of_value(v, want_bit) == bits.count(want_bit)
    lead = next((63 - k for k in range(63, -1, -1) if bits[k]), 64)
    assert asc.scalar_count_leading_zero(v) == lead
    sign = bits[63]
    same = 0
    for k in range(62, -1, -1):
        if bits[k] != sign:
            break
        same += 1
    assert asc.count_bits_cnt_same_as_sign_bit(v - (1 << 64) if sign else v) == (-1 if same == 63 else same)


def test_sff_count_value_must_be_0_or_1():
    with pytest.raises(ValueError, match="count_value must be 0 or 1"):
        asc.scalar_get_sff_value(5, 2)


def test_scalar_cast_rounds_as_cast(platform):
    out = []

    def body(a, b, m, d):
        out.extend([asc.scalar_cast(2.5, asc.int32, asc.RoundMode.CAST_RINT),
                    asc.scalar_cast(2.5, asc.int32, asc.RoundMode.CAST_ROUND),
                    asc.scalar_cast(-2.5, asc.int32, asc.RoundMode.CAST_FLOOR),
                    asc.scalar_cast(1.0 + 2.0 ** -11, asc.float16, asc.RoundMode.CAST_RINT),
                    asc.scalar_cast(1.0 + 2.0 ** -11, asc.float16, asc.RoundMode.CAST_CEIL)])
    run(body, np.zeros(8, np.float32), None, None, np.zeros(8, np.float32))
    assert out == [2, 3, -3, 1.0, float(np.float16(1.0 + 2.0 ** -10))]

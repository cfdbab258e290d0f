"""``RoundMode`` (pyasc-dev) and conversions with an explicit rounding: ``cast(x, dtype, round_mode)`` /
``x.to(dtype, round_mode)``.

``Default`` is the conversion of ``x.to(dtype)`` (float -> int: to nearest, ties to even, saturating;
float narrowing: to nearest even). The other modes pick the result among the two representable
neighbours of the exact value: ``Rint`` nearest / ties to even, ``Floor`` toward -inf, ``Ceil`` toward
+inf, ``Trunc`` and ``NoRound`` toward zero, ``Round`` nearest / ties away from zero, ``Odd`` toward
zero and then, when inexact, to the neighbour with an odd last bit (round-to-odd). Integer results
saturate at the type's limits and NaN becomes 0; float results that overflow are +-inf for the
nearest modes and the largest finite value for the directed ones that point back toward zero.
The cost is that of the cast.
"""
from __future__ import annotations

import enum


class RoundMode(enum.Enum):
    """Rounding of a precision conversion (values as pyasc-dev's enum)."""
    Default = 100
    NoRound = 0
    Rint = 1
    Floor = 2
    Ceil = 3
    Round = 4
    Trunc = 5
    Odd = 6

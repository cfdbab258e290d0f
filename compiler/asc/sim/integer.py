"""Integer arithmetic with the generated C's semantics (shared by scalar and tile ops)."""
from __future__ import annotations

import numpy as np

from .errors import SimError
from .fp_errors import ignored


def int_div(a, b, kind):
    """Signed truncating division (C semantics) for both ``/`` and ``//``; ``%`` takes the sign of a."""
    if np.any(b == 0):
        raise SimError("integer division by zero", "the divisor is a runtime value that reached 0: guard it")
    a, b = np.asarray(a), np.asarray(b)
    dtype = np.result_type(a, b)
    a, b = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    with ignored():      # INT_MIN / -1 wraps, as the hardware's division does
        q = np.floor_divide(a, b)
        # floor -> toward zero: one more where the division is inexact and the signs differ (exact in
        # integers, also past 2**53 where a float quotient would round)
        q = q + ((a - q * b != 0) & ((a < 0) != (b < 0))).astype(dtype)
        return q if kind != "mod" else a - q * b

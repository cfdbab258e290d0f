"""Integer arithmetic with the generated C's semantics (shared by scalar and tile ops)."""
from __future__ import annotations

import numpy as np

from .errors import SimError


def int_div(a, b, kind):
    """Signed truncating division (C semantics) for both ``/`` and ``//``; ``%`` takes the sign of a."""
    if np.any(b == 0):
        raise SimError("integer division by zero", "the divisor is a runtime value that reached 0: guard it")
    q = np.trunc(np.true_divide(a, b)).astype(np.result_type(a, b))
    return q if kind != "mod" else a - q * b

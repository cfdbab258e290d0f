"""Scalar helpers usable inside kernels."""
from .ir_value import const, PlainValue  # noqa: F401
from . import dtype as dt


def number(value, dtype=None):
    """Materialise a Python number as a typed scalar (JIT-only)."""
    if dtype is None:
        dtype = dt.int32 if isinstance(value, int) and not isinstance(value, bool) else dt.float32
    return const(value, dtype)

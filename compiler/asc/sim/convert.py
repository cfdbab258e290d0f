"""Fast exact widening of narrow float tiles to float32 (the compute type of narrow-float ops)."""
from __future__ import annotations

import sys
import warnings

import numpy as np

# Every float16 bit pattern's float32 value: a table lookup is exact and ~2x faster than numpy's cast.
_F16_TO_F32 = np.arange(1 << 16, dtype=np.uint16).view(np.float16).astype(np.float32)


def as_float32(a):
    """``a.astype(float32)`` (no copy when already float32)."""
    if a.dtype == np.float16:
        return np.take(_F16_TO_F32, np.ascontiguousarray(a).view(np.uint16))
    return a.astype(np.float32, copy=False)


# torch casts float16 with the CPU's conversion instructions, ~5x the table; it runs a cast of more than
# its grain (32768 elements) on its thread pool, so a long one goes in pieces of that size, on this thread
# as numpy's own calls do.
_TORCH_MIN, _TORCH_PIECE = 1 << 16, 1 << 15


def product_operand(a):
    """``a`` in float32 as an operand of a product (``matmul``): exact for every number; a signalling NaN
    comes out quiet, which a product's result does not tell apart (any NaN operand gives a NaN). With
    torch loaded by the program (never imported for this), a large float16 ``a`` takes torch's cast."""
    torch = sys.modules.get("torch")
    if a.dtype != np.float16 or a.size < _TORCH_MIN or torch is None:
        return as_float32(a)
    a = np.ascontiguousarray(a)
    out = np.empty(a.shape, np.float32)
    dst = torch.from_numpy(out.reshape(-1))
    if a.flags.writeable:
        src = torch.from_numpy(a.reshape(-1))
    else:   # (torch only reads it; it warns about any array it could write through)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            src = torch.from_numpy(a.reshape(-1))
    for d, s in zip(dst.split(_TORCH_PIECE), src.split(_TORCH_PIECE)):
        d.copy_(s)
    return out


def as_compute(a, dtype):
    """``a`` in compute dtype ``dtype`` (float32 goes through ``as_float32``)."""
    return as_float32(a) if dtype == np.float32 else a.astype(dtype, copy=False)

"""Every v1 instruction family's element math, registered in ``impls.IMPLS`` (the engine, the replay and
the uniform-block runner execute ops through it)."""
from __future__ import annotations

from . import compute, compute_cmpsel, compute_elementwise, compute_reduce, compute_convert, cube  # noqa: F401  (they register their impls)
from .impls import IMPLS, PURE  # noqa: F401

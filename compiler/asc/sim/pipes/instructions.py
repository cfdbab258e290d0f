"""Every v1 instruction family's element math, registered in ``impls.IMPLS`` (the engine, the replay and
the uniform-block runner execute ops through it)."""
from __future__ import annotations

# each module registers its family's impls
from . import compute, compute_cmpsel, compute_convert, compute_elementwise  # noqa: F401
from . import compute_gather, compute_layout, compute_move, compute_reduce, compute_sort  # noqa: F401
from . import cube, cube_compute, adv_compute  # noqa: F401  (the cube's and asc.adv's)
from .impls import IMPLS, PURE  # noqa: F401

"""Which cores a kernel's blocks run on, by its kernel type (upstream's ``KernelType``): MIX_AIC_1_2 (``MIX``, a
kernel that registers a Matmul) groups one cube core with two vector cores, MIX_AIC_1_1 one cube core with
one vector core, MIX_AIV_1_0 / MIX_AIV_HARD_SYNC use vector cores alone and MIX_AIC_1_0 / MIX_AIC_HARD_SYNC
cube cores alone. In the mixed types the user's code runs here on the vector cores (the cube core serves
the Matmul); AIC_ONLY and the cube-alone types run it on the cube cores, the others on the vector cores."""
from __future__ import annotations

from ...ir.pipe_ops import current_block

# kernel type -> (vector cores per AI core group, whether the kernel's code runs on the cube cores)
_CORES = {"AIV_ONLY": (1, False), "AIC_ONLY": (0, True), "MIX": (2, False), "MIX_AIC_1_1": (1, False),
          "MIX_AIV_1_0": (1, False), "MIX_AIV_HARD_SYNC": (1, False), "MIX_AIC_1_0": (0, True),
          "MIX_AIC_HARD_SYNC": (0, True)}


def vector_cores_per_group(kind):
    """How many vector cores one AI core group gives a kernel of this type (0: its code runs on cube cores)."""
    return _CORES.get(kind, (1, False))[0]


def on_cube(kind):
    """Whether a kernel of this type runs its code on the cube cores."""
    return _CORES.get(kind, (1, False))[1]


def has_cube_server(kind):
    """Whether each vector block's group holds a cube core serving its Matmul calls."""
    return kind in ("MIX", "MIX_AIC_1_1")


def _kind():
    blk = current_block()
    return getattr(blk.launch, "kind", "AIV_ONLY") if blk is not None else None


def ascend_is_aic():
    kind = _kind()
    return kind is not None and on_cube(kind)


def ascend_is_aiv():
    kind = _kind()
    return kind is not None and not on_cube(kind)

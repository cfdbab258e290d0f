"""Which core a block runs on: in a MIX kernel the user's code runs on the vector cores (the cube core runs
the Matmul server), in an AIC-only kernel on the cube cores, in an AIV-only kernel on the vector cores."""
from __future__ import annotations

from ...ir.pipe_ops import current_block


def ascend_is_aic():
    blk = current_block()
    return blk is not None and getattr(blk.launch, "kind", "AIV_ONLY") == "AIC_ONLY"


def ascend_is_aiv():
    blk = current_block()
    return blk is not None and not ascend_is_aic()

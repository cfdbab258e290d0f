"""Vector sub-blocks: ``sub_block_idx`` / ``sub_block_num``, ``cv_strategy`` and ``DistribMode`` (pyasc-dev).

On the device an AI core pairs its cube unit with vector sub-cores (2 on Ascend950PR_9599), and a kernel
launched with ``cv_ratio=2`` may split vector work between them. This engine runs every block of a
launch as one vector unit (and its cube unit), so:

- ``sub_block_idx()`` is 0 and ``sub_block_num()`` is 1 in every block (runtime int32 scalars); index
  arithmetic written with them (``block_idx() * sub_block_num() + sub_block_idx()``) covers the same work;
- ``with cv_strategy(DistribMode.SplitByM | SplitByN):`` runs its body as written on that one vector
  unit: the split only distributes the same element-wise work between sub-cores, so results are the
  same; the region gets no sub-core speed-up in ticks. Names bound in the body stay bound after it.
"""
from __future__ import annotations

from ...ir.builder import current_builder
from ...ir.registry import define, scalar_cost
from ...ir.types import ScalarType
from ..core import dtype as dt
from ..core.errors import error
from ..core.ir_value import PlainValue
from .memory_ops import DistribMode  # one enum: copy(distrib=) and cv_strategy take the same members


def sub_block_idx():
    """The vector sub-block of this block: always 0 on this engine (one vector unit per block)."""
    return PlainValue(current_builder().create("block.sub_idx", [], [ScalarType(dt.int32)]).result)


def sub_block_num():
    """The number of vector sub-blocks per block: 1 on this engine."""
    return PlainValue(current_builder().create("block.sub_num", [], [ScalarType(dt.int32)]).result)


class CVStrategy:
    """``with cv_strategy(split):`` -- the region's vector work may be split between sub-blocks."""

    def __init__(self, split):
        if not isinstance(split, DistribMode):
            raise error(TypeError, f"'split' argument must be DistribMode, got {type(split).__name__}",
                        "pass @DistribMode.SplitByM or @DistribMode.SplitByN")
        if split not in (DistribMode.SplitByM, DistribMode.SplitByN):
            raise error(ValueError, f"Splitting by axis must be requested, got {split.value}",
                        "use @DistribMode.SplitByM or @DistribMode.SplitByN")
        self.split = split

    def __enter__(self):
        raise error(RuntimeError, "@cv_strategy can only be used in a `with` statement inside a kernel",
                    "write `with @cv_strategy(@DistribMode.SplitByM):` inside the kernel")

    def __exit__(self, *exc):
        return False


def cv_strategy(split):
    """Declare how the vector work of a ``with`` region is split between sub-blocks (see the module)."""
    return CVStrategy(split)


define("block.sub_idx", cost=scalar_cost)
define("block.sub_num", cost=scalar_cost)

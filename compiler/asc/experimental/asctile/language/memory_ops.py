"""``asctile.language.memory_ops``: copies between global memory and on-chip locations, as upstream groups them."""
from asc.experimental.asctile import DistribMode, copy, copy_in, copy_out, gather, scatter

__all__ = ['DistribMode', 'copy', 'copy_in', 'copy_out', 'gather', 'scatter']

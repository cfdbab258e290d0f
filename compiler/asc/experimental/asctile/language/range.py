"""``asctile.language.range``: the kernel loops, as upstream groups them."""
from asc.experimental.asctile import range, static_range

__all__ = ['range', 'static_range']

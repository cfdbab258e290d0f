"""``asctile.language.low_level_ops``: uninitialised tiles and the Ascend C escape hatches, as upstream groups them."""
from asc.experimental.asctile import empty, empty_like, from_asc, inline, inline_vf, to_asc

__all__ = ['empty', 'empty_like', 'from_asc', 'inline', 'inline_vf', 'to_asc']

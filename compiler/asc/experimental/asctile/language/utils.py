"""``asctile.language.utils``: integer helpers, as upstream groups them."""
from asc.experimental.asctile import ceildiv

__all__ = ['ceildiv']

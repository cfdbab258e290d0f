"""``asctile.language.indexing_ops``: masked selection, as upstream groups them."""
from asc.experimental.asctile import mask, where

__all__ = ['mask', 'where']

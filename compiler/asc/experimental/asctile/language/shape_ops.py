"""``asctile.language.shape_ops``: shape manipulation and broadcasting, as upstream groups them."""
from asc.experimental.asctile import (
    broadcast_shapes, broadcast_tensors, broadcast_to, expand_dims, ravel, reshape, squeeze, transpose,
)

__all__ = [
    'broadcast_shapes', 'broadcast_tensors', 'broadcast_to', 'expand_dims', 'ravel', 'reshape', 'squeeze',
    'transpose',
]

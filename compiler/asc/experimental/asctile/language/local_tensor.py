"""``asctile.language.local_tensor``: local tensors (tiles), their rounding modes and locations, as upstream groups them."""
from asc.experimental.asctile import LocalTensor, RoundMode, TensorLocation

__all__ = ['LocalTensor', 'RoundMode', 'TensorLocation']

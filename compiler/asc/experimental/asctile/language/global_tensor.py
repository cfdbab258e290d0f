"""``asctile.language.global_tensor``: global tensors, as upstream groups them."""
from asc.experimental.asctile import GlobalTensor, global_tensor

__all__ = ['GlobalTensor', 'global_tensor']

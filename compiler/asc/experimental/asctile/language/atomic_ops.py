"""``asctile.language.atomic_ops``: atomic stores to global memory, as upstream groups them."""
from asc.experimental.asctile import atomic_add, atomic_max, atomic_min

__all__ = ['atomic_add', 'atomic_max', 'atomic_min']

"""``asctile.language.reduction_ops``: reductions, as upstream groups them."""
from asc.experimental.asctile import reduce_max, reduce_min, reduce_prod, reduce_sum

__all__ = ['reduce_max', 'reduce_min', 'reduce_prod', 'reduce_sum']

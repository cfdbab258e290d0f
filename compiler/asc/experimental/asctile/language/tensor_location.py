"""``asctile.language.tensor_location``: on-chip memory locations, as upstream groups them."""
from asc.experimental.asctile import TensorLocation

__all__ = ['TensorLocation']

"""``asctile.language.debug_ops``: compile-time and device assert / print, as upstream groups them."""
from asc.experimental.asctile import device_assert, device_print, static_assert, static_print

__all__ = ['device_assert', 'device_print', 'static_assert', 'static_print']

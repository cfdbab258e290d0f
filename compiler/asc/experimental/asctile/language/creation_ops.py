"""``asctile.language.creation_ops``: tile creation and casts, as upstream groups them."""
from asc.experimental.asctile import cast, concat, full, full_like, zeros, zeros_acc, zeros_like

__all__ = ['cast', 'concat', 'full', 'full_like', 'zeros', 'zeros_acc', 'zeros_like']

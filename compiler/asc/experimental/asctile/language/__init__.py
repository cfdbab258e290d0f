"""``asctile.language``: the tile language, in the modules upstream's ``pyasc-dev`` groups it into.

The package itself defines nothing (as upstream's); each submodule (``binary_ops``, ``memory_ops``,
``local_tensor``, ...) re-exports the ``asctile`` names upstream defines there, so code that imports from
``asc.experimental.asctile.language.<module>`` gets the same objects as ``asctile.<name>``. The definitions
live once, in the dialect table of ``asc.language.dialect``.
"""

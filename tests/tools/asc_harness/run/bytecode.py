"""Bytecode for the embedded engine, so that sandboxed kernel processes need not compile it each time."""

from __future__ import annotations

import os

_warmed: list[bool] = []


def warm_bytecode() -> None:
    """Compile the embedded engine's sources to bytecode beside them, once per process, where it is missing.

    Sandboxed runs cannot write bytecode (``PYTHONDONTWRITEBYTECODE``, a read-only file system), so
    without it every kernel process would compile the whole engine from source again (a third of
    its start-up). Installed packages already carry their bytecode; an editable install's sources
    may not (``PYTHONDONTWRITEBYTECODE`` set where they were imported). Nothing happens where the
    sources are not writable.
    """
    if _warmed:
        return
    _warmed.append(True)
    import compileall
    import importlib.util

    for name in ("asc", "asc2"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        for loc in (spec.submodule_search_locations or []) if spec else []:
            if os.access(loc, os.W_OK):
                try:
                    compileall.compile_dir(loc, quiet=2, workers=1)
                except Exception:  # noqa: BLE001 - only a speed-up
                    pass

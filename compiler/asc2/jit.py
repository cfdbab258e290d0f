"""``@asc2.jit``: pyasc's asc2 defaults (``range`` is ``asc2.range``, asc2 passes and sync on)."""
from asc.runtime.jit import JITFunction


def jit(fn=None, **options):
    from asc.language.tile.range import range as asc2_range

    def wrap(f):
        opts = dict(options)
        opts.setdefault("custom_builtins", {"range": asc2_range})
        opts.setdefault("insert_sync", True)
        opts.setdefault("run_asc2_passes", True)
        return JITFunction(f, **opts)
    return wrap(fn) if fn is not None else wrap

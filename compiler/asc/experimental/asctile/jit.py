"""``@asctile.jit``: an August kernel (the builtin ``range`` is ``asctile.range``: no loop-end barrier
unless ``gm_barrier=True``)."""
from asc.language.tile.range import asctile_range
from asc.runtime.jit import JITFunction


def jit(fn=None, **options):
    def wrap(f):
        opts = dict(options)
        opts.setdefault("custom_builtins", {"range": asctile_range})
        opts.setdefault("insert_sync", True)
        opts.setdefault("run_asc2_passes", True)
        return JITFunction(f, **opts)
    return wrap(fn) if fn is not None else wrap

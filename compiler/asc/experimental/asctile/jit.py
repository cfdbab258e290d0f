"""``@asctile.jit``: an August kernel (the builtin ``range`` is ``asctile.range``: no loop-end barrier
unless ``gm_barrier=True``; ``max`` / ``min`` / ``sum`` / ``print`` / ``assert`` are asctile's, unless a
``custom_builtins`` dict replaces them, as upstream)."""
from asc.language.tile.kernel_builtins import GivenBuiltins
from asc.language.tile.range import asctile_range
from asc.runtime.jit import JITFunction


def jit(fn=None, **options):
    def wrap(f):
        opts = dict(options)
        given = opts.get("custom_builtins")
        opts["custom_builtins"] = {"range": asctile_range} if given is None else GivenBuiltins(given)
        opts.setdefault("insert_sync", True)
        opts.setdefault("run_asc2_passes", True)
        return JITFunction(f, **opts)
    return wrap(fn) if fn is not None else wrap

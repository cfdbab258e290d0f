"""Host-side check of a world case: every output against its numpy reference, naming the first element that
misses (so a case checks this engine even where upstream's interpreter cannot run it). Under upstream's
interpreter (``ASCTILE_INTERPRET=1``) nothing is checked: its results are compared with this engine's, so a
difference shows as a results disagreement with its numbers, not as a failed run."""
import os

import numpy as np


def checked(pairs, tolerance=None):
    """``pairs`` maps a name to (result, numpy reference); returns {name: result} or raises AssertionError."""
    if os.environ.get("ASCTILE_INTERPRET"):
        return {name: got for name, (got, _want) in pairs.items()}
    tol = {"atol": 1e-5, "rtol": 1e-5}
    tol.update(tolerance or {})
    out = {}
    for name, (got, want) in pairs.items():
        g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
        if g.shape != w.shape:
            raise AssertionError(f"{name}: shape {g.shape}, numpy's {w.shape}")
        close = np.isclose(g, w, atol=tol["atol"], rtol=tol["rtol"], equal_nan=True)
        if not close.all():
            i = tuple(int(x) for x in np.argwhere(~close)[0])
            raise AssertionError(f"{name}: {int((~close).sum())}/{g.size} elements differ from numpy, first at "
                                 f"{list(i)}: got {g[i]!r}, numpy {w[i]!r}")
        out[name] = got
    return out

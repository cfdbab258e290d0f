"""What v1 copies do: bytes moved run by run (``data_copy``, ``data_copy_pad`` with its padding), or, in an
atomic mode, combined with the GM values they meet in the mode's element type; ``copy`` on the vector unit."""
from __future__ import annotations

import numpy as np

from ..ops import arith
from .impls import elements, impl

_ATOMIC = {"add": np.add, "max": np.maximum, "min": np.minimum}


def _atomic_write(da, at, data, kind, dtype):
    """GM bytes ``da[at: at + len(data)]`` combined with ``data`` by the atomic ``kind`` in ``dtype``."""
    dt = np.dtype(dtype)
    old = da[at: at + data.size].view(dt)
    new = data.view(dt)
    wide = arith.compute_dtype(dt)
    with np.errstate(all="ignore"):
        da[at: at + data.size] = _ATOMIC[kind](old.astype(wide), new.astype(wide)).astype(dt).view(np.uint8)


@impl("data_copy", "data_copy_pad", pure=True)
def _data_copy(eng, op):
    a = op.attrs
    dst, src = a["dst"], a["src"]
    da, db = eng.byte_view(dst)
    sa, sb = eng.byte_view(src)
    atomic = a.get("atomic")
    for s_off, d_off, n in a["segments"]:
        if atomic:
            _atomic_write(da, db + d_off, sa[sb + s_off: sb + s_off + n].copy(), *atomic)
        else:
            da[db + d_off: db + d_off + n] = sa[sb + s_off: sb + s_off + n]
    if a.get("pads"):
        fill = np.array([a["value"]]).astype(dst.np_dtype).view(np.uint8)
        for d_off, n in a["pads"]:
            da[db + d_off: db + d_off + n] = np.resize(fill, n)


@impl("copy", pure=True)
def _copy(eng, op):
    a = op.attrs
    idx = a["idx"] or [None, None]
    d, di = elements(eng, a["dst"], idx[0], a["count"])
    x, xi = elements(eng, a["srcs"][0], idx[1], a["count"])
    d[di] = x[xi]

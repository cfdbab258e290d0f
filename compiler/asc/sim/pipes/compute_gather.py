"""Element math of v1 gathers and scatters: elements and blocks at byte offsets read from memory (each offset checked
against the source tensor at the instruction's line), block broadcasts, and pattern-selected packing."""
from __future__ import annotations

import numpy as np

from ...ir.faults import KernelRuntimeError, located
from .impls import elements, impl


def _offsets_within(op, src, offs, unit, what):
    """Byte offsets into ``src`` (a gather's source, a scatter's destination): whole elements, and ``unit`` bytes
    from each inside the tensor."""
    size = src.size * src.itemsize
    bad = (offs % src.itemsize != 0) | (offs + unit > size)
    if bad.any():
        k = int(np.nonzero(bad)[0][0])
        raise located(KernelRuntimeError, op.loc, f"{op.name}: {what} {k} is byte offset {int(offs[k])}, which is "
                      f"{'not a whole ' + str(src.dtype) + ' element' if offs[k] % src.itemsize else 'past the end'}"
                      f" of the {'destination' if op.name == 'scatter' else 'source'} ({size} bytes, {src.owner})",
                      "offsets count bytes from the source's start: multiply element indices by the element size",
                      "BoundsError")


@impl("gather")
def _gather(eng, op):
    a = op.attrs
    o, ob = eng.view(a["offset"])
    oi = slice(ob, ob + a["count"]) if a["oidx"] is None else ob + a["oidx"]
    offs = o[oi].astype(np.int64) + a["base"]
    src = a["src"]
    _offsets_within(op, src, offs, src.itemsize, "offset")
    x, xb = eng.view(src)
    d, di = elements(eng, a["dst"], a["idx"], a["count"])
    d[di] = x[xb + offs // src.itemsize]


@impl("scatter")
def _scatter(eng, op):
    a = op.attrs
    o, ob = eng.view(a["offset"])
    oi = slice(ob, ob + a["count"]) if a["oidx"] is None else ob + a["oidx"]
    offs = o[oi].astype(np.int64) + a["base"]
    dst = a["dst"]
    _offsets_within(op, dst, offs, dst.itemsize, "offset")
    x, xi = elements(eng, a["src"], a["idx"], a["count"])
    d, db = eng.view(dst)
    d[db + offs // dst.itemsize] = x[xi]


@impl("gatherb")
def _gatherb(eng, op):
    a = op.attrs
    blocks = a["blocks"]
    rt = blocks.shape[0]
    o, ob = eng.view(a["offset"])
    offs = o[ob: ob + 8 * rt].astype(np.int64)
    src = a["src"]
    _offsets_within(op, src, offs, 32, "block offset")
    per = 32 // src.itemsize
    x, xb = eng.view(src)
    d, db = eng.view(a["dst"])
    s_idx = (offs // src.itemsize)[:, None] + np.arange(per)
    d_idx = (blocks.reshape(-1) * per)[:, None] + np.arange(per)
    d[db + d_idx] = x[xb + s_idx]


@impl("brcb", pure=True)
def _brcb(eng, op):
    a = op.attrs
    blocks = a["blocks"]
    per = 32 // a["dst"].itemsize
    x, xb = eng.view(a["src"])
    d, db = eng.view(a["dst"])
    vals = x[xb: xb + blocks.size]
    d[db + (blocks.reshape(-1) * per)[:, None] + np.arange(per)] = vals[:, None]


@impl("gather_mask")
def _gather_mask(eng, op):
    a = op.attrs
    x, xb = eng.view(a["src"])
    picked = a["fixed"]
    if picked is None:
        pb, pbase = eng.byte_view(a["pattern"])
        bits_at = a["bits_at"]
        picked = ((pb[pbase + bits_at // 8] >> (bits_at % 8)) & 1).astype(bool)
    vals = x[xb + a["sidx"][picked]]
    dst = a["dst"]
    if vals.size > dst.size:
        raise located(KernelRuntimeError, op.loc, f"gather_mask keeps {vals.size} elements, dst holds {dst.size} "
                      f"({dst.owner})", "give dst room for every element the pattern can select", "BoundsError")
    d, db = eng.view(dst)
    d[db: db + vals.size] = vals
    return int(vals.size)

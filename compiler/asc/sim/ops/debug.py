"""``device_print`` and ``device_assert`` while the kernel runs (``asc.language.tile.debug_ops``)."""
from __future__ import annotations

import sys

import numpy as np

from ..errors import SimError
from ..lanes import per_lane
from ..memory import TensorVal
from . import impl


def _lane_value(v, lane, lanes):
    if isinstance(v, TensorVal):  # a global tensor: its current contents
        base = int(np.broadcast_to(v.base, (lanes,))[lane])
        dims = [int(np.broadcast_to(d, (lanes,))[lane]) for d in v.dims]
        return v.buffer.data[base:base + int(np.prod(dims))].reshape(dims)
    a = np.asarray(v)
    if a.ndim == 0:
        return a
    return a[lane] if a.shape[0] == lanes else a[0]


@impl("debug.print")
def _exec_print(ex, op, *values):
    lanes = ex.lanes
    blocks = per_lane(ex.blocks, lanes)
    for lane in range(lanes):
        it = iter(values)
        text = []
        for part in op.attrs["parts"]:
            if part is not None:
                text.append(part)
                continue
            v = _lane_value(next(it), lane, lanes)
            text.append(np.array2string(v, threshold=sys.maxsize) if v.ndim else str(v.item()))
        sys.stdout.write(f"[block {int(blocks[lane])}] " + op.attrs["sep"].join(text) + op.attrs["end"])
    return None


@impl("debug.assert")
def _exec_assert(ex, op, cond):
    ok = np.broadcast_to(np.asarray(cond).astype(bool), (ex.lanes,))
    bad = np.nonzero(~ok)[0]
    if bad.size:
        msg = op.attrs["message"]
        raise SimError(f"device_assert failed{': ' + msg if msg else ''}",
                       "the condition was false in the blocks listed; the kernel stops there on the device too",
                       bad)
    return None

"""Element math of v1 layout instructions: transposes of a block or an [N, C, H, W] tensor, and the 16 x 16
block transposition of trans_data_to_5hd."""
from __future__ import annotations

import numpy as np

from .impls import impl


@impl("transpose", pure=True)
def _transpose(eng, op):
    a = op.attrs
    n = int(np.prod(a["shape"]))
    x, xb = eng.view(a["src"])
    d, db = eng.view(a["dst"])
    d[db: db + n] = np.transpose(x[xb: xb + n].reshape(a["shape"]), a["perm"]).reshape(-1)


@impl("trans_data_to_5hd")
def _trans_data_to_5hd(eng, op):
    a = op.attrs
    d_step, s_step = a["steps"]
    for r in range(a["repeat_times"]):
        rows = []
        for t in a["srcs"]:
            x, xb = eng.view(t)
            rows.append(x[xb + r * s_step: xb + r * s_step + 16])
        m = np.stack(rows).T.copy()
        for t, row in zip(a["dsts"], m):
            d, db = eng.view(t)
            d[db + r * d_step: db + r * d_step + 16] = row

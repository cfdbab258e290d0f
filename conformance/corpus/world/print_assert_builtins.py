"""The builtins print and assert in a kernel, as host code writes them: compiled out without ``debug=True``
(the kernel still runs and computes)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def checked_copy(x_ptr, y_ptr, n, tile: asctile.ConstExpr[int]):
    assert tile % 8 == 0, "tile must be a multiple of 8"
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        print("tile", t)
        assert t * tile < n
        asctile.copy_out(asctile.copy_in(x, [t * tile], [tile]) + 1.0, y, [t * tile])


def run():
    x = np.arange(96, dtype=np.float32)
    y = np.zeros_like(x)
    checked_copy[2](x, y, 96, 32)
    return {"y": y}

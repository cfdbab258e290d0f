"""``or`` / ``and`` between compile-time values in a kernel (a tile's location and rank checked with
static_assert), as Python evaluates them."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def checked(x_ptr, y_ptr, n: asctile.ConstExpr[int]):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [n]), [0], [n])
    asctile.static_assert(x.location == asctile.TensorLocation.UB or x.location == asctile.TensorLocation.Auto)
    asctile.static_assert(x.rank == 1 and n % 8 == 0)
    asctile.copy_out(x + 1.0, asctile.global_tensor(y_ptr, [n]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    checked[1](x, y, 64)
    return {"y": y}

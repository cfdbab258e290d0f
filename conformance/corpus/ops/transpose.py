"""tile.transpose() of a square float32 tile."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def transpose_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, n: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [n, n])
    out_gm = asctile.global_tensor(out_ptr, [n, n])
    asctile.copy_out(asctile.copy_in(x_gm, [0, 0], [n, n]).transpose(), out_gm, [0, 0])


def run():
    x = np.arange(16 * 16, dtype=np.float32).reshape(16, 16)
    out = np.zeros_like(x)
    transpose_kernel[1](x, out, 16)
    return {"out": out}

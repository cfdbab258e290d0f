"""tile * tile, tile * scalar, asctile.maximum / minimum / mul (upstream's interpreter has none of them)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def mul_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
               size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [1, size])
    y_gm = asctile.global_tensor(y_ptr, [1, size])
    out_gm = asctile.global_tensor(out_ptr, [4, size])
    x = asctile.copy_in(x_gm, [0, 0], [1, size])
    y = asctile.copy_in(y_gm, [0, 0], [1, size])
    asctile.copy_out(x * y, out_gm, [0, 0])
    asctile.copy_out(asctile.mul(x, 3.0), out_gm, [1, 0])
    asctile.copy_out(asctile.maximum(x, y), out_gm, [2, 0])
    asctile.copy_out(asctile.minimum(x, y), out_gm, [3, 0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((1, 1024), dtype=np.float32) * 4 - 2
    y = rng.random((1, 1024), dtype=np.float32) * 4 - 2
    out = np.zeros((4, x.size), np.float32)
    mul_kernel[1](x, y, out, x.size)
    return {"out": out}

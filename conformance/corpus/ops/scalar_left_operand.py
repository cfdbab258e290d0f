"""A Python scalar on the left of a tile operator (0.5 * x, 1.0 + x): the August tile has the reflected operators."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def scale_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    x = asctile.copy_in(x_gm, [0], [size])
    asctile.copy_out(1.0 + 0.5 * x, out_gm, [0])


def run():
    x = np.linspace(-3, 3, 256, dtype=np.float32)
    out = np.zeros_like(x)
    scale_kernel[1](x, out, x.size)
    return {"out": out}

"""copy_in without a shape reads one scalar; copy_out of a scalar writes one element."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def scalar_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    first = asctile.copy_in(x_gm, [0])
    asctile.copy_out(first + 1.0, out_gm, [size - 1])


def run():
    x = np.arange(16, dtype=np.float32) + 3
    out = np.zeros_like(x)
    scalar_kernel[1](x, out, x.size)
    return {"out": out}

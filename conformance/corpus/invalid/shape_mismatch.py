"""Two tiles whose shapes do not broadcast."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Shapes are not broadcastable: (16,) vs. (32,)"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    a = asctile.copy_in(x_gm, [0], [16])
    b = asctile.copy_in(x_gm, [0], [32])
    asctile.copy_out(a + b, out_gm, [0])


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

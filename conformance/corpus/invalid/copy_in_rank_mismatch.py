"""copy_in of a 2-D tensor with one offset and a 1-D shape."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "rank"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x_gm = asctile.global_tensor(x_ptr, [8, 64])
    out_gm = asctile.global_tensor(out_ptr, [8, 64])
    asctile.copy_out(asctile.copy_in(x_gm, [0], [64]), out_gm, [0, 0])


def run():
    x = np.arange(8 * 64, dtype=np.float32).reshape(8, 64)
    out = np.zeros_like(x)
    kernel[1](x, out)
    return {"out": out}

"""Both parallel= and gm_barrier= on one loop."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "parallel"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for i in range(4, parallel=True, gm_barrier=True):
        asctile.copy_out(asctile.copy_in(x_gm, [i * 64], [64]), out_gm, [i * 64])


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

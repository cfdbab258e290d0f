"""A def nested in a kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Nested functions are not supported"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    def twice(t):
        return t + t
    asctile.copy_out(twice(asctile.copy_in(x_gm, [0], [64])), out_gm, [0])


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

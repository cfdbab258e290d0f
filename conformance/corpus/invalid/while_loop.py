"""A while loop in a kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'while' statement is not supported in JIT function"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    i = 0
    while i < 4:
        i = i + 1


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

"""try / except in a kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Try syntax is not supported in JIT function"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    try:
        asctile.copy_out(asctile.copy_in(x_gm, [0], [64]), out_gm, [0])
    except RuntimeError:
        pass


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

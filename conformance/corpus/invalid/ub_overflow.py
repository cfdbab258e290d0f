"""A tile larger than the unified buffer (1 MiB of float32)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "UB"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    asctile.copy_out(asctile.copy_in(x_gm, [0], [262144]), out_gm, [0])


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

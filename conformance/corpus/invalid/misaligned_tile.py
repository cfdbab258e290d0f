"""A 2-D tile whose last dimension is 12 bytes (3 float32): not a multiple of 32 bytes."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "32 bytes"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    x2 = asctile.global_tensor(x_ptr, [16, 64])
    o2 = asctile.global_tensor(out_ptr, [16, 64])
    asctile.copy_out(asctile.copy_in(x2, [0, 0], [2, 3]), o2, [0, 0])


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

"""A loop-carried scalar seeded with a Python float, then given a runtime value."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'s' was re-assigned to an object with different type"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    s = 0.0
    for i in range(4):
        s = s + asctile.reduce_sum(asctile.copy_in(x_gm, [i * 16], [16]))


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

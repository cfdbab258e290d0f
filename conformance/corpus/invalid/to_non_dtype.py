"""tensor.to() with a number where a dtype (or a location) belongs."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = ("No viable candidates were found to dispatch asctile.LocalTensor.to()\n"
         "Provided arguments:\n  (..., int, )\n")


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
    asctile.copy_out(x.to(16), asctile.global_tensor(out_ptr, [8, 64]), [0, 0])


def run():
    x = np.ones((8, 64), np.float32)
    out = np.zeros((8, 64), np.float16)
    kernel[1](x, out)
    return {"out": out}

"""exp of a tensor in L1: there is no L1 -> UB path for the vector unit to read it."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = ("Direct data transfer from L1 to UB is not supported. Please call copy() with explicit locations to "
         "fulfill the requested data flow.")


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L1)
    asctile.copy_out(asctile.exp(x), asctile.global_tensor(out_ptr, [16, 16]), [0, 0])


def run():
    x = np.zeros((16, 16), np.float16)
    out = np.zeros_like(x)
    kernel[1](x, out)
    return {"out": out}

"""asctile.copy of a Python number."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'src' argument must be LocalTensor, got int"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    x_gm = asctile.global_tensor(x_ptr, [16, 16])
    o_gm = asctile.global_tensor(o_ptr, [16, 16])
    h = asctile.copy_in(x_gm, [0, 0], [16, 16])
    asctile.copy(3, [0, 0], [16, 16])


def run():
    x, o = np.ones((16, 16), np.float16), np.zeros((16, 16), np.float16)
    kernel[1](x, o)
    return {"o": o}

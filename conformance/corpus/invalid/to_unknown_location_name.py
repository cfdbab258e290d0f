"""tensor.to() with a dtype's name as a string: a string is read as a TensorLocation name."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "float16 does not match a valid TensorLocation name"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
    asctile.copy_out(x.to("float16"), asctile.global_tensor(out_ptr, [8, 64]), [0, 0])


def run():
    x = np.ones((8, 64), np.float32)
    out = np.zeros((8, 64), np.float16)
    kernel[1](x, out)
    return {"out": out}

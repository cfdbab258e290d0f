"""reshape of a [16, 16] tensor to a shape with another element count."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = ("Reshaping tensor of shape (16, 16) with 256 elements not match output shape (8, 16) with 128 "
         "elements")


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16])
    asctile.copy_out(x.reshape([8, 16]), asctile.global_tensor(out_ptr, [8, 16]), [0, 0])


def run():
    x = np.arange(256, dtype=np.float32).reshape(16, 16)
    out = np.zeros((8, 16), np.float32)
    kernel[1](x, out)
    return {"out": out}

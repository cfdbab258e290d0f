"""A where source whose shape does not broadcast to the mask's."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'Cannot broadcast tensor with shape (1, 32) to (1, 64)'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    y = asctile.where(x > 0, x, asctile.zeros([1, 32], asctile.float32))
    asctile.copy_out(y, asctile.global_tensor(x_ptr, [1, 64]), [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

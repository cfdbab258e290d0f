"""gather along the last dimension of the source tensor."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Gather along the last dimension is not implemented"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress):
    src = asctile.global_tensor(x_ptr, [32, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
    tile = asctile.gather(src, [0, 0], 1, index)


def run():
    x = np.arange(256, dtype=np.float32).reshape(32, 8)
    i = np.arange(16, dtype=np.int32)
    kernel[1](x, i)
    return {"x": x}

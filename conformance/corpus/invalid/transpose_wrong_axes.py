"""transpose with axes that are not a permutation."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'Wrong dimensions rearrangement (0, 0) for tensor of 2 dimensions'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 32]), [0, 0], [16, 32])
    asctile.copy_out(x.transpose(0, 0), asctile.global_tensor(x_ptr, [16, 32]), [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

"""transpose with fewer axes than the tile has dimensions."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'Transpose axis count 1 should match count of tensor dimensions 2'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 32]), [0, 0], [16, 32])
    asctile.copy_out(asctile.transpose(x, 1), asctile.global_tensor(x_ptr, [16, 32]), [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

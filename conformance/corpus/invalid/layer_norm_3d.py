"""layer_norm of a 3-D tile (1-D or 2-D only)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'Tensor dimensionality greater than two is not supported.'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.zeros([2, 8, 64], asctile.float32)
    g = asctile.zeros([64], asctile.float32)
    out, mean, rstd = asctile.layer_norm(x, g, g, 1e-5)


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

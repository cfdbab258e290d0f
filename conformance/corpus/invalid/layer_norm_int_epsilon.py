"""layer_norm with an integer epsilon."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'epsilon' argument must be float or PlainValue with float dtype, got int"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    g = asctile.zeros([64], asctile.float32)
    out, mean, rstd = asctile.layer_norm(x, g, g, 0)


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

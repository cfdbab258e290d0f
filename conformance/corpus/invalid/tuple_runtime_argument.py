"""A tuple passed to a parameter that is not ConstExpr."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Argument type in JIT function is not supported: tuple"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, shape):
    x_gm = asctile.global_tensor(x_ptr, shape)
    out_gm = asctile.global_tensor(out_ptr, shape)
    asctile.copy_out(asctile.copy_in(x_gm, [0, 0], [8, 8]), out_gm, [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    out = np.zeros_like(x)
    kernel[1](x, out, (8, 8))
    return {"out": out}

"""exp of an int32 tile (unary math takes float16 / float32)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'input' dtype must be one of float16, float32, got int32"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    asctile.copy_out(asctile.exp(asctile.copy_in(x_gm, [0], [size])), out_gm, [0])


def run():
    x = np.arange(64, dtype=np.int32)
    out = np.zeros_like(x)
    kernel[1](x, out, x.size)
    return {"out": out}

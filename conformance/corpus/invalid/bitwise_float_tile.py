"""A bitwise op on float32 tiles (bitwise ops take integer tiles)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'input' dtype must be one of int8, int16, int32, int64, got float32"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    asctile.copy_out(x & x, asctile.global_tensor(x_ptr, [1, 64]), [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

"""softmax of an int32 tensor (it takes float16 / float32)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'input' dtype must be one of float16, float32, got int32"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [8, 64]), [0, 0], [8, 64])
    asctile.copy_out(asctile.softmax(x), asctile.global_tensor(out_ptr, [8, 64]), [0, 0])


def run():
    x = np.arange(512, dtype=np.int32).reshape(8, 64)
    out = np.zeros_like(x)
    kernel[1](x, out)
    return {"out": out}

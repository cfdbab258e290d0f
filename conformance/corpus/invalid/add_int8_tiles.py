"""Addition of int8 tiles (the August binary ops take int16 / int32 / int64 / float16 / bfloat16 / float32)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'input' dtype must be one of int16, int32, int64, float16, bfloat16, float32, got int8"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    asctile.copy_out(x + x, asctile.global_tensor(x_ptr, [1, 64]), [0, 0])


def run():
    x = np.arange(64, dtype=np.int8).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

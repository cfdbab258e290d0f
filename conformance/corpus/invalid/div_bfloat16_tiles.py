"""Division of bfloat16 tiles (the August division takes int16 / int32 / int64 / float16 / float32)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'input' dtype must be one of int16, int32, int64, float16, float32, got bfloat16"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.zeros([1, 64], asctile.bfloat16)
    asctile.copy_out((x / 2.0).to(asctile.float32), asctile.global_tensor(x_ptr, [1, 64]), [0, 0])


def run():
    x = np.zeros((1, 64), np.float32)
    kernel[1](x)
    return {"x": x}

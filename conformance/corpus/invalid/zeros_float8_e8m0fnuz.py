"""asctile.zeros of float8_e8m0fnuz (a scale format): upstream's full / zeros take no 8-bit float."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'dtype' dtype must be one of int8, int16, int32, int64, float16, bfloat16, float32, got float8_e8m0fnuz"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    scales = asctile.zeros([64], asctile.float8_e8m0fnuz)
    asctile.copy_out(x + scales.to(asctile.float32), asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y)
    return {"y": y}

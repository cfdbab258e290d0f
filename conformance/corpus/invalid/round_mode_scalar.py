"""cast of a scalar with a rounding mode."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'round_mode' argument cannot be used with scalar input"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    n = asctile.cast(1.5, asctile.int32, asctile.RoundMode.Floor)


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

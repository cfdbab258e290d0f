"""An option @asctile.jit does not know."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "The following option names are unknown: unroll"


def run():
    @asctile.jit(unroll=2)
    def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
        x_gm = asctile.global_tensor(x_ptr, [size])

    x = np.arange(64, dtype=np.float32)
    kernel[1](x, x.copy(), x.size)
    return {"x": x}

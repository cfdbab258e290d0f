"""A static_assert on a runtime value."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'static_assert expects a compile-time value'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, n: int):
    asctile.static_assert(n > 0)


def run():
    x = np.zeros(64, np.float32)
    kernel[1](x, 8)
    return {"x": x}

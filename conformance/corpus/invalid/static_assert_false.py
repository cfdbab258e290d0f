"""A static_assert whose compile-time condition is false."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'TILE must be a multiple of 16'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, tile: asctile.ConstExpr[int]):
    asctile.static_assert(tile % 16 == 0, "TILE must be a multiple of 16")


def run():
    x = np.zeros(64, np.float32)
    kernel[1](x, 8)
    return {"x": x}

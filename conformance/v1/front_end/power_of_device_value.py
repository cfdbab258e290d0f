"""A device value to a power: PlainValue's __pow__ gives Python's NotImplemented, which pyasc's
front end accepts as a value and any use of it refuses; this engine refuses the power itself."""
import numpy as np

import asc

EXPECT = 'accept'
HERE = "reject"
DIFFERS = "pyasc binds NotImplemented to r (PlainValue has no power) and refuses it where it is used; this engine stops at the power"
N = 64


@asc.jit
def kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    r = n ** 2


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    z[0] = 0
    return {"z": z}

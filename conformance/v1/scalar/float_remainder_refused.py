"""% has no float form in pyasc: refused."""
import math

import numpy as np

import asc

EXPECT = 'reject'
N = 64


@asc.jit
def kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, f: float):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    z_gm.set_value(0, f % 2.0)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 3, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    z[0] = 0
    return {"z": z}

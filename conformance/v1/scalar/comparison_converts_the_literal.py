"""A comparison converts a Python float to the device int's type: n < 2.5 is n < 2 (false for n = 2), n == 2.5 is n == 2."""
import math

import numpy as np

import asc

EXPECT = 'accept'
N = 64


@asc.jit
def kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, f: float):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    if n < 2.5:
        z_gm.set_value(0, 1)
    if n == 2.5:
        z_gm.set_value(1, 1)
    if f > n:
        z_gm.set_value(2, 1)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 2, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    z[0] = 0
    z[1] = 1
    z[2] = 1
    return {"z": z}

"""A Python float meeting a device int is materialised as an int (toward zero): n * 0.5 is n * 0, n + 1.7 is n + 1."""
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
    z_gm.set_value(0, n * 0.5)
    z_gm.set_value(1, 0.5 * n)
    z_gm.set_value(2, n + 1.7)
    z_gm.set_value(3, n - 2.9)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 7, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    n = 7
    z[0] = n * 0
    z[1] = 0 * n
    z[2] = n + 1
    z[3] = n - 2
    return {"z": z}

"""/ and // of a device int are C's division (toward zero), % C's remainder (the dividend's sign): -7 / 2 is -3, -7 // 2 is -3, -7 % 2 is -1."""
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
    z_gm.set_value(0, n / 2)
    z_gm.set_value(1, n // 2)
    z_gm.set_value(2, n % 2)
    z_gm.set_value(3, 7 / n)
    z_gm.set_value(4, n % -4)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, -7, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    n = -7
    z[0] = int(n / 2)
    z[1] = int(n / 2)
    z[2] = math.fmod(n, 2)
    z[3] = int(7 / n)
    z[4] = math.fmod(n, -4)
    return {"z": z}

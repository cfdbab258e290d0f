"""Device int32 arithmetic wraps (C's int32): 70000 * 70000 is 605032704."""
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
    z_gm.set_value(0, n * n)
    z_gm.set_value(1, n * n / 3)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.int32)
    kernel[1](x, z, 70000, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.int32)
    p = (70000 * 70000 + 2 ** 31) % 2 ** 32 - 2 ** 31
    z[0] = p
    z[1] = int(p / 3)
    return {"z": z}

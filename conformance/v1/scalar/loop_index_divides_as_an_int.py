"""A runtime loop's index is a device int: i / 2 is an integer division."""
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
    acc = n * 0
    for i in range(n):
        acc += i / 2
    z_gm.set_value(0, acc)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 5, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    z[0] = sum(int(i / 2) for i in range(5))
    return {"z": z}

"""Two device values: the left one's type wins (n + f converts f to int by FPToSI, f + n converts n to float)."""
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
    z_gm.set_value(0, n + f)
    z_gm.set_value(1, f + n)
    z_gm.set_value(2, f // 2.0)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, -7, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    n, f = -7, 2.5
    z[0] = n + int(f)
    z[1] = f + n
    z[2] = f / 2.0
    return {"z": z}

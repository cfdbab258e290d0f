"""One jit helper given an int, then a float for the same parameter."""
import numpy as np

import asc

EXPECT = 'reject'
N = 64

@asc.jit
def fill(t: asc.LocalTensor, value, count: int):
    asc.duplicate(t, value, count)


@asc.jit
def kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    a = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 0, N)
    fill(a, 1, N)
    fill(a, 1.5, N)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    z[0] = 0
    return {"z": z}

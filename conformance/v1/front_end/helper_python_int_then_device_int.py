"""One jit helper given a Python int, then a device int (both int32): compiled."""
import numpy as np

import asc

EXPECT = 'accept'
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
    fill(a, 1.0, 8)
    fill(a, 3.0, n + 3)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, a, 8)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z, 5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    z[0] = 3
    z[1:8] = 3
    return {"z": z}

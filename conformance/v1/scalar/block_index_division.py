"""get_block_idx() is a device int: (b - 3) / 2 and (b - 3) % 2 truncate in every block (traced and per block)."""
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
    b = asc.get_block_idx()
    z_gm.set_value(b * 2, (b - n) / 2)
    z_gm.set_value(b * 2 + 1, (b - n) % 2)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[4](x, z, 3, 2.5)
    return {"z": z}


def reference(arrays):
    z = np.zeros(N, dtype=np.float32)
    for b in range(4):
        z[b * 2] = int((b - 3) / 2)
        z[b * 2 + 1] = math.fmod(b - 3, 2)
    return {"z": z}

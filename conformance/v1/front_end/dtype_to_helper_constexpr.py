"""A DataType passed to a @jit helper's ConstExpr parameter is a compile-time value: accepted."""
import numpy as np

import asc

EXPECT = 'accept'
N = 64

@asc.jit
def fill(t: asc.LocalTensor, dtype: asc.ConstExpr, n: int):
    asc.duplicate(t, 1.0, n)


@asc.jit
def kernel(x: asc.GlobalAddress, z: asc.GlobalAddress):
    x_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, N)
    z_gm = asc.GlobalTensor()
    z_gm.set_global_buffer(z, N)
    t = asc.LocalTensor(asc.float32, asc.TPosition.VECOUT, 0, N)
    fill(t, x_gm.dtype, N)
    asc.set_flag(asc.HardEvent.V_MTE3, 0)
    asc.wait_flag(asc.HardEvent.V_MTE3, 0)
    asc.data_copy(z_gm, t, N)


def run():
    x = np.arange(N, dtype=np.float32)
    z = np.zeros(N, dtype=np.float32)
    kernel[1](x, z)
    return {"x": x, "z": z}


def reference(arrays):
    return {"z": np.ones(N, np.float32)}

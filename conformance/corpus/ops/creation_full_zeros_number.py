"""asctile.full, asctile.zeros, asctile.full_like and an int_ tile plus a Python int."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def fill_kernel(out_ptr: asctile.GlobalAddress, iout_ptr: asctile.GlobalAddress):
    out_gm = asctile.global_tensor(out_ptr, [3, 64])
    iout_gm = asctile.global_tensor(iout_ptr, [64])
    asctile.copy_out(asctile.full([1, 64], 2.5, dtype=asctile.float32), out_gm, [0, 0])
    z = asctile.zeros([1, 64], dtype=asctile.float32)
    asctile.copy_out(z, out_gm, [1, 0])
    asctile.copy_out(asctile.full_like(z, -1.0), out_gm, [2, 0])
    asctile.copy_out(asctile.zeros([64], dtype=asctile.int_) + 7, iout_gm, [0])


def run():
    out = np.ones((3, 64), np.float32)
    iout = np.zeros(64, np.int32)
    fill_kernel[1](out, iout)
    return {"out": out, "int": iout}

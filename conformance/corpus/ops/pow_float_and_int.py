"""pow of float32 tiles (tile ** tile, tile ** scalar, scalar ** tile) and of int32 tiles."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, e_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress,
           out_ptr: asctile.GlobalAddress, iout_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    e = asctile.copy_in(asctile.global_tensor(e_ptr, [1, 64]), [0, 0], [1, 64])
    i = asctile.copy_in(asctile.global_tensor(i_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [3, 64])
    asctile.copy_out(x ** e, out, [0, 0])
    asctile.copy_out(asctile.pow(x, 3.0), out, [1, 0])
    asctile.copy_out(2.0 ** e, out, [2, 0])
    asctile.copy_out(asctile.pow(i, 3), asctile.global_tensor(iout_ptr, [1, 64]), [0, 0])


def run():
    rng = np.random.default_rng(17)
    x = rng.random((1, 64), dtype=np.float32) * 3
    e = rng.random((1, 64), dtype=np.float32) * 4 - 2
    i = rng.integers(-100, 100, (1, 64), dtype=np.int32)
    out = np.zeros((3, 64), np.float32)
    iout = np.zeros((1, 64), np.int32)
    kernel[1](x, e, i, out, iout)
    return {"out": out, "iout": iout}

"""Both operands broadcast ([R, 1] op [1, C]), in arithmetic, a comparison and where."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    a = asctile.reduce_max(asctile.copy_in(asctile.global_tensor(a_ptr, [16, 8]), [0, 0], [16, 8]), 1,
                           keep_dims=True)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [1, 32]), [0, 0], [1, 32])
    asctile.copy_out(a * b, asctile.global_tensor(out_ptr, [32, 32]), [0, 0])
    asctile.copy_out(asctile.where(a > b, a, b), asctile.global_tensor(out_ptr, [32, 32]), [16, 0])


def run():
    rng = np.random.default_rng(15)
    a = rng.random((16, 8), dtype=np.float32)
    b = rng.random((1, 32), dtype=np.float32)
    out = np.zeros((32, 32), np.float32)
    kernel[1](a, b, out)
    return {"out": out}

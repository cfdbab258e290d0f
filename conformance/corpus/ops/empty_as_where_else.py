"""empty_like as the unused operand of where (its elements are never selected)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    other = asctile.empty([1, 64], asctile.float32, asctile.TensorLocation.UB)
    asctile.copy_out(asctile.where(x == x, x, other), asctile.global_tensor(out_ptr, [1, 64]), [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    out = np.zeros_like(x)
    kernel[1](x, out)
    return {"out": out}

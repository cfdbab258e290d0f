"""asctile.bool_ is int8: a cast to it and back."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    asctile.copy_out(x.to(asctile.bool_).to(asctile.int16), asctile.global_tensor(out_ptr, [1, 64]), [0, 0])


def run():
    x = (np.arange(64, dtype=np.int16) % 3).reshape(1, 64)
    out = np.zeros((1, 64), np.int16)
    kernel[1](x, out)
    return {"out": out}

"""to_asc / from_asc of values that are not tensors (a runtime length, a number) return them unchanged."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, n: int):
    length = asctile.from_asc(asctile.to_asc(n))
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [length]), [0], [64])
    asctile.copy_out(x + asctile.to_asc(2.0), asctile.global_tensor(y_ptr, [length]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y, 64)
    return {"y": y}

"""A float64 tensor copied through a tile (x.to(asctile.float64) of a float32 tile, stored to a float64
output): pyasc's front end accepts float64 tiles; this engine's tiles hold no 64-bit float (the vector
units have none), so it refuses the cast at the user's line."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "tiles of float64 are not supported"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    asctile.copy_out(x.to(asctile.float64), asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float64)
    kernel[1](x, y)
    return {"y": y}

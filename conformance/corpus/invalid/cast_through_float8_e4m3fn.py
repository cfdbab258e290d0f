"""Quantise a tile to float8_e4m3fn and back (x.to(asctile.float8_e4m3fn).to(asctile.float32)): pyasc's front end accepts
8-bit float tiles; this engine's tiles hold no 8-bit float, so it refuses the cast at the user's line."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "tiles of float8_e4m3fn are not supported"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    asctile.copy_out(x.to(asctile.float8_e4m3fn).to(asctile.float32), asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32) / 4
    y = np.zeros_like(x)
    kernel[1](x, y)
    return {"y": y}

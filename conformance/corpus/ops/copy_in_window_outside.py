"""copy_in of a 2-D window that starts below the tensor's last row: no element of it is inside the tensor, so
pyasc's lowering clamps the DMA's length at zero and the tile is its pad value."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int):
    x_gm = asctile.global_tensor(x_ptr, [rows, 16])
    out_gm = asctile.global_tensor(out_ptr, [4, 16])
    asctile.copy_out(asctile.copy_in(x_gm, [rows, 0], [4, 16], pad_value=0.0), out_gm, [0, 0])


def run():
    out = np.zeros((4, 16), np.float32)
    kernel[1](np.ones((10, 16), np.float32), out, 10)
    return {"out": out}

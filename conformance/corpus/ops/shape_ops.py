"""tile.reshape(r, c) and tile.broadcast_to(r, c)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def shape_kernel(x_ptr: asctile.GlobalAddress, row_ptr: asctile.GlobalAddress, r_ptr: asctile.GlobalAddress,
                 b_ptr: asctile.GlobalAddress):
    x_gm = asctile.global_tensor(x_ptr, [256])
    row_gm = asctile.global_tensor(row_ptr, [1, 16])
    r_gm = asctile.global_tensor(r_ptr, [16, 16])
    b_gm = asctile.global_tensor(b_ptr, [8, 16])
    x = asctile.copy_in(x_gm, [0], [256])
    square = x.reshape(16, 16)
    asctile.copy_out(square, r_gm, [0, 0])
    row = asctile.copy_in(row_gm, [0, 0], [1, 16])
    asctile.copy_out(row.broadcast_to(8, 16), b_gm, [0, 0])


def run():
    x = np.arange(256, dtype=np.float32)
    row = np.arange(16, dtype=np.float32) * 0.5
    r, b = np.zeros((16, 16), np.float32), np.zeros((8, 16), np.float32)
    shape_kernel[1](x, row, r, b)
    return {"reshape": r, "broadcast_to": b}

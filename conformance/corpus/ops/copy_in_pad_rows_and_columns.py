"""copy_in of 2-D windows past the last row, past the row end, and past both: pad_value fills what the
window holds outside the tensor (rows and columns), every block its own window."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def pad_both_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int, cols: int):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [16, 32])
    r = (asctile.block_idx() // 2) * 8
    c = (asctile.block_idx() % 2) * 16
    asctile.copy_out(asctile.copy_in(x_gm, [r, c], [8, 16], pad_value=-3.0), out_gm, [r, c])


def run():
    x = np.arange(13 * 24, dtype=np.float32).reshape(13, 24)
    out = np.zeros((16, 32), np.float32)
    pad_both_kernel[4](x, out, 13, 24)
    return {"out": out}

"""copy_in of a 2-D tile whose rows run past the tensor's last row: pad_value fills the missing rows."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def row_tail_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                    cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [4, cols])
    asctile.copy_out(asctile.copy_in(x_gm, [rows - 2, 0], [4, cols], pad_value=0.0), out_gm, [0, 0])


def run():
    x = np.arange(10 * 16, dtype=np.float32).reshape(10, 16)
    out = np.full((4, 16), -1.0, np.float32)
    row_tail_kernel[1](x, out, 10, 16)
    return {"out": out}

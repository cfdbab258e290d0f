"""copy_out with real_shape writes only the leading rows and columns; the rest of the destination keeps its values."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def partial_store_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                         rows: asctile.ConstExpr[int], cols: asctile.ConstExpr[int], keep_rows: int):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    x = asctile.copy_in(x_gm, [0, 0], [rows, cols])
    asctile.copy_out(x + 1.0, out_gm, [0, 0], real_shape=[keep_rows, 8])


def run():
    x = np.arange(8 * 32, dtype=np.float32).reshape(8, 32)
    out = np.full_like(x, -5.0)
    partial_store_kernel[1](x, out, 8, 32, 3)
    return {"out": out}

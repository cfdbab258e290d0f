"""copy_in with real_shape and pad_value: the rows and columns past real_shape hold pad_value."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def pad_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
               cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [8, cols])
    a = asctile.copy_in(x_gm, [1, 0], [4, cols], real_shape=[2, 8], pad_value=-1.0)
    asctile.copy_out(a, out_gm, [0, 0])
    b = asctile.copy_in(x_gm, [0, 0], [4, cols], real_shape=[4, cols], pad_value=7.0)
    asctile.copy_out(b, out_gm, [4, 0])


def run():
    x = np.arange(10 * 16, dtype=np.float32).reshape(10, 16)
    out = np.zeros((8, 16), np.float32)
    pad_kernel[1](x, out, 10, 16)
    return {"out": out}

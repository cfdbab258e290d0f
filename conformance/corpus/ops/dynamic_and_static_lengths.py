"""The same body with a runtime ("dynamic") length and with a ConstExpr ("static") one, in one file."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def dynamic_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                   cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    for r in asctile.range(asctile.block_idx(), rows, asctile.block_num()):
        asctile.copy_out(asctile.copy_in(x_gm, [r, 0], [1, cols]) + 2.0, out_gm, [r, 0])


@asctile.jit
def static_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr[int],
                  cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    for r in asctile.range(asctile.block_idx(), rows, asctile.block_num()):
        asctile.copy_out(asctile.copy_in(x_gm, [r, 0], [1, cols]) + 2.0, out_gm, [r, 0])


def run():
    x = np.arange(9 * 64, dtype=np.float32).reshape(9, 64)
    dyn, sta = np.zeros_like(x), np.zeros_like(x)
    dynamic_kernel[4](x, dyn, 9, 64)
    static_kernel[4](x, sta, 9, 64)
    return {"dynamic": dyn, "static": sta}

"""The builtin range without keywords (one, two and three runtime arguments) inside a kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def strided_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                   cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    for r in range(asctile.block_idx(), rows, asctile.block_num()):
        acc = asctile.copy_in(x_gm, [r, 0], [1, cols])
        for _ in range(2):
            acc = acc + acc
        for _ in range(1, r + 1):
            acc = acc - 1.0
        asctile.copy_out(acc, out_gm, [r, 0])


def run():
    x = np.arange(7 * 32, dtype=np.float32).reshape(7, 32)
    out = np.zeros_like(x)
    strided_kernel[3](x, out, 7, 32)
    return {"out": out}

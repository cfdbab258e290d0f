"""asctile.static_range: a loop unrolled at trace time over ConstExpr bounds."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def unrolled_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, parts: asctile.ConstExpr[int],
                    part: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [parts * part])
    out_gm = asctile.global_tensor(out_ptr, [parts * part])
    for i in asctile.static_range(parts):
        asctile.copy_out(asctile.copy_in(x_gm, [i * part], [part]) + float(i), out_gm, [i * part])


def run():
    x = np.zeros(4 * 64, dtype=np.float32)
    out = np.zeros_like(x)
    unrolled_kernel[1](x, out, 4, 64)
    return {"out": out}

"""asctile.softmax on float32 and float16 row groups."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}


@asctile.jit
def softmax_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr[int],
                   cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    x = asctile.copy_in(x_gm, [0, 0], [rows, cols])
    asctile.copy_out(asctile.softmax(x), out_gm, [0, 0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((8, 64), dtype=np.float32) * 10 - 5
    h = x.astype(np.float16)
    out, hout = np.zeros_like(x), np.zeros_like(h)
    softmax_kernel[1](x, out, 8, 64)
    softmax_kernel[1](h, hout, 8, 64)
    return {"float32": out, "float16": hout}

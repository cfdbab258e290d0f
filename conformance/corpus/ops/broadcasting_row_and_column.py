"""Implicit broadcasting with the interpreter's ops: [R, C] - [R, 1] (a keep_dims reduction), + [C] (a lower
rank operand, padded on the left), / [1, C]."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-6}


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress, d_ptr: asctile.GlobalAddress,
           out_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr[int], cols: asctile.ConstExpr[int]):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [rows, cols]), [0, 0], [rows, cols])
    c = asctile.copy_in(asctile.global_tensor(c_ptr, [cols]), [0], [cols])
    d = asctile.copy_in(asctile.global_tensor(d_ptr, [1, cols]), [0, 0], [1, cols])
    y = (x - asctile.reduce_sum(x, 1, keep_dims=True) + c) / d
    asctile.copy_out(y, asctile.global_tensor(out_ptr, [rows, cols]), [0, 0])


def run():
    rng = np.random.default_rng(14)
    x = rng.random((8, 64), dtype=np.float32)
    c = rng.random(64, dtype=np.float32)
    d = rng.random((1, 64), dtype=np.float32) + 1
    out = np.zeros_like(x)
    kernel[1](x, c, d, out, 8, 64)
    return {"out": out}

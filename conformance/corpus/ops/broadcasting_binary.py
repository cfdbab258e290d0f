"""Implicit broadcasting between tiles of different shapes ([R, C] - [R, 1], [R, C] * [1, C]), as the August
binary ops do it."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-6}


@asctile.jit
def center_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr[int],
                  cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    x = asctile.copy_in(x_gm, [0, 0], [rows, cols])
    asctile.copy_out(x - asctile.reduce_max(x, 1, keep_dims=True), out_gm, [0, 0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((8, 64), dtype=np.float32)
    out = np.zeros_like(x)
    center_kernel[1](x, out, 8, 64)
    return {"out": out}

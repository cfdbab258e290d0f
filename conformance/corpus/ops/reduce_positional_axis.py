"""reduce_sum / reduce_max over a positional axis of a 2-D tile, giving 1-D tiles; and to a scalar."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-5}


@asctile.jit
def reduce_kernel(x_ptr: asctile.GlobalAddress, sum0_ptr: asctile.GlobalAddress, max0_ptr: asctile.GlobalAddress,
                  sum1_ptr: asctile.GlobalAddress, max1_ptr: asctile.GlobalAddress, rows: asctile.ConstExpr[int],
                  cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    sum0_gm = asctile.global_tensor(sum0_ptr, [cols])
    max0_gm = asctile.global_tensor(max0_ptr, [cols])
    sum1_gm = asctile.global_tensor(sum1_ptr, [rows])
    max1_gm = asctile.global_tensor(max1_ptr, [rows])
    x = asctile.copy_in(x_gm, [0, 0], [rows, cols])
    asctile.copy_out(asctile.reduce_sum(x, 0), sum0_gm, [0])
    asctile.copy_out(asctile.reduce_max(x, 0), max0_gm, [0])
    asctile.copy_out(asctile.reduce_sum(x, 1), sum1_gm, [0])
    asctile.copy_out(asctile.reduce_max(x, 1) - asctile.reduce_max(x), max1_gm, [0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((16, 64), dtype=np.float32) * 2 - 1
    sum0, max0, sum1, max1 = (np.zeros(n, np.float32) for n in (64, 64, 16, 16))
    reduce_kernel[1](x, sum0, max0, sum1, max1, 16, 64)
    return {"sum_axis0": sum0, "max_axis0": max0, "sum_axis1": sum1, "max_axis1_minus_max": max1}

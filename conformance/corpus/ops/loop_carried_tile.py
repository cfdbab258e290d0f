"""A tile value carried through an un-barriered loop (acc = acc + x): legal, computed sequentially."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-6}


@asctile.jit
def column_sum_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                      cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [1, cols])
    acc = asctile.copy_in(x_gm, [0, 0], [1, cols])
    for r in asctile.range(1, rows, unroll_factor=2):
        acc = acc + asctile.copy_in(x_gm, [r, 0], [1, cols])
    asctile.copy_out(acc, out_gm, [0, 0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((37, 64), dtype=np.float32)
    out = np.zeros((1, 64), np.float32)
    column_sum_kernel[1](x, out, 37, 64)
    return {"out": out}

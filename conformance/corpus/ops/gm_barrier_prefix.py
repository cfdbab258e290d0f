"""gm_barrier=True orders each iteration's store before the next one's load of the same tensor (a running sum
through global memory)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-6}


@asctile.jit
def prefix_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                  cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    out_gm = asctile.global_tensor(out_ptr, [rows, cols])
    asctile.copy_out(asctile.copy_in(x_gm, [0, 0], [1, cols]), out_gm, [0, 0])
    for r in asctile.range(1, rows, gm_barrier=True):
        prev = asctile.copy_in(out_gm, [r - 1, 0], [1, cols])
        asctile.copy_out(prev + asctile.copy_in(x_gm, [r, 0], [1, cols]), out_gm, [r, 0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((12, 32), dtype=np.float32)
    out = np.zeros_like(x)
    prefix_kernel[1](x, out, 12, 32)
    return {"out": out}

"""Row softmax composed from reduce_max, exp, reduce_sum, - and / (all inside upstream's interpreter)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-4}


@asctile.jit
def softmax_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int,
                   num_cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, num_cols])
    for r in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        row = asctile.copy_in(x_gm, [r, 0], [1, num_cols])
        e = asctile.exp(row - asctile.reduce_max(row))
        asctile.copy_out(e / asctile.reduce_sum(e), out_gm, [r, 0])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((13, 128), dtype=np.float32) * 10 - 5
    out = np.zeros_like(x)
    softmax_kernel[4](x, out, x.shape[0], x.shape[1])
    return {"out": out}

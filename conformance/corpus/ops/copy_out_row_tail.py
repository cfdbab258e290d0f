"""copy_out of a tile whose rows run past the tensor's last row: only the rows inside are written."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def row_tail_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int,
                    tile_rows: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, 32])
    out_gm = asctile.global_tensor(out_ptr, [rows, 32])
    for r in asctile.range(0, rows, tile_rows):
        t = asctile.copy_in(x_gm, [r, 0], [tile_rows, 32], pad_value=0.0)
        asctile.copy_out(t, out_gm, [r, 0])


def run():
    rng = np.random.default_rng(2028)
    x = rng.random((20, 32), dtype=np.float32)
    out = np.zeros_like(x)
    row_tail_kernel[1](x, out, 20, 8)
    return {"out": out}

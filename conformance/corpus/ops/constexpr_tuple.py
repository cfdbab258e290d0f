"""An unparametrised asctile.ConstExpr holding a tuple: unpacked (rows, cols = shape) and indexed (shape[1])."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def tuple_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, shape: asctile.ConstExpr,
                 tile_rows: asctile.ConstExpr[int]):
    rows, cols = shape
    x_gm = asctile.global_tensor(x_ptr, shape)
    out_gm = asctile.global_tensor(out_ptr, [rows, shape[1]])
    for t in asctile.range(asctile.block_idx(), rows // tile_rows, asctile.block_num()):
        x = asctile.copy_in(x_gm, [t * tile_rows, 0], [tile_rows, cols])
        asctile.copy_out(x + x, out_gm, [t * tile_rows, 0])


def run():
    x = np.arange(32 * 16, dtype=np.float32).reshape(32, 16)
    out = np.zeros_like(x)
    tuple_kernel[2](x, out, (32, 16), 8)
    return {"out": out}

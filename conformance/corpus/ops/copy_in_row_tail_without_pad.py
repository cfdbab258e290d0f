"""copy_in of a 2-D window past the last row without pad_value: the rows inside the tensor are read
(the rest of the tile is undefined), and copy_out's real_shape writes only those."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def row_tail_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, rows: int, tile_len: int,
                    tile_rows: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, 16])
    out_gm = asctile.global_tensor(out_ptr, [rows, 16])
    r = asctile.block_idx() * tile_rows
    t = asctile.copy_in(x_gm, [r, 0], [tile_rows, 16])
    n = tile_len
    if rows - r < tile_rows:
        n = rows - r
    asctile.copy_out(t, out_gm, [r, 0], real_shape=[n, 16])


def run():
    x = np.arange(10 * 16, dtype=np.float32).reshape(10, 16)
    out = np.full((10, 16), -1.0, np.float32)
    row_tail_kernel[3](x, out, 10, 4, 4)
    return {"out": out}

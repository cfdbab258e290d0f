"""A 2-D tiled kernel with both lengths passed as ``asctile.ConstExpr`` at the call site (static) or as runtime
values (dynamic), tile shapes from a UB budget, ragged in both dimensions (the edge tiles' real
shape is ``min`` of the tile and what is left)."""
import numpy as np

from asc.experimental import asctile

from _tiling import UB_BYTES, pick_blocks

EXPECT = "accept"
SHAPES = ((64, 64), (37, 100), (128, 33))


@asctile.jit
def add2d(x_ptr, y_ptr, z_ptr, rows, cols, tr: asctile.ConstExpr[int], tc: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [rows, cols])
    z = asctile.global_tensor(z_ptr, [rows, cols])
    col_tiles = asctile.ceildiv(cols, tc)
    for i in asctile.range(asctile.block_idx(), asctile.ceildiv(rows, tr) * col_tiles, asctile.block_num()):
        r = (i // col_tiles) * tr
        c = (i % col_tiles) * tc
        real = [min(tr, rows - r), min(tc, cols - c)]
        a = asctile.copy_in(x, [r, c], [tr, tc], real_shape=real)
        b = asctile.copy_in(y, [r, c], [tr, tc], real_shape=real)
        asctile.copy_out(a + b, z, [r, c], real_shape=real)


def tile_shape(rows, cols, itemsize):
    tc = min(64, -(-cols // 8) * 8)
    tr = max(1, min(rows, 32, UB_BYTES // (6 * tc * itemsize)))
    return tr, tc


def run():
    rng = np.random.default_rng(19)
    out = {}
    for rows, cols in SHAPES:
        x = rng.random((rows, cols), dtype=np.float32)
        y = rng.random((rows, cols), dtype=np.float32)
        tr, tc = tile_shape(rows, cols, x.itemsize)
        blocks = pick_blocks(-(-rows // tr) * -(-cols // tc))
        for static in (False, True):
            z = np.zeros_like(x)
            r, c = (asctile.ConstExpr(rows), asctile.ConstExpr(cols)) if static else (rows, cols)
            add2d[blocks](x, y, z, r, c, tr, tc)
            out[f"{'static' if static else 'dynamic'}_{rows}x{cols}"] = z
    return out

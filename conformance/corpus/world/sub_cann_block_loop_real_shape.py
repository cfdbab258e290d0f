"""Sub tiled the CANN way (``block_loop_num = ceildiv(ceildiv(n, block_num), tile)``) with the ragged edge
guarded by ``real_shape = [min(tile, n - off)]``: on the last blocks ``n - off`` is negative (the window lies
wholly past the end: all but the last length here); upstream clips every count at 0, so nothing is read or
written there."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
SIZES = ((100, 48, 8), (130, 72, 8), (33, 20, 8), (4097, 72, 16))  # (n, cores, tile)


@asctile.jit
def sub_kernel(x_ptr, y_ptr, z_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    per_block = asctile.ceildiv(n, asctile.block_num())
    for i in asctile.range(asctile.ceildiv(per_block, tile)):
        off = asctile.block_idx() * per_block + i * tile
        real = [min(tile, n - off)]
        a = asctile.copy_in(x, [off], [tile], real_shape=real)
        b = asctile.copy_in(y, [off], [tile], real_shape=real)
        asctile.copy_out(a - b, z, [off], real_shape=real)


def run():
    rng = np.random.default_rng(232)
    pairs = {}
    for n, cores, tile in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        z = np.zeros_like(x)
        sub_kernel[cores](x, y, z, n, tile)
        pairs[f"{n}x{cores}"] = (z, x - y)
    return checked(pairs)

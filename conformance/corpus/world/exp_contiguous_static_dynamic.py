"""``exp`` over regression lengths, each block a contiguous run of tiles stopped with ``min`` and the last tile
trimmed with ``real_shape``; one kernel launched "dynamic" (runtime length) and "static"
(``asctile.ConstExpr(n)`` at the call site). Tile from ``get_platform_info(soc).ub_size``."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv, tile_from_budget

EXPECT = "accept"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}
SIZES = (1, 7, 31, 33, 1000, 4097, 65535)
CORES = 20


@asctile.jit
def exp_kernel(x_ptr, y_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    tiles = asctile.ceildiv(n, tile)
    per_block = asctile.ceildiv(tiles, asctile.block_num())
    first = asctile.block_idx() * per_block
    for t in asctile.range(first, min(first + per_block, tiles)):
        real = [min(tile, n - t * tile)]
        a = asctile.copy_in(x, [t * tile], [tile], real_shape=real)
        asctile.copy_out(asctile.exp(a), y, [t * tile], real_shape=real)


def run():
    rng = np.random.default_rng(204)
    pairs = {}
    for n in SIZES:
        x = rng.uniform(-8, 8, n).astype(np.float32)
        tile = tile_from_budget(ceildiv(n, CORES), 4, live_tiles=2)
        for form in ("dynamic", "static"):
            y = np.zeros_like(x)
            exp_kernel[CORES](x, y, asctile.ConstExpr(n) if form == "static" else n, tile)
            pairs[f"{form}_{n}"] = (y, np.exp(x))
    return checked(pairs, TOLERANCE)

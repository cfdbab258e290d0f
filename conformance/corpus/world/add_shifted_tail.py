"""Elementwise add that avoids a ragged tail the way many hand-written kernels do: the last tile is shifted back
to end at the last element (``off = min(t * tile, n - tile)``), so it overlaps the tile before it, and when
those two tiles belong to different blocks both store the same values over each other (upstream runs the
blocks one after the other: identical values, no race). Lengths at least one tile."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv

EXPECT = "accept"
CASES = ((33, 32, 8), (1000, 64, 16), (4097, 256, 16), (65535, 1024, 48))  # (n, tile, cores)


@asctile.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        off = min(t * tile, n - tile)
        asctile.copy_out(asctile.copy_in(x, [off], [tile]) + asctile.copy_in(y, [off], [tile]), z, [off])


def run():
    rng = np.random.default_rng(212)
    pairs = {}
    for n, tile, cores in CASES:
        assert ceildiv(n, tile) > 1
        x = rng.standard_normal(n).astype(np.float32)
        y = rng.standard_normal(n).astype(np.float32)
        z = np.zeros_like(x)
        add_kernel[cores](x, y, z, n, tile)
        pairs[f"{n}_{tile}"] = (z, x + y)
    return checked(pairs)

"""Clamp and a Where select (``where(x > 0, x, 0.2 * x)``) as the ClipByValue / Select tests write them, the
bounds runtime floats, over [3, 1021] flattened to 3063 elements and [1, 1, 77]; block count from
``kernel[None]`` (every core), each block taking tiles in turn, the last tile trimmed with ``real_shape``."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
SHAPES = ((3, 1021), (1, 1, 77))
TILE = 256


@asctile.jit
def clamp_where_kernel(x_ptr, clamp_ptr, sel_ptr, n, lo, hi, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    clamp = asctile.global_tensor(clamp_ptr, [n])
    sel = asctile.global_tensor(sel_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        real = [min(tile, n - t * tile)]
        a = asctile.copy_in(x, [t * tile], [tile], real_shape=real)
        asctile.copy_out(asctile.minimum(asctile.maximum(a, lo), hi), clamp, [t * tile], real_shape=real)
        asctile.copy_out(asctile.where(a > 0.0, a, a * 0.2), sel, [t * tile], real_shape=real)


def run():
    rng = np.random.default_rng(218)
    pairs = {}
    for shape in SHAPES:
        x = rng.uniform(-3, 3, shape).astype(np.float32)
        clamp, sel = np.zeros_like(x), np.zeros_like(x)
        clamp_where_kernel[None](x, clamp, sel, x.size, -1.5, 2.0, TILE)
        name = "x".join(map(str, shape))
        pairs[f"clamp_{name}"] = (clamp, np.clip(x, -1.5, 2.0))
        pairs[f"where_{name}"] = (sel, np.where(x > 0, x, x * np.float32(0.2)))
    return checked(pairs)

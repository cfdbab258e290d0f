"""Muls (``y = x * alpha``, alpha a runtime float) and Axpy (``y = alpha * x + y0``) launched with
``kernel[None]`` (every core of the platform), the per-core length computed on the device from
``block_num()``, the tail block trimmed with ``real_shape``."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
SIZES = (1, 33, 4097, 65535)
TILE = 1024


@asctile.jit
def muls_kernel(x_ptr, y0_ptr, muls_ptr, axpy_ptr, n, alpha, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y0 = asctile.global_tensor(y0_ptr, [n])
    muls = asctile.global_tensor(muls_ptr, [n])
    axpy = asctile.global_tensor(axpy_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        real = [min(tile, n - t * tile)]
        scaled = asctile.copy_in(x, [t * tile], [tile], real_shape=real) * alpha
        asctile.copy_out(scaled, muls, [t * tile], real_shape=real)
        asctile.copy_out(scaled + asctile.copy_in(y0, [t * tile], [tile], real_shape=real), axpy, [t * tile],
                         real_shape=real)


def run():
    rng = np.random.default_rng(224)
    pairs = {}
    for n in SIZES:
        x = rng.standard_normal(n).astype(np.float32)
        y0 = rng.standard_normal(n).astype(np.float32)
        muls, axpy = np.zeros_like(x), np.zeros_like(x)
        muls_kernel[None](x, y0, muls, axpy, n, 1.75, TILE)
        pairs[f"muls_{n}"] = (muls, x * np.float32(1.75))
        pairs[f"axpy_{n}"] = (axpy, x * np.float32(1.75) + y0)
    return checked(pairs)

"""Elementwise binary ops the upstream interpreter also runs: tile + tile, tile - scalar, scalar - tile, tile / tile."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-6}


@asctile.jit
def binary_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                  size: int, tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [1, size])
    y_gm = asctile.global_tensor(y_ptr, [1, size])
    out_gm = asctile.global_tensor(out_ptr, [4, size])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(size, tile), asctile.block_num()):
        x = asctile.copy_in(x_gm, [0, t * tile], [1, tile])
        y = asctile.copy_in(y_gm, [0, t * tile], [1, tile])
        asctile.copy_out(x + y, out_gm, [0, t * tile])
        asctile.copy_out(x - 1.5, out_gm, [1, t * tile])
        asctile.copy_out(2.0 - y, out_gm, [2, t * tile])
        asctile.copy_out(x / y, out_gm, [3, t * tile])


def run():
    rng = np.random.default_rng(2026)
    x = rng.random((1, 4096), dtype=np.float32) * 4 - 2
    y = rng.random((1, 4096), dtype=np.float32) + 0.5
    out = np.zeros((4, x.size), np.float32)
    binary_kernel[4](x, y, out, x.size, 512)
    return {"out": out}

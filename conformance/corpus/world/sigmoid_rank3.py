"""Sigmoid composed as ``1 / (1 + exp(0 - x))`` over rank-3 tensors ([1, 1, 77], [2, 3, 100], [4, 5, 33]):
[1, 1, tile] windows on the last axis, the tile rounded up to 32 bytes (the window's columns clipped),
blocks striding over the (batch, row) pairs on 8 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv

EXPECT = "accept"
TOLERANCE = {"atol": 1e-6, "rtol": 1e-5}
SHAPES = ((1, 1, 77), (2, 3, 100), (4, 5, 33))


@asctile.jit
def sigmoid_kernel(x_ptr, y_ptr, shape: asctile.ConstExpr, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, shape)
    y = asctile.global_tensor(y_ptr, shape)
    for p in asctile.range(asctile.block_idx(), shape[0] * shape[1], asctile.block_num()):
        i = p // shape[1]
        j = p % shape[1]
        a = asctile.copy_in(x, [i, j, 0], [1, 1, tile], pad_value=0.0)
        asctile.copy_out(1.0 / (1.0 + asctile.exp(0.0 - a)), y, [i, j, 0])


def run():
    rng = np.random.default_rng(205)
    pairs = {}
    for shape in SHAPES:
        x = rng.uniform(-10, 10, shape).astype(np.float32)
        y = np.zeros_like(x)
        sigmoid_kernel[8](x, y, shape, ceildiv(shape[-1], 8) * 8)
        pairs["x".join(map(str, shape))] = (y, 1.0 / (1.0 + np.exp(-x)))
    return checked(pairs, TOLERANCE)

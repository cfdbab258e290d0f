"""ReduceSum of a 2-D tensor along ``axis`` given the PyTorch way (negative counts from the end): the kernel
normalises it with a conditional expression over ConstExpr values (``ax = axis if axis >= 0 else
len(shape) + axis``) and indexes ``shape[ax]``; the whole reduced axis fits one tile, the kept axis is
tiled, ragged, on 16 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-5}
CASES = (((33, 64), -1), ((33, 64), 0), ((1000, 32), 1), ((16, 1000), -2))
KEPT_TILE = 16


@asctile.jit
def reduce_sum_kernel(x_ptr, y_ptr, shape: asctile.ConstExpr, axis: asctile.ConstExpr[int],
                      kept_tile: asctile.ConstExpr[int]):
    ax = axis if axis >= 0 else len(shape) + axis
    kept = shape[1 - ax]
    x = asctile.global_tensor(x_ptr, shape)
    y = asctile.global_tensor(y_ptr, [kept])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(kept, kept_tile), asctile.block_num()):
        if ax == 1:
            a = asctile.copy_in(x, [t * kept_tile, 0], [kept_tile, shape[1]], pad_value=0.0)
        else:
            a = asctile.copy_in(x, [0, t * kept_tile], [shape[0], kept_tile], pad_value=0.0)
        asctile.copy_out(asctile.reduce_sum(a, ax), y, [t * kept_tile])


def run():
    rng = np.random.default_rng(207)
    pairs = {}
    for shape, axis in CASES:
        x = rng.standard_normal(shape).astype(np.float32)
        y = np.zeros(shape[1 if axis in (0, -2) else 0], np.float32)
        reduce_sum_kernel[16](x, y, shape, axis, KEPT_TILE)
        pairs[f"{shape[0]}x{shape[1]}_axis{axis}"] = (y, x.sum(axis=axis))
    return checked(pairs, TOLERANCE)

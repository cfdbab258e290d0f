"""``y = x[start:start + length]`` (Narrow / Slice along rows) of an [8192, 60] tensor, the row window
``[start, 0]`` a runtime offset, [64, 64] tiles whose columns run past each row (clipped on load and
store) and whose last rows run past the slice (the output tensor is the slice: clipped)."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
SLICES = ((8192, 60, 100, 1000), (8192, 60, 8191, 1), (64, 60, 0, 64))


@asctile.jit
def narrow_kernel(x_ptr, y_ptr, rows, start, length, cols: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [length, cols])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(length, 64), asctile.block_num()):
        a = asctile.copy_in(x, [start + t * 64, 0], [64, 64])
        asctile.copy_out(a, y, [t * 64, 0], real_shape=[min(64, length - t * 64), 64])


def run():
    rng = np.random.default_rng(211)
    pairs = {}
    x = rng.standard_normal((8192, 60)).astype(np.float32)
    for rows, cols, start, length in SLICES:
        src = np.ascontiguousarray(x[:rows])
        y = np.zeros((length, cols), np.float32)
        narrow_kernel[16](src, y, rows, start, length, cols)
        pairs[f"{rows}_{start}_{length}"] = (y, src[start:start + length])
    return checked(pairs)

"""A rank-3 window transposed with ``transpose(*axes)`` before it is stored to a tensor of the permuted shape."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def permute(x_ptr, y_ptr, b: asctile.ConstExpr[int], r: asctile.ConstExpr[int], c: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [b, r, c])
    y = asctile.global_tensor(y_ptr, [c, r, b])
    t = asctile.copy_in(x, [0, 0, 0], [b, r, c])
    asctile.copy_out(t.transpose(2, 1, 0), y, [0, 0, 0])


def run():
    x = np.arange(8 * 4 * 16, dtype=np.float32).reshape(8, 4, 16)
    y = np.zeros((16, 4, 8), np.float32)
    permute[1](x, y, 8, 4, 16)
    return {"y": y}

"""A rank-3 copy window given two offsets: upstream's front end checks offsets against the tensor's rank."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"


@asctile.jit
def bad_window(x_ptr, y_ptr, b, r, c: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [b, r, c])
    y = asctile.global_tensor(y_ptr, [b, r, c])
    t = asctile.copy_in(x, [0, 0], [1, 1, c])
    asctile.copy_out(t, y, [0, 0, 0])


def run():
    x = np.zeros((2, 3, 16), np.float32)
    bad_window[1](x, np.zeros_like(x), 2, 3, 16)
    return {}

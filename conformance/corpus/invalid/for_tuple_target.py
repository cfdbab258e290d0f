"""A for-loop over pairs (``for i, t in enumerate(...)``): the loop target must be one identifier."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "For-loop target must be an identifier, got tuple"


@asctile.jit
def pairs(x_ptr, out_ptr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [2, 64])
    for i, t in enumerate((x.exp(), x.sin())):
        asctile.copy_out(t, out, [i, 0])


def run():
    x = np.ones((1, 64), np.float32)
    pairs[1](x, np.zeros((2, 64), np.float32))
    return {}

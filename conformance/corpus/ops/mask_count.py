"""``with asctile.mask(count=n, other=v)``: vector ops inside the block compute the first ``n`` elements of each
tile and fill the rest with ``other``."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def masked(x_ptr, y_ptr, n):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    with asctile.mask(count=n, other=0.0):
        asctile.copy_out(x + 1.0, asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.full_like(x, -1.0)
    masked[1](x, y, 40)
    return {"y": y}

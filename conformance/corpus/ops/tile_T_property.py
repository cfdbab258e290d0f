"""``t.T``: a 2-D tile with its dimensions swapped (upstream's LocalTensor.T, i.e. ``transpose(t)``)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def swap(x_ptr, y_ptr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 16]), [0, 0], [16, 16])
    asctile.copy_out(x.T + 1.0, asctile.global_tensor(y_ptr, [16, 16]), [0, 0])


def run():
    x = np.arange(256, dtype=np.float32).reshape(16, 16)
    y = np.zeros_like(x)
    swap[1](x, y)
    return {"y": y}

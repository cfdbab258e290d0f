"""Operands whose middle dimensions differ (neither is 1)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'Shapes are not broadcastable: (2, 8, 32) vs. (2, 4, 32)'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    a = asctile.zeros([2, 8, 32], asctile.float32)
    b = asctile.zeros([2, 4, 32], asctile.float32)
    asctile.copy_out((a + b).reshape(16, 32), asctile.global_tensor(x_ptr, [16, 32]), [0, 0])


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

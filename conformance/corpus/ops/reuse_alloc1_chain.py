"""``reuse_alloc=1`` reuses less than 2: ``c = a + b`` is read after ``b`` dies, so at level 1 it does not
overwrite ``a`` (pyasc-dev's ReuseUBAllocation) and the chain takes three buffers of 21160 float32, 253920
bytes: within C310's 253952, over C220's 196608, where level 2's two buffers would fit both."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
N = 21160


@asctile.jit(reuse_alloc=1)
def chain(x_ptr, y_ptr, z_ptr, n: asctile.ConstExpr):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    a = asctile.copy_in(x, [0], [n])
    b = asctile.copy_in(y, [0], [n])
    c = a + b
    d = c - b
    asctile.copy_out(d + c, z, [0])


def run():
    x = np.linspace(-1, 1, N, dtype=np.float32)
    y = np.full(N, 0.25, np.float32)
    z = np.zeros_like(x)
    chain[1](x, y, z, N)
    return {"z": z}

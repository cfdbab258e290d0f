"""Under ``reuse_alloc`` on C310 pyasc-dev keeps a reduction's scalar result in a 32-byte tile until the
scalar is read (UnscalarizeReduction fills it into a tile just before the product), and at level 1 the
product then takes that dead tile's buffer, growing it: x, the filled scalar and the product are three
buffers of 21160 float32, 253920 bytes of C310's 253952 (8 elements more are over), where computing the
product in x would take two. pyasc-dev counts 253920 (21168 elements: 254016); on Ascend910B1 its 4-byte
result is kept (169284 bytes)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
N = 21160


@asctile.jit(reuse_alloc=1)
def scale_by_sum(x_ptr: asctile.GlobalAddress, z_ptr: asctile.GlobalAddress, n: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    a = asctile.copy_in(x, [0], [n])
    asctile.copy_out(a * asctile.reduce_sum(a), z, [0])


def run():
    x = np.full(N, 0.5, np.float32)
    z = np.zeros_like(x)
    scale_by_sum[1](x, z, N)
    return {"z": z}

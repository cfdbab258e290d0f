"""Under ``reuse_alloc`` pyasc-dev never writes a cast over its operand, even of the same size: float16 ->
bfloat16 of 63488 elements is two buffers of 126976 bytes at level 2 (and 1), 253952, all of C310's UB
(16 elements more: 254016, over), where a cast in place would take one."""
import ml_dtypes
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
N = 63488


@asctile.jit(reuse_alloc=2)
def to_bfloat16(x_ptr: asctile.GlobalAddress, z_ptr: asctile.GlobalAddress, n: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    asctile.copy_out(asctile.copy_in(x, [0], [n]).to(asctile.bfloat16), z, [0])


def run():
    x = (np.arange(N) % 100).astype(np.float16)
    z = np.zeros(N, ml_dtypes.bfloat16)
    to_bfloat16[1](x, z, N)
    return {"z": z}

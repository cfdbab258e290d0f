"""bitwise_and / or / xor / not on int32 tiles, the operators & | ^ ~ and scalar operands on either side."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [1, 64]), [0, 0], [1, 64])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [6, 64])
    asctile.copy_out(asctile.bitwise_and(a, b), out, [0, 0])
    asctile.copy_out(a | b, out, [1, 0])
    asctile.copy_out(asctile.bitwise_xor(a, b), out, [2, 0])
    asctile.copy_out(~a, out, [3, 0])
    asctile.copy_out(asctile.bitwise_not(b) & 255, out, [4, 0])
    asctile.copy_out(7 ^ a, out, [5, 0])


def run():
    rng = np.random.default_rng(16)
    a = rng.integers(-2**31, 2**31 - 1, (1, 64), dtype=np.int32)
    b = rng.integers(-2**31, 2**31 - 1, (1, 64), dtype=np.int32)
    out = np.zeros((6, 64), np.int32)
    kernel[1](a, b, out)
    return {"out": out}

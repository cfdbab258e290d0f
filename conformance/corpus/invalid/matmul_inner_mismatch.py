"""matmul_acc of a [16, 32] and a [16, 16] operand: the inner dimensions differ."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "shape"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a_gm = asctile.global_tensor(a_ptr, [16, 32])
    b_gm = asctile.global_tensor(b_ptr, [16, 16])
    c_gm = asctile.global_tensor(c_ptr, [16, 16])
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    a = asctile.copy_in(a_gm, [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(b_gm, [0, 0], [16, 16], asctile.TensorLocation.L0B)
    asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, c_gm, [0, 0])


def run():
    a, b = np.ones((16, 32), np.float16), np.ones((16, 16), np.float16)
    c = np.zeros((16, 16), np.float32)
    kernel[1](a, b, c)
    return {"c": c}

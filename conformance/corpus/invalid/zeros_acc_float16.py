"""A float16 accumulator (L0C accumulates in float32)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'dtype' dtype must be float32, got float16"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a_gm = asctile.global_tensor(a_ptr, [16, 16])
    c_gm = asctile.global_tensor(c_ptr, [16, 16])
    acc = asctile.zeros_acc([16, 16], asctile.float16)
    a = asctile.copy_in(a_gm, [0, 0], [16, 16], asctile.TensorLocation.L0A)
    b = asctile.copy_in(a_gm, [0, 0], [16, 16], asctile.TensorLocation.L0B)
    asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, c_gm, [0, 0])


def run():
    a = np.ones((16, 16), np.float16)
    c = np.zeros((16, 16), np.float16)
    kernel[1](a, c)
    return {"c": c}

"""matmul_acc with a number where the accumulator (from zeros_acc) belongs."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'acc' argument must be LocalTensor, got float"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0B)
    asctile.matmul_acc(0.0, a, b)


def run():
    a = np.ones((16, 16), np.float16)
    out = np.zeros((16, 16), np.float32)
    kernel[1](a, a.copy(), out)
    return {"out": out}

"""matmul(a, b, bias) with a 16-value bias for a result of 32 columns."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Bias shape 16 must match last output dimension 32"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
    bias = asctile.copy_in(asctile.global_tensor(bias_ptr, [16]), [0], [16], asctile.TensorLocation.BT)
    c = asctile.matmul(a, b, bias)


def run():
    kernel[1](np.ones((16, 32), np.float16), np.ones((32, 32), np.float16), np.ones(16, np.float32))
    return {}

"""matmul(..., hf32=True) of float16 operands: HF32 rounding applies to float32 operands only."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "HF32 mode can only be set when input tensor dtype is float32"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 16]), [0, 0], [16, 16], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b, hf32=True)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def run():
    c = np.zeros((16, 16), np.float32)
    kernel[1](np.ones((16, 16), np.float16), c)
    return {"c": c}

"""A matmul bias row loaded into L0A: there is no path from L0A to the bias table."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Direct data transfer from L0A to BT is not supported"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, bias_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
    bias = asctile.copy_in(asctile.global_tensor(bias_ptr, [32]), [0], [32], asctile.TensorLocation.L0A)
    asctile.copy_out(asctile.matmul(a, b, bias), asctile.global_tensor(c_ptr, [32, 32]), [0, 0])


def run():
    a, bias = np.ones((32, 32), np.float16), np.ones(32, np.float32)
    c = np.zeros((32, 32), np.float32)
    kernel[1](a, bias, c)
    return {"c": c}

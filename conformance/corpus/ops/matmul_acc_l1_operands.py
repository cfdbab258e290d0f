"""matmul_acc of operands left in L1 and of a vector result in UB: pyasc copies them into L0A / L0B."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L1)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L1)
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    a_ub = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.UB)
    asctile.matmul_acc(acc, a_ub + a_ub, b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def run():
    rng = np.random.default_rng(2029)
    a = (rng.random((16, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 16), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    kernel[1](a, b, c)
    return {"c": c}

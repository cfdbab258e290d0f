"""copy from UB to L1 (a vector-side tile becomes a cube operand), then L1 -> L0A and matmul_acc."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def ub_to_l1_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a_ub = asctile.copy_in(asctile.global_tensor(a_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.UB)
    a_l1 = asctile.copy(a_ub, [0, 0], [32, 32], asctile.TensorLocation.L1)
    a = asctile.copy(a_l1, [0, 0], [32, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([32, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [32, 16]), [0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((32, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 16), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((32, 16), np.float32)
    ub_to_l1_kernel[1](a, b, c)
    return {"c": c}

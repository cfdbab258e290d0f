"""copy of a float32 matmul_acc result from L0C to UB (as pyasc's copy docstring shows), then vector math."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def l0c_to_ub_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    c = asctile.copy(acc, [0, 0], [16, 16], asctile.TensorLocation.UB)
    asctile.copy_out(c + c, asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((16, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 16), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    l0c_to_ub_kernel[1](a, b, c)
    return {"c": c}

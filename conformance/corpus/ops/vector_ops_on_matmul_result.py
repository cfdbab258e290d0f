"""Vector ops reading an L0C accumulator (+ a UB tile, exp, reduce_sum): pyasc-dev copies it L0C -> UB at each
reading op; no explicit copy in the kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, x_ptr: asctile.GlobalAddress,
           sum_ptr: asctile.GlobalAddress, exp_ptr: asctile.GlobalAddress, row_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.UB)
    acc = asctile.zeros_acc([16, 32], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc + x, asctile.global_tensor(sum_ptr, [16, 32]), [0, 0])
    asctile.copy_out(asctile.exp(acc), asctile.global_tensor(exp_ptr, [16, 32]), [0, 0])
    asctile.copy_out(asctile.reduce_sum(acc, 1), asctile.global_tensor(row_ptr, [16]), [0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((16, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 32), dtype=np.float32) - 0.5).astype(np.float16)
    x = rng.random((16, 32), dtype=np.float32)
    s, e, r = np.zeros((16, 32), np.float32), np.zeros((16, 32), np.float32), np.zeros(16, np.float32)
    kernel[1](a, b, x, s, e, r)
    return {"sum": s, "exp": e, "rows": r}

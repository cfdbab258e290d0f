"""The April argument order matmul_acc(a, b, acc) in an asctile kernel: the accumulator (from zeros_acc) is
recognisable, so this engine accepts both orders (a project decision; upstream's asctile takes acc first)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def matmul_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a_gm = asctile.global_tensor(a_ptr, [16, 32])
    b_gm = asctile.global_tensor(b_ptr, [32, 16])
    c_gm = asctile.global_tensor(c_ptr, [16, 16])
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    a = asctile.copy_in(a_gm, [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(b_gm, [0, 0], [32, 16], asctile.TensorLocation.L0B)
    asctile.matmul_acc(a, b, acc)
    asctile.copy_out(acc, c_gm, [0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((16, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 16), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    matmul_kernel[1](a, b, c)
    return {"c": c}

"""a @ b and asctile.matmul on L0A / L0B tiles, the result copied out of L0C."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def matmul_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                  d_ptr: asctile.GlobalAddress, shape: asctile.ConstExpr):
    m, k, n = shape
    a_gm = asctile.global_tensor(a_ptr, [m, k])
    b_gm = asctile.global_tensor(b_ptr, [k, n])
    c_gm = asctile.global_tensor(c_ptr, [m, n])
    d_gm = asctile.global_tensor(d_ptr, [m, n])
    a = asctile.copy_in(a_gm, [0, 0], [m, k], asctile.TensorLocation.L0A)
    b = asctile.copy_in(b_gm, [0, 0], [k, n], asctile.TensorLocation.L0B)
    asctile.copy_out(a @ b, c_gm, [0, 0])
    asctile.copy_out(asctile.matmul(a, b), d_gm, [0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((16, 32), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((32, 16), dtype=np.float32) - 0.5).astype(np.float16)
    c, d = np.zeros((16, 16), np.float32), np.zeros((16, 16), np.float32)
    matmul_kernel[1](a, b, c, d, (16, 32, 16))
    return {"operator": c, "function": d}

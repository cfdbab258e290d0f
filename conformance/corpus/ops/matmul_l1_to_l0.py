"""Operands staged in L1 once, then asctile.copy of K-windows into L0A / L0B for the cube (matmul_acc, acc first)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def matmul_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                  m: asctile.ConstExpr[int], k: asctile.ConstExpr[int], n: asctile.ConstExpr[int],
                  tile_k: asctile.ConstExpr[int]):
    a_gm = asctile.global_tensor(a_ptr, [m, k])
    b_gm = asctile.global_tensor(b_ptr, [k, n])
    c_gm = asctile.global_tensor(c_ptr, [m, n])
    a_l1 = asctile.copy_in(a_gm, [0, 0], [m, k], asctile.TensorLocation.L1)
    b_l1 = asctile.copy_in(b_gm, [0, 0], [k, n], asctile.TensorLocation.L1)
    acc = asctile.zeros_acc([m, n], asctile.float32)
    for kt in asctile.range(k // tile_k):
        a = asctile.copy(a_l1, [0, kt * tile_k], [m, tile_k], asctile.TensorLocation.L0A)
        b = asctile.copy(b_l1, [kt * tile_k, 0], [tile_k, n], asctile.TensorLocation.L0B)
        asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, c_gm, [0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((16, 64), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((64, 32), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((16, 32), np.float32)
    matmul_kernel[1](a, b, c, 16, 64, 32, 32)
    return {"c": c}

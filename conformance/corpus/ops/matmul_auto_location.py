"""copy_in at the default TensorLocation.Auto feeding the cube (matmul_acc, acc first) and, for one tile,
a vector op too: the operands' locations come from their uses."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def matmul_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                  d_ptr: asctile.GlobalAddress, e_ptr: asctile.GlobalAddress, m: asctile.ConstExpr[int], k: asctile.ConstExpr[int],
                  n: asctile.ConstExpr[int], tile_k: asctile.ConstExpr[int]):
    a_gm = asctile.global_tensor(a_ptr, [m, k])
    b_gm = asctile.global_tensor(b_ptr, [k, n])
    acc = asctile.zeros_acc([m, n], asctile.float32)
    for kt in asctile.range(k // tile_k):
        a = asctile.copy_in(a_gm, [0, kt * tile_k], [m, tile_k])
        b = asctile.copy_in(b_gm, [kt * tile_k, 0], [tile_k, n])
        asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [m, n]), [0, 0])
    x = asctile.copy_in(b_gm, [0, 0], [tile_k, n])
    acc2 = asctile.zeros_acc([m, n], asctile.float32)
    asctile.matmul_acc(acc2, asctile.copy_in(a_gm, [0, 0], [m, tile_k]), x)
    asctile.copy_out(acc2, asctile.global_tensor(d_ptr, [m, n]), [0, 0])
    asctile.copy_out(asctile.exp(x), asctile.global_tensor(e_ptr, [tile_k, n]), [0, 0])


def run():
    rng = np.random.default_rng(2027)
    a = (rng.random((16, 64), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((64, 32), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((16, 32), np.float32)
    d = np.zeros((16, 32), np.float32)
    e = np.zeros((32, 32), np.float16)
    matmul_kernel[1](a, b, c, d, e, 16, 64, 32, 32)
    return {"c": c, "d": d, "e": e}

"""Linear layer ``y = x @ w.T`` with the weight stored [N, K], as ops-nn MatMul tests with ``transpose_b`` port
it: the weight panel is loaded [bn, K] into L1 and each [bn, bk] window is copied to L0B and transposed
there (``copy(w_l1, [0, kk], [bn, bk], TensorLocation.L0B).T``) for ``matmul_acc``."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-3}
TILING = {(64, 64, 64): (32, 32, 32), (33, 48, 128): (32, 16, 64)}  # (M, N, K): (base_m, base_n, base_k)


@asctile.jit
def linear_kernel(x_ptr, w_ptr, y_ptr, m: asctile.ConstExpr[int], n: asctile.ConstExpr[int],
                  k: asctile.ConstExpr[int], bm: asctile.ConstExpr[int], bn: asctile.ConstExpr[int],
                  bk: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [m, k])
    w = asctile.global_tensor(w_ptr, [n, k])
    y = asctile.global_tensor(y_ptr, [m, n])
    n_tiles = asctile.ceildiv(n, bn)
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(m, bm) * n_tiles, asctile.block_num()):
        m0 = (t // n_tiles) * bm
        n0 = (t % n_tiles) * bn
        x_l1 = asctile.copy_in(x, [m0, 0], [bm, k], asctile.TensorLocation.L1)
        w_l1 = asctile.copy_in(w, [n0, 0], [bn, k], asctile.TensorLocation.L1)
        acc = asctile.zeros_acc([bm, bn], asctile.float32)
        for kk in asctile.range(0, k, bk):
            x_l0 = asctile.copy(x_l1, [0, kk], [bm, bk], asctile.TensorLocation.L0A)
            w_l0 = asctile.copy(w_l1, [0, kk], [bn, bk], asctile.TensorLocation.L0B).T
            asctile.matmul_acc(acc, x_l0, w_l0)
        asctile.copy_out(acc, y, [m0, n0])


def run():
    rng = np.random.default_rng(225)
    pairs = {}
    for (m, n, k), (bm, bn, bk) in TILING.items():
        x = rng.uniform(-1, 1, (m, k)).astype(np.float16)
        w = rng.uniform(-1, 1, (n, k)).astype(np.float16)
        y = np.zeros((m, n), np.float32)
        linear_kernel[8](x, w, y, m, n, k, bm, bn, bk)
        pairs[f"{m}x{n}x{k}"] = (y, x.astype(np.float32) @ w.astype(np.float32).T)
    return checked(pairs, TOLERANCE)

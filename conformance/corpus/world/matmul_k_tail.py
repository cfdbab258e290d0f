"""Matmul whose K is not a multiple of the L1 K step (K = 100 and 200 with base_k 64): each K step loads
[bm, base_k] / [base_k, bn] panels into L1 (a load into L1 fills what lies past the tensor with 0, so the
last step's columns / rows past K add nothing; pyasc-dev's compiler refuses an explicit ``pad_value`` there), then into L0A / L0B, accumulating into L0C; 16 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-3}
TILING = {(64, 32, 100): (32, 32, 64), (48, 64, 200): (16, 32, 64)}  # (M, N, K): (base_m, base_n, base_k)


@asctile.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, m: asctile.ConstExpr[int], n: asctile.ConstExpr[int],
                  k: asctile.ConstExpr[int], bm: asctile.ConstExpr[int], bn: asctile.ConstExpr[int],
                  bk: asctile.ConstExpr[int]):
    a = asctile.global_tensor(a_ptr, [m, k])
    b = asctile.global_tensor(b_ptr, [k, n])
    c = asctile.global_tensor(c_ptr, [m, n])
    n_tiles = asctile.ceildiv(n, bn)
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(m, bm) * n_tiles, asctile.block_num()):
        m0 = (t // n_tiles) * bm
        n0 = (t % n_tiles) * bn
        acc = asctile.zeros_acc([bm, bn], asctile.float32)
        for kk in asctile.range(0, k, bk):
            a_l1 = asctile.copy_in(a, [m0, kk], [bm, bk], asctile.TensorLocation.L1)
            b_l1 = asctile.copy_in(b, [kk, n0], [bk, bn], asctile.TensorLocation.L1)
            asctile.matmul_acc(acc, asctile.copy(a_l1, [0, 0], [bm, bk], asctile.TensorLocation.L0A),
                               asctile.copy(b_l1, [0, 0], [bk, bn], asctile.TensorLocation.L0B))
        asctile.copy_out(acc, c, [m0, n0])


def run():
    rng = np.random.default_rng(226)
    pairs = {}
    for (m, n, k), (bm, bn, bk) in TILING.items():
        a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
        c = np.zeros((m, n), np.float32)
        matmul_kernel[16](a, b, c, m, n, k, bm, bn, bk)
        pairs[f"{m}x{n}x{k}"] = (c, a.astype(np.float32) @ b.astype(np.float32))
    return checked(pairs, TOLERANCE)

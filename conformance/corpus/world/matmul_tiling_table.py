"""Matmul ``C[M, N] = A[M, K] @ B[K, N]`` (float16 in, float32 out) driven by a host tiling table keyed by the
shape, as matmul operator tests carry one: (base_m, base_n, base_k) per shape. Each block takes (m, n)
tiles in turn, loads A and B panels into L1, takes [base_m, base_k] / [base_k, base_n] windows into
L0A / L0B and accumulates into L0C; ragged M / N tiles are clipped on load (pad 0) and store."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-3}
TILING = {  # (M, N, K): (base_m, base_n, base_k)
    (128, 128, 64): (64, 64, 32),
    (100, 96, 64): (64, 32, 64),
    (33, 64, 128): (32, 64, 64),
    (256, 48, 256): (128, 16, 128),
}
CORES = 20


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
        a_l1 = asctile.copy_in(a, [m0, 0], [bm, k], asctile.TensorLocation.L1)
        b_l1 = asctile.copy_in(b, [0, n0], [k, bn], asctile.TensorLocation.L1)
        acc = asctile.zeros_acc([bm, bn], asctile.float32)
        for kk in asctile.range(0, k, bk):
            a_l0 = asctile.copy(a_l1, [0, kk], [bm, bk], asctile.TensorLocation.L0A)
            b_l0 = asctile.copy(b_l1, [kk, 0], [bk, bn], asctile.TensorLocation.L0B)
            asctile.matmul_acc(acc, a_l0, b_l0)
        asctile.copy_out(acc, c, [m0, n0])


def run():
    rng = np.random.default_rng(214)
    pairs = {}
    for (m, n, k), (bm, bn, bk) in TILING.items():
        a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
        c = np.zeros((m, n), np.float32)
        matmul_kernel[CORES](a, b, c, m, n, k, bm, bn, bk)
        pairs[f"{m}x{n}x{k}"] = (c, a.astype(np.float32) @ b.astype(np.float32))
    return checked(pairs, TOLERANCE)

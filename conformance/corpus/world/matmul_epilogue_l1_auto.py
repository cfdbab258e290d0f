"""Matmul kernels written with the least ceremony the August API allows: operands left in L1 (passed to
``matmul_acc`` as they are) or loaded with the default location (resolved from their use), a fresh
accumulator per output tile inside the block loop, and a vector epilogue read straight from the accumulator
(``(acc / 2 + 1).to(float16)``, a Gemm-style scale and shift), ragged N tiles
clipped on store; 8 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 2e-3, "rtol": 2e-3}
SHAPES = ((32, 48, 64), (16, 100, 32))  # (M, N, K)
BN = 16


@asctile.jit
def gemm_kernel(a_ptr, b_ptr, c_ptr, d_ptr, m: asctile.ConstExpr[int], n: asctile.ConstExpr[int],
                k: asctile.ConstExpr[int], bn: asctile.ConstExpr[int]):
    a = asctile.global_tensor(a_ptr, [m, k])
    b = asctile.global_tensor(b_ptr, [k, n])
    c = asctile.global_tensor(c_ptr, [m, n])
    d = asctile.global_tensor(d_ptr, [m, n])
    a_l1 = asctile.copy_in(a, [0, 0], [m, k], asctile.TensorLocation.L1)
    for j in asctile.range(asctile.block_idx(), asctile.ceildiv(n, bn), asctile.block_num()):
        b_tile = asctile.copy_in(b, [0, j * bn], [k, bn])
        acc = asctile.zeros_acc([m, bn], asctile.float32)
        asctile.matmul_acc(acc, a_l1, b_tile)
        asctile.copy_out(acc, c, [0, j * bn])
        asctile.copy_out((acc / 2.0 + 1.0).to(asctile.float16), d, [0, j * bn])


def run():
    rng = np.random.default_rng(235)
    pairs = {}
    for m, n, k in SHAPES:
        a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
        c = np.zeros((m, n), np.float32)
        d = np.zeros((m, n), np.float16)
        gemm_kernel[8](a, b, c, d, m, n, k, BN)
        ref = a.astype(np.float32) @ b.astype(np.float32)
        pairs[f"c_{m}x{n}x{k}"] = (c, ref)
        pairs[f"d_{m}x{n}x{k}"] = (d, (ref / 2 + 1).astype(np.float16))
    return checked(pairs, TOLERANCE)

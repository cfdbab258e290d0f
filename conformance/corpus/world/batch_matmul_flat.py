"""BatchMatMul ``C[b] = A[b] @ B[b]`` written over flattened 2-D views ([B * M, K], [B * K, N], [B * M, N]),
as ports of batch-matmul tests do: a block takes (batch, m-tile) pairs, the row offset is ``b * M + m0``;
M = 33 is ragged, so the last m-tile of one batch reads the next batch's first rows into its padding rows
(their results are dropped by ``real_shape`` on the store)."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv

EXPECT = "accept"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-3}
SHAPES = ((3, 33, 64, 32), (2, 16, 32, 64), (5, 1, 32, 16))  # (batch, M, K, N)
BM = 16


@asctile.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, batch, m: asctile.ConstExpr[int], k: asctile.ConstExpr[int],
               n: asctile.ConstExpr[int], bm: asctile.ConstExpr[int]):
    a = asctile.global_tensor(a_ptr, [batch * m, k])
    b = asctile.global_tensor(b_ptr, [batch * k, n])
    c = asctile.global_tensor(c_ptr, [batch * m, n])
    m_tiles = asctile.ceildiv(m, bm)
    for t in asctile.range(asctile.block_idx(), batch * m_tiles, asctile.block_num()):
        bi = t // m_tiles
        m0 = (t % m_tiles) * bm
        a_l0 = asctile.copy_in(a, [bi * m + m0, 0], [bm, k], asctile.TensorLocation.L0A)
        b_l0 = asctile.copy_in(b, [bi * k, 0], [k, n], asctile.TensorLocation.L0B)
        acc = asctile.zeros_acc([bm, n], asctile.float32)
        asctile.matmul_acc(acc, a_l0, b_l0)
        asctile.copy_out(acc, c, [bi * m + m0, 0], real_shape=[min(bm, m - m0), n])


def run():
    rng = np.random.default_rng(215)
    pairs = {}
    for batch, m, k, n in SHAPES:
        a = rng.uniform(-1, 1, (batch, m, k)).astype(np.float16)
        b = rng.uniform(-1, 1, (batch, k, n)).astype(np.float16)
        c = np.zeros((batch, m, n), np.float32)
        bmm_kernel[ceildiv(batch * ceildiv(m, BM), 2)](a, b, c, batch, m, k, n, BM)
        pairs[f"{batch}x{m}x{k}x{n}"] = (c, a.astype(np.float32) @ b.astype(np.float32))
    return checked(pairs, TOLERANCE)

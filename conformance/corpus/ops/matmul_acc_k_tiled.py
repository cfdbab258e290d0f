"""K-tiled matmul: zeros_acc, operand tiles copied into L0A / L0B, matmul_acc(acc, a, b) accumulator first,
the accumulator carried through an un-barriered loop, then copied out of L0C."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def matmul_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                  m: asctile.ConstExpr[int], k: int, n: asctile.ConstExpr[int], tile_m: asctile.ConstExpr[int],
                  tile_k: asctile.ConstExpr[int]):
    a_gm = asctile.global_tensor(a_ptr, [m, k])
    b_gm = asctile.global_tensor(b_ptr, [k, n])
    c_gm = asctile.global_tensor(c_ptr, [m, n])
    row0 = asctile.block_idx() * tile_m
    acc = asctile.zeros_acc([tile_m, n], asctile.float32)
    for kt in asctile.range(asctile.ceildiv(k, tile_k)):
        a = asctile.copy_in(a_gm, [row0, kt * tile_k], [tile_m, tile_k], asctile.TensorLocation.L0A)
        b = asctile.copy_in(b_gm, [kt * tile_k, 0], [tile_k, n], asctile.TensorLocation.L0B)
        asctile.matmul_acc(acc, a, b)
    asctile.copy_out(acc, c_gm, [row0, 0])


def run():
    rng = np.random.default_rng(2026)
    a = (rng.random((32, 64), dtype=np.float32) - 0.5).astype(np.float16)
    b = (rng.random((64, 32), dtype=np.float32) - 0.5).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    matmul_kernel[2](a, b, c, 32, 64, 32, 16, 16)
    return {"c": c}

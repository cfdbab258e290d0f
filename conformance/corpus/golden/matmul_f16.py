"""August-dialect port of golden/kernels/matmul_f16.py: C = A @ B with whole-K operand tiles in L0A / L0B."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "matmul"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [{"id": "16x16x16", "shape": [16, 16, 16], "core_num": 1},
         {"id": "32x16x32", "shape": [32, 16, 32], "core_num": 2}]


@asctile.jit(always_compile=True)
def matmul_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                  a_shape: asctile.ConstExpr, b_shape: asctile.ConstExpr, c_shape: asctile.ConstExpr,
                  m_tile: asctile.ConstExpr[int], m_tiles_per_block: asctile.ConstExpr[int],
                  n_tile: asctile.ConstExpr[int], n_tiles_per_block: asctile.ConstExpr[int]):
    a_gm = asctile.global_tensor(a_ptr, a_shape)
    b_gm = asctile.global_tensor(b_ptr, b_shape)
    c_gm = asctile.global_tensor(c_ptr, c_shape)
    block_id = asctile.block_idx()
    m_elems_per_block = m_tile * m_tiles_per_block
    m_base_off = (m_elems_per_block * block_id) % a_shape[0]
    n_base_off = ((m_elems_per_block * block_id) // a_shape[0]) * (n_tile * n_tiles_per_block)
    for j in asctile.static_range(n_tiles_per_block):
        b_offset = n_base_off + j * n_tile
        b_j = asctile.copy_in(b_gm, [0, b_offset], [b_shape[0], n_tile], asctile.TensorLocation.L0B)
        for i in asctile.static_range(m_tiles_per_block):
            a_offset = m_base_off   # the first tile at the base itself: no add (see the docstring)
            if i > 0:
                a_offset = m_base_off + i * m_tile
            a_i = asctile.copy_in(a_gm, [a_offset, 0], [m_tile, a_shape[1]], asctile.TensorLocation.L0A)
            asctile.copy_out(a_i @ b_j, c_gm, [a_offset, b_offset])


def make_inputs(case):
    m, k, n = case["shape"]
    rng = np.random.default_rng(2026)
    a = rng.random((m, k), dtype=np.float32).astype(np.float16)
    b = rng.random((k, n), dtype=np.float32).astype(np.float16)
    return (a, b, case["core_num"])


def launch(a, b, core_num):
    m, k = a.shape
    n = b.shape[1]
    c = np.zeros((m, n), dtype=np.float32)
    # the rows are split evenly over the blocks; each block owns whole-N columns
    matmul_kernel[core_num](a, b, c, a.shape, b.shape, c.shape, m // core_num, 1, n, 1)
    return c


def reference(a, b, core_num):
    return a.astype(np.float32) @ b.astype(np.float32)

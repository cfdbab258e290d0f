"""August-dialect port of golden/kernels/bmm_f16.py: batched matrix multiply on the cube (one item a block with the whole K, or K-tiled), float16 in, float32 out."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "bmm"
DTYPE = "float16"
TOLERANCE = {"atol": 1e-2, "rtol": 1e-2}
CASES = [
    {"id": "1x16x32x16", "shape": [1, 16, 32, 16]},
    {"id": "2x32x64x32", "shape": [2, 32, 64, 32]},
    {"id": "3x48x96x48", "shape": [3, 48, 96, 48]},
    {"id": "8x128x512x128", "shape": [8, 128, 512, 128], "full_only": True},
]
SEED = 2026
CUBE_BLOCK = 16
MAX_CORES = 16
ITEM_OPERAND_BYTES = 32 * 1024


@asctile.jit(always_compile=True)
def bmm_k_tiled_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                       batch: int, m: asctile.ConstExpr[int], k: asctile.ConstExpr[int], n: asctile.ConstExpr[int],
                       m_tile: asctile.ConstExpr[int], n_tile: asctile.ConstExpr[int], k_tile: asctile.ConstExpr[int]):
    a_gm = asctile.global_tensor(a_ptr, [batch * m, k])
    b_gm = asctile.global_tensor(b_ptr, [batch * k, n])
    c_gm = asctile.global_tensor(c_ptr, [batch * m, n])
    m_tiles = m // m_tile
    n_tiles = n // n_tile
    items = batch * m_tiles * n_tiles
    for w in asctile.range(asctile.block_idx(), items, asctile.block_num()):
        bi = w // (m_tiles * n_tiles)
        rest = w % (m_tiles * n_tiles)
        row = bi * m + (rest // n_tiles) * m_tile
        col = (rest % n_tiles) * n_tile
        a_l1 = asctile.copy_in(a_gm, [row, 0], [m_tile, k], location=asctile.TensorLocation.L1)
        acc = asctile.zeros_acc([m_tile, n_tile], asctile.float32)
        for kk in asctile.range(k // k_tile):
            a = asctile.copy(a_l1, [0, kk * k_tile], [m_tile, k_tile], asctile.TensorLocation.L0A)
            b = asctile.copy_in(b_gm, [bi * k + kk * k_tile, col], [k_tile, n_tile],
                                location=asctile.TensorLocation.L0B)
            asctile.matmul_acc(acc, a, b)
        asctile.copy_out(acc, c_gm, [row, col])


@asctile.jit(always_compile=True)
def bmm_item_kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress,
                    batch: int, m: asctile.ConstExpr[int], k: asctile.ConstExpr[int], n: asctile.ConstExpr[int],
                    m_tile: asctile.ConstExpr[int], n_tile: asctile.ConstExpr[int]):
    # one work item a block, the whole K at once: no loop, and the index arithmetic and the tensor views
    # are one run of scalar instructions (one first-run fetch)
    a_gm = asctile.global_tensor(a_ptr, [batch * m, k])
    b_gm = asctile.global_tensor(b_ptr, [batch * k, n])
    c_gm = asctile.global_tensor(c_ptr, [batch * m, n])
    w = asctile.block_idx()
    bi = w // ((m // m_tile) * (n // n_tile))
    rest = w % ((m // m_tile) * (n // n_tile))
    row = bi * m + (rest // (n // n_tile)) * m_tile
    col = (rest % (n // n_tile)) * n_tile
    b_row = bi * k
    a = asctile.copy_in(a_gm, [row, 0], [m_tile, k], location=asctile.TensorLocation.L0A)
    b = asctile.copy_in(b_gm, [b_row, col], [k, n_tile], location=asctile.TensorLocation.L0B)
    asctile.copy_out(a @ b, c_gm, [row, col])


def make_inputs(case):
    bsz, m, k, n = case["shape"]
    gen = np.random.default_rng(SEED)
    a = gen.random((bsz, m, k), dtype=np.float32).astype(np.float16)
    b = gen.random((bsz, k, n), dtype=np.float32).astype(np.float16)
    return (a, b)


def _largest(extent, choices):
    return next(t for t in choices if extent % t == 0)


def item_tiles(m, k, n):
    """(m_tile, n_tile) of the one-item-a-block kernel, or None when the launch needs more blocks than
    MAX_CORES or an operand [tile, K] exceeds ITEM_OPERAND_BYTES."""
    m_tile, n_tile = _largest(m, (64, 48, 32, 16)), _largest(n, (64, 48, 32, 16))
    fits = max(m_tile, n_tile) * k * 2 <= ITEM_OPERAND_BYTES
    return (m_tile, n_tile) if fits and (m // m_tile) * (n // n_tile) <= MAX_CORES else None


def tiling(m, k, n):
    """(m_tile, n_tile, k_tile) of the K-tiled kernel for one batch of [m, k] @ [k, n]."""
    if k > 512:
        raise ValueError(f"K = {k} exceeds the L1 slab budget (K <= 512)")
    return _largest(m, (64, 32, 16)), _largest(n, (128, 64, 32, 16)), _largest(k, (128, 64, 32, 16))


def select_kernel(bsz, m, k, n):
    """The dispatcher: "item" when one work item a block covers the batch, else "k_tiled"."""
    tiles = item_tiles(m, k, n)
    return "item" if tiles and bsz * (m // tiles[0]) * (n // tiles[1]) <= MAX_CORES else "k_tiled"


def launch(a, b):
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"expected a [B, M, K] and b [B, K, N], got {tuple(a.shape)} and {tuple(b.shape)}")
    bsz, m, k = a.shape
    n = b.shape[2]
    if m % CUBE_BLOCK or n % CUBE_BLOCK or k % CUBE_BLOCK:
        raise ValueError(f"M, K and N must be multiples of {CUBE_BLOCK}, got {m}, {k}, {n}")
    c = np.zeros((bsz, m, n), dtype=np.float32)
    if select_kernel(bsz, m, k, n) == "item":
        m_tile, n_tile = item_tiles(m, k, n)
        items = bsz * (m // m_tile) * (n // n_tile)
        bmm_item_kernel[items](a, b, c, bsz, m, k, n, m_tile, n_tile)
        return c
    m_tile, n_tile, k_tile = tiling(m, k, n)
    items = bsz * (m // m_tile) * (n // n_tile)
    bmm_k_tiled_kernel[min(MAX_CORES, items)](a, b, c, bsz, m, k, n, m_tile, n_tile, k_tile)
    return c


def reference(a, b):
    return np.matmul(a.astype(np.float32), b.astype(np.float32))

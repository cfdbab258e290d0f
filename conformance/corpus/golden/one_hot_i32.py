"""August-dialect port of golden/kernels/one_hot_i32.py: one-hot encoding, out[i, c] = (indices[i] == c), int32 indices and output."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "one_hot"
DTYPE = "int32"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x16", "shape": [1, 16]},
    {"id": "60000x8", "shape": [60000, 8]},
    {"id": "100003x16", "shape": [100003, 16]},
    {"id": "7000x128", "shape": [7000, 128], "full_only": True},
]
SEED = 2026
MAX_TILE_ELEMS = 4096   # int32 elements per [tile_rows, depth] tile (16 KiB)
MAX_DEPTH = 256
CORE_NUM = 32


@asctile.jit(always_compile=True, reuse_alloc=2)
def one_hot_kernel(idx_ptr: asctile.GlobalAddress, classes_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                   n: int, num_tiles: int, depth: asctile.ConstExpr[int], tile_rows: asctile.ConstExpr[int]):
    idx_gm = asctile.global_tensor(idx_ptr, [n])
    out_gm = asctile.global_tensor(out_ptr, [n * depth])
    classes = asctile.copy_in(asctile.global_tensor(classes_ptr, [1, depth]), [0, 0], [1, depth])
    classes = classes.broadcast_to(tile_rows, depth)
    ones = asctile.full([tile_rows, depth], 1, dtype=asctile.int32)
    zeros = asctile.full([tile_rows, depth], 0, dtype=asctile.int32)
    for t in asctile.range(asctile.block_idx(), num_tiles, asctile.block_num()):
        row0 = t * tile_rows
        idx = asctile.copy_in(idx_gm, [row0], [tile_rows]).reshape(tile_rows, 1).broadcast_to(tile_rows, depth)
        hot = asctile.where(asctile.equal(idx, classes), ones, zeros)
        asctile.copy_out(hot.reshape(tile_rows * depth), out_gm, [row0 * depth])


@asctile.jit(always_compile=True)
def one_hot_row_kernel(idx_ptr: asctile.GlobalAddress, eye_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                       n: int, depth: asctile.ConstExpr[int]):
    out_gm = asctile.global_tensor(out_ptr, [n, depth])
    eye_gm = asctile.global_tensor(eye_ptr, [depth, depth])
    r = asctile.block_idx()
    k = asctile.copy_in(asctile.global_tensor(idx_ptr, [n]), [r])
    asctile.copy_out(asctile.copy_in(eye_gm, [k, 0], [1, depth]), out_gm, [r, 0])


def make_inputs(case):
    n, depth = case["shape"]
    gen = np.random.default_rng(SEED)
    return (gen.integers(0, depth, (n,), dtype=np.int32), depth)


def tile_rows_for(depth):
    """Indices per step: a multiple of 8 (a 32-byte int32 index tile), the tile at most MAX_TILE_ELEMS."""
    return max(8, MAX_TILE_ELEMS // depth // 8 * 8)


def launch(indices, depth):
    if depth % 8 or not 0 < depth <= MAX_DEPTH:
        raise ValueError(f"depth must be a multiple of 8 in 8..{MAX_DEPTH}, got {depth}")
    if indices.size and (int(indices.min()) < 0 or int(indices.max()) >= depth):
        raise ValueError(f"indices must lie in [0, {depth})")
    n = indices.size
    out = np.zeros((n, depth), dtype=np.int32)
    if 0 < n <= CORE_NUM:
        one_hot_row_kernel[n](indices, np.eye(depth, dtype=np.int32), out, n, depth)
        return out
    classes = np.arange(depth, dtype=np.int32).reshape(1, depth)
    tile_rows = tile_rows_for(depth)
    num_tiles = -(-n // tile_rows)
    one_hot_kernel[min(CORE_NUM, num_tiles)](indices, classes, out, n, num_tiles, depth, tile_rows)
    return out


def reference(indices, depth):
    return (indices.reshape(-1, 1) == np.arange(depth).reshape(1, -1)).astype(np.int32)

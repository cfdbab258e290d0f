"""August-dialect port of golden/kernels/split_f16.py: split along the last axis into three outputs, float16."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "split"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "8x96", "shape": [8, 96], "sections": [32, 32, 32]},
    {"id": "2500x24", "shape": [2500, 24], "sections": [8, 8, 8]},
    {"id": "100x1623", "shape": [100, 1623], "sections": [541, 541, 541]},
    {"id": "7000x1x128", "shape": [7000, 1, 128], "sections": [64, 32, 32], "full_only": True},
]
SEED = 2026
ALIGN = 16
MAX_TILE = 1024
CORE_NUM = 32


@asctile.jit(always_compile=True)
def split3_kernel(x_ptr: asctile.GlobalAddress, o0_ptr: asctile.GlobalAddress, o1_ptr: asctile.GlobalAddress,
                  o2_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int, s0: int, s1: int, s2: int,
                  n0: int, n1: int, n2: int, tile: asctile.ConstExpr[int]):
    for r in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        x_gm = asctile.global_tensor(x_ptr + r * num_cols, [num_cols])
        o0_gm = asctile.global_tensor(o0_ptr + r * s0, [s0])
        o1_gm = asctile.global_tensor(o1_ptr + r * s1, [s1])
        o2_gm = asctile.global_tensor(o2_ptr + r * s2, [s2])
        for t in asctile.range(n0, unroll_factor=2):
            asctile.copy_out(asctile.copy_in(x_gm, [t * tile], [tile]), o0_gm, [t * tile])
        for t in asctile.range(n1, unroll_factor=2):
            asctile.copy_out(asctile.copy_in(x_gm, [s0 + t * tile], [tile]), o1_gm, [t * tile])
        for t in asctile.range(n2, unroll_factor=2):
            asctile.copy_out(asctile.copy_in(x_gm, [s0 + s1 + t * tile], [tile]), o2_gm, [t * tile])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    x = gen.standard_normal(case["shape"], dtype=np.float32).astype(np.float16)
    return (x, list(case["sections"]))


def launch(x, sections):
    num_cols = x.shape[-1]
    if len(sections) != 3 or sum(sections) != num_cols or min(sections) < 1:
        raise ValueError(f"three positive sections summing to {num_cols} expected, got {sections}")
    num_rows = x.size // num_cols
    tile = min(MAX_TILE, -(-max(sections) // ALIGN) * ALIGN)
    outs = [np.zeros((*x.shape[:-1], s), dtype=x.dtype) for s in sections]
    counts = [-(-s // tile) for s in sections]
    split3_kernel[min(CORE_NUM, num_rows)](x, *outs, num_rows, num_cols, *sections, *counts, tile)
    return tuple(outs)


def reference(x, sections):
    return tuple(np.ascontiguousarray(t) for t in np.split(x, np.cumsum(sections)[:-1], axis=-1))

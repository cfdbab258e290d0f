"""August-dialect port of golden/kernels/transpose_f16.py: 2-D transpose, y = x.T, float16.

Upstream asctile has no ``number``: the runtime scalar that holds a tile's real length starts from the
full tile length passed as a runtime argument (``tile_len``), so both branches of the ``if`` assign scalars."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "transpose"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "1x16", "shape": [1, 16]},
    {"id": "64x128", "shape": [64, 128]},
    {"id": "2500x24", "shape": [2500, 24]},
    {"id": "100x1623", "shape": [100, 1623]},
    {"id": "7000x128", "shape": [7000, 128], "full_only": True},
]
SEED = 2026
TILE = 64
CORE_NUM = 32


@asctile.jit(always_compile=True)
def transpose_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, rows: int, cols: int,
                     row_blocks: int, col_blocks: int, tile_len: int, tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [rows, cols])
    y_gm = asctile.global_tensor(y_ptr, [cols, rows])
    for w in asctile.range(asctile.block_idx(), row_blocks * col_blocks, asctile.block_num(), unroll_factor=2):
        r0 = (w // col_blocks) * tile
        c0 = (w % col_blocks) * tile
        vr = tile_len
        if rows - r0 < tile:
            vr = rows - r0
        vc = tile_len
        if cols - c0 < tile:
            vc = cols - c0
        block = asctile.copy_in(x_gm, [r0, c0], [tile, tile], real_shape=[vr, vc], pad_value=0)
        asctile.copy_out(block.transpose(), y_gm, [c0, r0], real_shape=[vc, vr])


def make_inputs(case):
    gen = np.random.default_rng(SEED)
    return (gen.standard_normal(case["shape"], dtype=np.float32).astype(np.float16),)


def launch(x):
    if x.ndim != 2:
        raise ValueError(f"expected a 2-D tensor, got shape {tuple(x.shape)}")
    rows, cols = x.shape
    y = np.zeros((cols, rows), dtype=x.dtype)
    row_blocks, col_blocks = -(-rows // TILE), -(-cols // TILE)
    transpose_kernel[min(CORE_NUM, row_blocks * col_blocks)](x, y, rows, cols, row_blocks, col_blocks, TILE,
                                                             TILE)
    return y


def reference(x):
    return np.ascontiguousarray(x.T)

"""August-dialect port of golden/kernels/broadcast_f16.py: broadcast of a row vector or a column vector to a matrix, float16."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "broadcast"
DTYPE = "float16"
TOLERANCE = {"atol": 0.0, "rtol": 0.0}
CASES = [
    {"id": "row_1x128", "shape": [1, 128], "kind": "row"},
    {"id": "row_2500x24", "shape": [2500, 24], "kind": "row"},
    {"id": "row_32x4096", "shape": [32, 4096], "kind": "row"},
    {"id": "column_100x1623", "shape": [100, 1623], "kind": "column"},
    {"id": "column_7000x128", "shape": [7000, 128], "kind": "column", "full_only": True},
]
SEED = 2026
ALIGN = 16
MAX_COLS = 8192
CORE_NUM = 32


@asctile.jit(always_compile=True)
def broadcast_row_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int,
                         tile_cols: asctile.ConstExpr[int]):
    row = asctile.copy_in(asctile.global_tensor(x_ptr, [num_cols]), [0], [tile_cols])
    for r in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        asctile.copy_out(row, asctile.global_tensor(y_ptr + r * num_cols, [num_cols]), [0])


@asctile.jit(always_compile=True)
def broadcast_column_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, num_rows: int, num_cols: int,
                            tile_cols: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows])
    for r in asctile.range(asctile.block_idx(), num_rows, asctile.block_num(), unroll_factor=2):
        value = asctile.copy_in(x_gm, [r])
        asctile.copy_out(asctile.full([tile_cols], value, dtype=asctile.float16),
                      asctile.global_tensor(y_ptr + r * num_cols, [num_cols]), [0])


def make_inputs(case):
    rows, cols = case["shape"]
    gen = np.random.default_rng(SEED)
    n = cols if case["kind"] == "row" else rows
    x = gen.standard_normal((n,), dtype=np.float32).astype(np.float16)
    return (x, rows, cols, case["kind"] == "row")


def launch(x, rows, cols, is_row):
    kind = "row" if is_row else "column"
    if x.shape != ((cols,) if is_row else (rows,)):
        raise ValueError(f"a {kind} broadcast to [{rows}, {cols}] needs x of length {cols if is_row else rows}")
    if cols > MAX_COLS:
        raise ValueError(f"rows of {cols} columns exceed one UB tile (max {MAX_COLS})")
    tile_cols = -(-cols // ALIGN) * ALIGN
    y = np.zeros((rows, cols), dtype=x.dtype)
    kernel = broadcast_row_kernel if is_row else broadcast_column_kernel
    kernel[min(CORE_NUM, rows)](x, y, rows, cols, tile_cols)
    return y


def reference(x, rows, cols, is_row):
    return np.ascontiguousarray(np.broadcast_to(x if is_row else x[:, None], (rows, cols)))

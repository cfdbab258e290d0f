"""August-dialect port of golden/kernels/softmax_f32.py: row groups, one whole-row asctile.softmax each."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
OP = "softmax"
DTYPE = "float32"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-4}
CASES = [{"id": "4x64", "shape": [4, 64]}, {"id": "96x256", "shape": [96, 256]}]
CORE_NUM = 32
ALIGN = 8
MAX_TILE_BYTES = 16 * 1024


@asctile.jit(always_compile=True)
def softmax_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int,
                   num_cols: asctile.ConstExpr[int], group_rows: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    out_gm = asctile.global_tensor(out_ptr, [num_rows, num_cols])
    for row0 in asctile.range(asctile.block_idx() * group_rows, num_rows, asctile.block_num() * group_rows,
                              unroll_factor=2):
        rows = asctile.copy_in(x_gm, [row0, 0], [group_rows, num_cols])
        asctile.copy_out(asctile.softmax(rows), out_gm, [row0, 0])


def make_inputs(case):
    rng = np.random.default_rng(2026)
    return ((rng.random(case["shape"], dtype=np.float32) * 10 - 5).astype(np.float32),)


def launch(x):
    num_rows, num_cols = x.shape
    limit = min(-(-num_rows // CORE_NUM), MAX_TILE_BYTES // (num_cols * x.itemsize))
    group_rows = max(d for d in range(1, limit + 1) if num_rows % d == 0)
    num_groups = num_rows // group_rows
    out = np.zeros_like(x)
    softmax_kernel[min(CORE_NUM, num_groups)](x, out, num_rows, num_cols, group_rows)
    return out


def reference(x):
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(x.dtype)

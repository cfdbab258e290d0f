"""ReduceSum over the rows of a float16 tile without widening it first, as a direct port of a float16 ReduceSum
test writes it: pyasc-dev's reductions over a dimension take int32 / int64 / float32 only, so both front ends
refuse it with the same text."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "'input' dtype must be one of int32, int64, float32, got float16"


@asctile.jit
def row_sum_kernel(x_ptr, y_ptr, rows: asctile.ConstExpr[int], cols: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [rows, cols])
    y = asctile.global_tensor(y_ptr, [rows, 1])
    a = asctile.copy_in(x, [0, 0], [rows, cols])
    asctile.copy_out(asctile.reduce_sum(a, 1, keep_dims=True), y, [0, 0])


def run():
    x = np.ones((4, 64), np.float16)
    y = np.zeros((4, 1), np.float16)
    row_sum_kernel[1](x, y, 4, 64)
    return {"y": y}

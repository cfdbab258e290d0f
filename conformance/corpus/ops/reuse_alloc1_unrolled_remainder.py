"""``reuse_alloc=1`` over a loop unrolled twice with a remainder: pyasc-dev plans each block's tiles into
buffers first, then joins the buffers of the two copies and of the remainder loop, each as large as its
largest member. A row's 32-byte sum, broadcast to a 32-byte row, has a buffer the next copy's row load joins
(the two copies' loads stay apart), so three buffers hold a whole row: pyasc-dev counts 3 x 84640 + 32 =
253952 bytes at 21160 float32 columns, all of C310's UB (8 columns more: 254048, over). On Ascend910B1
its compiler fails on the unrolled loop ("operand #0 does not dominate this use")."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
ROWS, COLS = 5, 21160


@asctile.jit(reuse_alloc=1)
def row_sums(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, num_rows: int,
             num_cols: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [num_rows, num_cols])
    out = asctile.global_tensor(out_ptr, [num_rows, 8])
    for r in asctile.range(num_rows, unroll_factor=2):
        row = asctile.copy_in(x, [r, 0], [1, num_cols])
        s = asctile.reduce_sum(row, 1)
        asctile.copy_out(s.reshape(1, 1).broadcast_to(1, 8), out, [r, 0])


def run():
    x = np.linspace(-1, 1, ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS)
    out = np.zeros((ROWS, 8), np.float32)
    row_sums[1](x, out, ROWS, COLS)
    return {"out": out}

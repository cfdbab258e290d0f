"""An int32 kernel that adds a float literal (``label + 0.5``, rounding meant, as a port of a float32 kernel
writes it): pyasc-dev materialises the literal in the tile's dtype and its builder has no integer attribute
for 0.5, so the kernel is refused; this engine refuses it too (it would otherwise be truncated to 0)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "a float scalar (0.5) cannot be combined with an int32 tile"


@asctile.jit
def round_half_kernel(x_ptr, y_ptr, n: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    asctile.copy_out(asctile.copy_in(x, [0], [n]) + 0.5, y, [0])


def run():
    x = np.arange(64, dtype=np.int32)
    y = np.zeros(64, np.int32)
    round_half_kernel[1](x, y, 64)
    return {"y": y}

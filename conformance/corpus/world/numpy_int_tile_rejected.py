"""Host tiling done with numpy (``np.clip`` of the UB budget) hands the kernel a ``numpy.int64`` for its
``ConstExpr[int]`` tile: not an ``int``, so both front ends refuse it at launch, naming the argument and the
class (``int(...)`` on the host is the fix)."""
import numpy as np

from asc.experimental import asctile

from _tiling import ub_bytes

EXPECT = "reject"
ERROR = "is required for 'tile' argument, int64 was provided: "


@asctile.jit
def exp_kernel(x_ptr, y_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        asctile.copy_out(asctile.exp(asctile.copy_in(x, [t * tile], [tile])), y, [t * tile])


def run():
    x = np.linspace(-1, 1, 1000).astype(np.float32)
    y = np.zeros_like(x)
    tile = np.clip(ub_bytes() // (2 * 2 * 4), 64, x.size) // 8 * 8   # numpy.int64
    exp_kernel[8](x, y, x.size, tile)
    return {"y": y}

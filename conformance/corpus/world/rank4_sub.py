"""Rank-4 tensors [n, c, h, w] with [1, 1, h, w] windows, and the length passed as ``asctile.ConstExpr`` at the
call site (the static launch) next to the runtime one."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
SHAPES = ((2, 3, 4, 32), (1, 5, 3, 16))


@asctile.jit
def sub_kernel(x_ptr, y_ptr, z_ptr, n, c, h: asctile.ConstExpr[int], w: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n, c, h, w])
    y = asctile.global_tensor(y_ptr, [n, c, h, w])
    z = asctile.global_tensor(z_ptr, [n, c, h, w])
    for i in asctile.range(asctile.block_idx(), n * c, asctile.block_num()):
        a = asctile.copy_in(x, [i // c, i % c, 0, 0], [1, 1, h, w])
        b = asctile.copy_in(y, [i // c, i % c, 0, 0], [1, 1, h, w])
        asctile.copy_out(a - b, z, [i // c, i % c, 0, 0])


def run():
    rng = np.random.default_rng(5)
    out = {}
    for shape in SHAPES:
        x = rng.random(shape, dtype=np.float32)
        y = rng.random(shape, dtype=np.float32)
        for static in (False, True):
            z = np.zeros_like(x)
            n, c = (asctile.ConstExpr(shape[0]), asctile.ConstExpr(shape[1])) if static else shape[:2]
            sub_kernel[3](x, y, z, n, c, shape[2], shape[3])
            out[("static_" if static else "dynamic_") + "x".join(map(str, shape))] = z
    return out

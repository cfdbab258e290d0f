"""asctile.equal (a mask), asctile.where with tiles and a scalar, comparison operators, asctile.maximum."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def select_kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                  size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [1, size])
    y_gm = asctile.global_tensor(y_ptr, [1, size])
    out_gm = asctile.global_tensor(out_ptr, [3, size])
    x = asctile.copy_in(x_gm, [0, 0], [1, size])
    y = asctile.copy_in(y_gm, [0, 0], [1, size])
    asctile.copy_out(asctile.where(asctile.equal(x, y), x, 0.0), out_gm, [0, 0])
    asctile.copy_out(asctile.where(x > y, x, y), out_gm, [1, 0])
    asctile.copy_out(asctile.maximum(x, y), out_gm, [2, 0])


def run():
    rng = np.random.default_rng(2026)
    x = np.round(rng.random((1, 256), dtype=np.float32) * 4)
    y = np.round(rng.random((1, 256), dtype=np.float32) * 4)
    out = np.zeros((3, x.size), np.float32)
    select_kernel[1](x, y, out, x.size)
    return {"out": out}

"""A float16 kernel that computes in float32 and forgets the cast back before the store: a float32 tile stored
into a float16 tensor. This engine stops it at the ``copy_out`` line (the store's element types differ) with
the fix as the hint."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "have same element type"


@asctile.jit
def exp_f16_kernel(x_ptr, y_ptr, n: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    a = asctile.copy_in(x, [0], [n]).to(asctile.float32)
    asctile.copy_out(asctile.exp(a), y, [0])


def run():
    x = np.linspace(-2, 2, 64).astype(np.float16)
    y = np.zeros_like(x)
    exp_f16_kernel[1](x, y, 64)
    return {"y": y}

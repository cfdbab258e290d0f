"""broadcast_shapes on ConstExpr shapes and broadcast_tensors of a [R, 1] and a [C] tile."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    shape = asctile.broadcast_shapes([16, 1], [64])
    a = asctile.reduce_sum(asctile.copy_in(asctile.global_tensor(a_ptr, [16, 8]), [0, 0], [16, 8]), 1,
                           keep_dims=True)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [64]), [0], [64])
    ab, bb = asctile.broadcast_tensors(a, b)
    asctile.copy_out(ab - bb, asctile.global_tensor(out_ptr, shape), [0, 0])


def run():
    rng = np.random.default_rng(19)
    a = rng.random((16, 8), dtype=np.float32)
    b = rng.random(64, dtype=np.float32)
    out = np.zeros((16, 64), np.float32)
    kernel[1](a, b, out)
    return {"out": out}

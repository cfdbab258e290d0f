"""``vf_vec_len``, a compile option of upstream's asctile (the vector length of fused vector functions)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit(vf_fusion=True, vf_vec_len=256)
def add_one(x_ptr, y_ptr):
    x = asctile.global_tensor(x_ptr, [64])
    y = asctile.global_tensor(y_ptr, [64])
    asctile.copy_out(asctile.copy_in(x, [0], [64]) + 1.0, y, [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    add_one[1](x, y)
    return {"y": y}

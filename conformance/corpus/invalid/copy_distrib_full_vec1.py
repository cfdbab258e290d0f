"""copy(..., distrib=DistribMode.FullVec1): the whole matmul result in vector sub-block 1 (cv_ratio=2).
pyasc accepts it; this engine models one vector unit per block, so it refuses the mode at the user's line."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "copy with distrib=DistribMode.FullVec1 needs the two vector sub-blocks"


@asctile.jit(cv_ratio=2)
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 32], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    whole = asctile.copy(acc, location="UB", distrib=asctile.DistribMode.FullVec1)
    if asctile.sub_block_idx() == 1:
        asctile.copy_out(whole, asctile.global_tensor(c_ptr, [16, 32]), [0, 0])


def run():
    c = np.zeros((16, 32), np.float32)
    kernel[1](np.ones((16, 32), np.float16), np.ones((32, 32), np.float16), c)
    return {"c": c}

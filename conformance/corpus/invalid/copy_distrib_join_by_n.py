"""copy(..., location="L1", distrib=DistribMode.JoinByN): each vector sub-block's half of a matrix joined
along N into one L1 operand of a matmul (cv_ratio=2). pyasc accepts it; this engine models one vector
unit per block, so it refuses the mode at the user's line."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "copy with distrib=DistribMode.JoinByN needs the two vector sub-blocks"


@asctile.jit(cv_ratio=2)
def kernel(x_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress, c_ptr: asctile.GlobalAddress):
    half = asctile.copy_in(asctile.global_tensor(x_ptr, [32, 32]), [0, 16 * asctile.sub_block_idx()], [32, 16])
    full = asctile.copy(half, location="L1", distrib=asctile.DistribMode.JoinByN)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 32]), [0, 0], [32, 32], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([32, 32], asctile.float32)
    asctile.matmul_acc(acc, asctile.copy(full, location="L0A"), b)
    asctile.copy_out(acc, asctile.global_tensor(c_ptr, [32, 32]), [0, 0])


def run():
    c = np.zeros((32, 32), np.float32)
    kernel[1](np.ones((32, 32), np.float16), np.ones((32, 32), np.float16), c)
    return {"c": c}

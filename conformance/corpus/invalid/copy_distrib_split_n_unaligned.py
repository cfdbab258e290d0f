"""copy(..., distrib=DistribMode.SplitByN) of a matmul result with 48 columns: N must be a multiple of 32."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Splitting by N axis requires that it be a multiple of 32, got 48"


@asctile.jit
def kernel(a_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 48]), [0, 0], [32, 48], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 48], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    half = asctile.copy(acc, location="UB", distrib=asctile.DistribMode.SplitByN)


def run():
    kernel[1](np.ones((16, 32), np.float16), np.ones((32, 48), np.float16))
    return {}

"""``zeros_acc(...).location`` compared with ``TensorLocation.L0C`` at compile time: upstream's accumulator is
created in L0C but the LocalTensor it returns is cast to the automatic location, so the static_assert fails
there."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-4}


@asctile.jit
def mm(a_ptr, b_ptr, c_ptr):
    a = asctile.copy_in(asctile.global_tensor(a_ptr, [16, 32]), [0, 0], [16, 32], asctile.TensorLocation.L0A)
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [32, 16]), [0, 0], [32, 16], asctile.TensorLocation.L0B)
    acc = asctile.zeros_acc([16, 16], asctile.float32)
    asctile.matmul_acc(acc, a, b)
    asctile.static_assert(acc.location == asctile.TensorLocation.L0C)
    ub = asctile.copy(acc, location=asctile.TensorLocation.UB)
    asctile.copy_out(ub + 1.0, asctile.global_tensor(c_ptr, [16, 16]), [0, 0])


def run():
    rng = np.random.default_rng(23)
    a = rng.random((16, 32), dtype=np.float32).astype(np.float16)
    b = rng.random((32, 16), dtype=np.float32).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    mm[1](a, b, c)
    return {"c": c}

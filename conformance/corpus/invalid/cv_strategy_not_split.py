"""cv_strategy with a DistribMode that does not split by an axis."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'Splitting by axis must be requested, got 0'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    with asctile.cv_strategy(asctile.DistribMode.FullVec0):
        y = x + 1.0


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

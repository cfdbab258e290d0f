"""asctile.add of two Python numbers: a tile op needs a tensor operand."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "At least one operand must be tensor"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, o_ptr: asctile.GlobalAddress):
    x_gm = asctile.global_tensor(x_ptr, [16, 16])
    o_gm = asctile.global_tensor(o_ptr, [16, 16])
    h = asctile.copy_in(x_gm, [0, 0], [16, 16])
    asctile.copy_out(asctile.add(1, 2), o_gm, [0, 0])


def run():
    x, o = np.ones((16, 16), np.float16), np.zeros((16, 16), np.float16)
    kernel[1](x, o)
    return {"o": o}

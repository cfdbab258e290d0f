"""asctile.transpose with explicit axes: (1, 0) of a 2-D tile and (0, 2, 1) of a 3-D one, the latter straight from
its copy_in (Ascend950PR_9599 folds it into that DMA; the vector unit transposes 2-D tiles only)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, out3_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 32]), [0, 0], [16, 32])
    asctile.copy_out(asctile.transpose(x, 1, 0), asctile.global_tensor(out_ptr, [32, 16]), [0, 0])
    t = asctile.copy_in(asctile.global_tensor(x_ptr, [2, 8, 32]), [0, 0, 0], [2, 8, 32]).transpose(0, 2, 1)
    asctile.copy_out(t.reshape(64, 8), asctile.global_tensor(out3_ptr, [64, 8]), [0, 0])


def run():
    x = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
    out = np.zeros((32, 16), np.float32)
    out3 = np.zeros((64, 8), np.float32)
    kernel[1](x, out, out3)
    return {"out": out, "out3": out3}

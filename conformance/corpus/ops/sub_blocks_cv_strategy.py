"""sub_block_idx / sub_block_num in index arithmetic, and a cv_strategy region (its names survive it)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    row = asctile.block_idx() * asctile.sub_block_num() + asctile.sub_block_idx()
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [4, 64]), [row, 0], [1, 64])
    with asctile.cv_strategy(asctile.DistribMode.SplitByM):
        y = x + x
    asctile.copy_out(y - 1.0, asctile.global_tensor(out_ptr, [4, 64]), [row, 0])


def run():
    x = np.arange(256, dtype=np.float32).reshape(4, 64)
    out = np.zeros_like(x)
    kernel[4](x, out)
    return {"out": out}

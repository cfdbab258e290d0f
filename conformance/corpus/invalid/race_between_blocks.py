"""Every block stores the same tile of the output (a write race between blocks)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "race"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    x = asctile.copy_in(x_gm, [asctile.block_idx() * 64], [64])
    asctile.copy_out(x, out_gm, [0])


def run():
    x = np.arange(1024, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[4](x, out, x.size)
    return {"out": out}

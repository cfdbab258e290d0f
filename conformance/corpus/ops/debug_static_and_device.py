"""static_print / static_assert at trace time, device_print / device_assert (compiled out without debug=True)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    asctile.static_assert(size % 16 == 0, "size must be a multiple of 16")
    asctile.static_print("size", size)
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [size]), [0], [size])
    asctile.device_print("block", asctile.block_idx(), x)
    asctile.device_assert(asctile.block_idx() >= 0, "block_idx must be non-negative")
    asctile.copy_out(x + 1.0, asctile.global_tensor(out_ptr, [size]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, 64)
    return {"out": out}

"""A Python assert on ConstExpr values that is false, with debug=True: the device assertion stops the kernel."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "device_assert failed: size must exceed 64"


@asctile.jit(debug=True)
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    assert size > 64, "size must exceed 64"
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [size]), [0], [size])
    asctile.copy_out(x + 1.0, asctile.global_tensor(out_ptr, [size]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out, 64)
    return {"out": out}

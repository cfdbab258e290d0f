"""A custom_builtins dict without "assert": the kernel's assert is then Python's, checked while the kernel
is traced (asctile's own assert, a device_assert, would be compiled out without debug=True)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "size must exceed 64"


@asctile.jit(custom_builtins={"range": asctile.range})
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    assert size > 64, "size must exceed 64"
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [size]), [0], [64])
    asctile.copy_out(x, asctile.global_tensor(y_ptr, [size]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y, 64)
    return {"y": y}

"""jit(custom_builtins={...}) replaces asctile's kernel builtins (upstream: options.setdefault): a kernel
that passes its own dict and still calls max gets 'max is not defined'."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "max is not defined"


@asctile.jit(custom_builtins={"range": asctile.range})
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    asctile.copy_out(max(x, x + 1.0), asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y)
    return {"y": y}

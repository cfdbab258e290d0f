"""A plain Python helper (and a ``math`` function) named by a kernel launched without always_compile=True:
pyasc computes the kernel's cache key first, which refuses every referenced callable that is not a pyasc or
``@jit`` function."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "Unsupported function referenced: <function _scaled"


def _scaled(t):
    return t * 2.0


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, n: int):
    x = asctile.global_tensor(x_ptr, [n])
    asctile.copy_out(_scaled(asctile.copy_in(x, [0], [64])), x, [0])


def run():
    x = np.arange(64, dtype=np.float32)
    kernel[1](x, 64)
    return {"x": x}

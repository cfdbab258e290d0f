"""LocalTensor's method forms (``t.sin()``, ``t.prod(1)``, ``t.ravel()``, ...) next to the functions, and its
``shape`` / ``dtype`` / ``size`` / ``location`` / ``rank`` attributes (and a GlobalTensor's) checked at compile
time."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}


@asctile.jit
def methods(x_ptr, out_ptr, red_ptr, more_ptr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [12, 64])
    asctile.copy_out(x.ceil(), out, [0, 0])
    asctile.copy_out(x.cos(), out, [1, 0])
    asctile.copy_out(x.cosh(), out, [2, 0])
    asctile.copy_out(x.exp2(), out, [3, 0])
    asctile.copy_out(x.floor(), out, [4, 0])
    asctile.copy_out(x.log2(), out, [5, 0])
    asctile.copy_out(x.relu(), out, [6, 0])
    asctile.copy_out(x.rsqrt(), out, [7, 0])
    asctile.copy_out(x.sin(), out, [8, 0])
    asctile.copy_out(x.sinh(), out, [9, 0])
    asctile.copy_out(x.softmax(), out, [10, 0])
    asctile.copy_out(x.tan(), out, [11, 0])
    red = asctile.global_tensor(red_ptr, [4, 64])
    asctile.copy_out(x.ravel().expand_dims(0), red, [0, 0])
    asctile.copy_out(x.expand_dims(0).squeeze(0), red, [1, 0])
    asctile.copy_out(x.prod(1, keep_dims=True).broadcast_to(1, 64), red, [2, 0])
    more = asctile.global_tensor(more_ptr, [8, 64])
    asctile.copy_out(x.abs(), more, [0, 0])
    asctile.copy_out(x.erf(), more, [1, 0])
    asctile.copy_out(x.log(), more, [2, 0])
    asctile.copy_out(x.sqrt(), more, [3, 0])
    asctile.copy_out(x.tanh(), more, [4, 0])
    asctile.copy_out(x.sum(1, keep_dims=True).broadcast_to(1, 64), more, [5, 0])
    asctile.copy_out(x.max(1, keep_dims=True).broadcast_to(1, 64), more, [6, 0])
    asctile.copy_out(x.min(1, keep_dims=True).broadcast_to(1, 64), more, [7, 0])
    asctile.static_assert(x.shape[1] == more.shape[1])
    asctile.static_assert(x.dtype == more.dtype)
    asctile.static_assert(x.size == 64)
    asctile.static_assert(x.rank == 2)
    asctile.static_assert(x.location != asctile.TensorLocation.L1)
    asctile.copy_out(x, red, [3, 0])


def run():
    x = np.linspace(0.25, 1.5, 64, dtype=np.float32).reshape(1, 64)
    out = np.zeros((12, 64), np.float32)
    red = np.zeros((4, 64), np.float32)
    more = np.zeros((8, 64), np.float32)
    methods[1](x, out, red, more)
    return {"out": out, "red": red, "more": more}

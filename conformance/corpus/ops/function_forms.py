"""The function forms of the elementwise, comparison, shift, shape and reduction ops not used elsewhere in the
corpus: ceil / cos / cosh / exp2 / floor / log2 / sin / sinh / tan, sub / div, greater / greater_equal / less /
less_equal / not_equal, left_shift / right_shift / bitwise_or, reshape / ravel / squeeze / expand_dims /
broadcast_to / concat, reduce_min / reduce_prod, zeros_like / empty_like, rms_norm."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}


@asctile.jit
def functions(x_ptr, y_ptr, i_ptr, out_ptr, cmp_ptr, int_ptr):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [1, 64]), [0, 0], [1, 64])
    y = asctile.copy_in(asctile.global_tensor(y_ptr, [1, 64]), [0, 0], [1, 64])
    n = asctile.copy_in(asctile.global_tensor(i_ptr, [1, 64]), [0, 0], [1, 64])
    out = asctile.global_tensor(out_ptr, [17, 64])
    asctile.copy_out(asctile.ceil(x), out, [0, 0])
    asctile.copy_out(asctile.cos(x), out, [1, 0])
    asctile.copy_out(asctile.cosh(x), out, [2, 0])
    asctile.copy_out(asctile.exp2(x), out, [3, 0])
    asctile.copy_out(asctile.floor(x), out, [4, 0])
    asctile.copy_out(asctile.log2(x), out, [5, 0])
    asctile.copy_out(asctile.sin(x), out, [6, 0])
    asctile.copy_out(asctile.sinh(x), out, [7, 0])
    asctile.copy_out(asctile.tan(x), out, [8, 0])
    asctile.copy_out(asctile.sub(x, y), out, [9, 0])
    asctile.copy_out(asctile.div(x, y), out, [10, 0])
    asctile.copy_out(asctile.reshape(asctile.ravel(x), 1, 64), out, [11, 0])
    asctile.copy_out(asctile.squeeze(asctile.expand_dims(x, 0), 0), out, [12, 0])
    asctile.copy_out(asctile.broadcast_to(asctile.reduce_min(x, 1, keep_dims=True), 1, 64), out, [13, 0])
    asctile.copy_out(asctile.broadcast_to(asctile.reduce_prod(x, 1, keep_dims=True), 1, 64), out, [14, 0])
    asctile.copy_out(asctile.rms_norm(x, asctile.zeros_like(x) + 1.0, 1e-6), out, [15, 0])
    asctile.copy_out(asctile.where(asctile.greater(x, 0.0), x, asctile.empty_like(x, asctile.TensorLocation.UB)), out, [16, 0])
    one, zero = asctile.zeros_like(x) + 1.0, asctile.zeros_like(x)
    cmp = asctile.global_tensor(cmp_ptr, [5, 64])
    asctile.copy_out(asctile.where(asctile.greater(x, y), one, zero), cmp, [0, 0])
    asctile.copy_out(asctile.where(asctile.greater_equal(x, y), one, zero), cmp, [1, 0])
    asctile.copy_out(asctile.where(asctile.less(x, y), one, zero), cmp, [2, 0])
    asctile.copy_out(asctile.where(asctile.less_equal(x, y), one, zero), cmp, [3, 0])
    asctile.copy_out(asctile.where(asctile.not_equal(x, y), one, zero), cmp, [4, 0])
    ints = asctile.global_tensor(int_ptr, [4, 64])
    asctile.copy_out(asctile.left_shift(n, 2), ints, [0, 0])
    asctile.copy_out(asctile.right_shift(n, 1), ints, [1, 0])
    asctile.copy_out(asctile.bitwise_or(n, asctile.zeros_like(n) + 8), ints, [2, 0])
    wide = asctile.concat(n, n)
    asctile.copy_out(asctile.reduce_max(asctile.reshape(wide, 2, 64), 0, keep_dims=True), ints, [3, 0])


def run():
    x = np.linspace(0.25, 1.5, 64, dtype=np.float32).reshape(1, 64)
    y = np.linspace(1.5, 0.25, 64, dtype=np.float32).reshape(1, 64)
    i = np.arange(64, dtype=np.int32).reshape(1, 64)
    out, cmp, ints = np.zeros((17, 64), np.float32), np.zeros((5, 64), np.float32), np.zeros((4, 64), np.int32)
    functions[1](x, y, i, out, cmp, ints)
    return {"out": out, "cmp": cmp, "ints": ints}

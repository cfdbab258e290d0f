"""The other unary ops of the August API: abs, sqrt, rsqrt, log, tanh, erf, relu, negative (verdicts only upstream)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-4, "rtol": 1e-4}


@asctile.jit
def unary_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [1, size])
    out_gm = asctile.global_tensor(out_ptr, [8, size])
    x = asctile.copy_in(x_gm, [0, 0], [1, size])
    asctile.copy_out(asctile.abs(x), out_gm, [0, 0])
    asctile.copy_out(asctile.sqrt(asctile.abs(x)), out_gm, [1, 0])
    asctile.copy_out(asctile.rsqrt(asctile.abs(x) + 1.0), out_gm, [2, 0])
    asctile.copy_out(asctile.log(asctile.abs(x) + 1.0), out_gm, [3, 0])
    asctile.copy_out(asctile.tanh(x), out_gm, [4, 0])
    asctile.copy_out(asctile.erf(x), out_gm, [5, 0])
    asctile.copy_out(asctile.relu(x), out_gm, [6, 0])
    asctile.copy_out(asctile.negative(x), out_gm, [7, 0])


def run():
    x = np.linspace(-3, 3, 512, dtype=np.float32).reshape(1, 512)
    out = np.zeros((8, x.size), np.float32)
    unary_kernel[1](x, out, x.size)
    return {"out": out}

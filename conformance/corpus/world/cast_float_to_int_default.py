"""Cast float32 -> int32 with the default round mode, as a Cast test feeds it: halves, negative fractions and
values past int32's range. This engine converts as the hardware's Cast does (to nearest, ties to even,
saturating); the reference says so."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
N = 64


@asctile.jit
def cast_kernel(x_ptr, dflt_ptr, n: asctile.ConstExpr[int]):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [n]), [0], [n])
    asctile.copy_out(x.to(asctile.int32), asctile.global_tensor(dflt_ptr, [n]), [0])


def run():
    base = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.7, -2.7, 3.49], np.float32)
    x = np.tile(base, N // base.size)
    x[-2:] = [3.0e9, -3.0e9]
    dflt = np.zeros(N, np.int32)
    cast_kernel[1](x, dflt, N)
    info = np.iinfo(np.int32)
    return checked({"default": (dflt, np.clip(np.rint(x.astype(np.float64)), info.min, info.max))},
                   {"atol": 0.0, "rtol": 0.0})

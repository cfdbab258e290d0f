"""A kernel as operator libraries structure them: the math in a plain module-level helper function called from
the kernel (it runs with the traced tiles; pyasc allows it only with always_compile=True, since a cached kernel's
key refuses plain callables), the tile length a parameter with a default, the launch by
keyword arguments; AddCMul-like ``y = x + value * t1 / t2`` written with ``/`` (value as a divisor), ragged
lengths over 16 cores."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-5}
SIZES = (1, 33, 1000, 4097)


def _addcdiv(x, t1, t2, inv_value):
    return x + t1 / t2 / inv_value


@asctile.jit(always_compile=True)
def addcdiv_kernel(x_ptr, t1_ptr, t2_ptr, y_ptr, n, inv_value, tile: asctile.ConstExpr[int] = 256):
    x = asctile.global_tensor(x_ptr, [n])
    t1 = asctile.global_tensor(t1_ptr, [n])
    t2 = asctile.global_tensor(t2_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        off = t * tile
        a = asctile.copy_in(x, [off], [tile], pad_value=0.0)
        b = asctile.copy_in(t1, [off], [tile], pad_value=0.0)
        c = asctile.copy_in(t2, [off], [tile], pad_value=1.0)
        asctile.copy_out(_addcdiv(a, b, c, inv_value), y, [off])


def run():
    rng = np.random.default_rng(233)
    pairs = {}
    for n in SIZES:
        x, t1 = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        t2 = rng.uniform(0.5, 2.0, n).astype(np.float32)
        y = np.zeros_like(x)
        addcdiv_kernel[16](x_ptr=x, t1_ptr=t1, t2_ptr=t2, y_ptr=y, n=n, inv_value=4.0)
        pairs[f"n{n}"] = (y, x + t1 / t2 / np.float32(4.0))
    return checked(pairs, TOLERANCE)

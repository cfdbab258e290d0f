"""Integer Div (int32 and int16 tiles, ``a / b``) as the Div regression suite runs it with mixed signs: the
quotient truncates toward zero (-7 / 2 is -3). Ragged lengths over 8 cores, ``real_shape`` on the last tile;
divisors never 0."""
import numpy as np

from asc.experimental import asctile

from _check import checked

EXPECT = "accept"
SIZES = (7, 33, 1000)
TILE = 256


@asctile.jit
def div_kernel(a_ptr, b_ptr, q_ptr, n, tile: asctile.ConstExpr[int]):
    a = asctile.global_tensor(a_ptr, [n])
    b = asctile.global_tensor(b_ptr, [n])
    q = asctile.global_tensor(q_ptr, [n])
    for t in asctile.range(asctile.block_idx(), asctile.ceildiv(n, tile), asctile.block_num()):
        real = [min(tile, n - t * tile)]
        x = asctile.copy_in(a, [t * tile], [tile], real_shape=real, pad_value=0)
        y = asctile.copy_in(b, [t * tile], [tile], real_shape=real, pad_value=1)
        asctile.copy_out(x / y, q, [t * tile], real_shape=real)


def run():
    rng = np.random.default_rng(230)
    pairs = {}
    for dtype in (np.int32, np.int16):
        for n in SIZES:
            a = rng.integers(-30000, 30000, n).astype(dtype)
            b = rng.integers(1, 200, n).astype(dtype) * rng.choice(np.array([-1, 1], dtype), n)
            q = np.zeros(n, dtype)
            div_kernel[8](a, b, q, n, TILE)
            pairs[f"{np.dtype(dtype).name}_{n}"] = (q, (np.abs(a.astype(np.int64)) // np.abs(b))
                                                    * np.sign(a.astype(np.int64)) * np.sign(b))
    return checked(pairs, {"atol": 0.0, "rtol": 0.0})

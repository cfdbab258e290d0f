"""float16 activations computed in float32, as ops-nn kernels do: ``silu = x / (1 + exp(-x))`` and the sigmoid
approximation of GELU ``x / (1 + exp(-1.702 x))``, written with the ops every backend has (the negation as a
division by a negative constant). Lengths from the Gelu regression suite, 24 cores, the per-block length
``ceildiv(n, 24)`` rounded up to 16 elements and the windows past the end left to the clipping."""
import numpy as np

from asc.experimental import asctile

from _check import checked
from _tiling import ceildiv

EXPECT = "accept"
TOLERANCE = {"atol": 2e-3, "rtol": 2e-3}
SIZES = (1, 33, 1000, 4097)
GELU_SCALE = -1.0 / 1.702


@asctile.jit
def act_kernel(x_ptr, silu_ptr, gelu_ptr, n, per_block: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    silu = asctile.global_tensor(silu_ptr, [n])
    gelu = asctile.global_tensor(gelu_ptr, [n])
    off = asctile.block_idx() * per_block
    a = asctile.copy_in(x, [off], [per_block]).to(asctile.float32)
    asctile.copy_out((a / (1.0 + asctile.exp(a / -1.0))).to(asctile.float16), silu, [off])
    asctile.copy_out((a / (1.0 + asctile.exp(a / GELU_SCALE))).to(asctile.float16), gelu, [off])


def run():
    rng = np.random.default_rng(206)
    pairs = {}
    for n in SIZES:
        x = rng.uniform(-6, 6, n).astype(np.float16)
        silu, gelu = np.zeros_like(x), np.zeros_like(x)
        act_kernel[24](x, silu, gelu, n, ceildiv(ceildiv(n, 24), 16) * 16)
        xf = x.astype(np.float32)
        pairs[f"silu_{n}"] = (silu, (xf / (1 + np.exp(-xf))).astype(np.float16))
        pairs[f"gelu_{n}"] = (gelu, (xf / (1 + np.exp(-1.702 * xf))).astype(np.float16))
    return checked(pairs, TOLERANCE)

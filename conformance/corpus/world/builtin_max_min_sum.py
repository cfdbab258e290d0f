"""The builtins max / min / sum inside a kernel: over tiles (elementwise maximum / minimum, a tile sum), over
runtime scalars (clamping an index) and over Python values."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def clamp_kernel(x_ptr, y_ptr, z_ptr, n, tile: asctile.ConstExpr[int]):
    x = asctile.global_tensor(x_ptr, [n])
    y = asctile.global_tensor(y_ptr, [n])
    z = asctile.global_tensor(z_ptr, [n])
    last = max(n - tile, 0)
    off = min(asctile.block_idx() * tile, last)
    width = max(tile, 8, 16)
    a = asctile.copy_in(x, [off], [width])
    b = asctile.copy_in(y, [off], [width])
    hi = max(a, b)
    lo = min(a, b, a + b)
    asctile.copy_out(sum([hi, lo], a - a), z, [off])


def run():
    rng = np.random.default_rng(17)
    x = rng.standard_normal(64).astype(np.float32)
    y = rng.standard_normal(64).astype(np.float32)
    z = np.zeros_like(x)
    clamp_kernel[4](x, y, z, 64, 16)
    return {"z": z}

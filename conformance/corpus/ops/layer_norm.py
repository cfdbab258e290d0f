"""layer_norm of a [16, 64] float32 tile: output, mean and rstd (and the variance with output_rstd=False)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-5, "rtol": 1e-5}


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, g_ptr: asctile.GlobalAddress, b_ptr: asctile.GlobalAddress,
           out_ptr: asctile.GlobalAddress, stats_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [16, 64]), [0, 0], [16, 64])
    g = asctile.copy_in(asctile.global_tensor(g_ptr, [64]), [0], [64])
    b = asctile.copy_in(asctile.global_tensor(b_ptr, [64]), [0], [64])
    out, mean, rstd = asctile.layer_norm(x, g, b, 1e-5)
    _, _, var = asctile.layer_norm(x, g, b, 1e-5, output_rstd=False)
    stats = asctile.global_tensor(stats_ptr, [48])
    asctile.copy_out(out, asctile.global_tensor(out_ptr, [16, 64]), [0, 0])
    asctile.copy_out(mean, stats, [0])
    asctile.copy_out(rstd, stats, [16])
    asctile.copy_out(var, stats, [32])


def run():
    rng = np.random.default_rng(18)
    x = rng.standard_normal((16, 64)).astype(np.float32) * 2 + 1
    g = rng.standard_normal(64).astype(np.float32)
    b = rng.standard_normal(64).astype(np.float32)
    out = np.zeros_like(x)
    stats = np.zeros(48, np.float32)
    kernel[1](x, g, b, out, stats)
    return {"out": out, "stats": stats}

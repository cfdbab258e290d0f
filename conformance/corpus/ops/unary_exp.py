"""asctile.exp on float32 and float16 tiles (the one transcendental upstream's interpreter runs)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}


@asctile.jit
def exp_kernel(x_ptr: asctile.GlobalAddress, h_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
               hout_ptr: asctile.GlobalAddress, size: int, tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    h_gm = asctile.global_tensor(h_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    hout_gm = asctile.global_tensor(hout_ptr, [size])
    for t in asctile.range(asctile.block_idx(), size // tile, asctile.block_num()):
        asctile.copy_out(asctile.exp(asctile.copy_in(x_gm, [t * tile], [tile])), out_gm, [t * tile])
        asctile.copy_out(asctile.exp(asctile.copy_in(h_gm, [t * tile], [tile])), hout_gm, [t * tile])


def run():
    x = np.linspace(-8, 8, 2048, dtype=np.float32)
    h = x.astype(np.float16)
    out, hout = np.zeros_like(x), np.zeros_like(h)
    exp_kernel[2](x, h, out, hout, x.size, 256)
    return {"float32": out, "float16": hout}

"""tile.to(dtype): float16 -> float32 -> float16 round trip with arithmetic in float32 (in upstream's interpreter too)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"
TOLERANCE = {"atol": 1e-3, "rtol": 1e-3}


@asctile.jit
def cast_kernel(x_ptr: asctile.GlobalAddress, wide_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
                size: int, tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    wide_gm = asctile.global_tensor(wide_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in asctile.range(asctile.block_idx(), size // tile, asctile.block_num()):
        wide = asctile.copy_in(x_gm, [t * tile], [tile]).to(asctile.float32)
        asctile.copy_out(wide + 0.25, wide_gm, [t * tile])
        asctile.copy_out((wide / 3.0).to(asctile.float16), out_gm, [t * tile])


def run():
    x = np.linspace(-100, 100, 1024, dtype=np.float32).astype(np.float16)
    wide, out = np.zeros(x.size, np.float32), np.zeros_like(x)
    cast_kernel[2](x, wide, out, x.size, 256)
    return {"wide": wide, "narrow": out}

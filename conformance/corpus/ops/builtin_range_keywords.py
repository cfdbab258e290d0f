"""The builtin range inside a kernel is asctile.range and takes its keywords (unroll_factor, gm_barrier),
with runtime bounds (block_idx / block_num) and asctile.ceildiv of runtime values as the stop."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def copy_kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress, size: int,
                tile: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    out_gm = asctile.global_tensor(out_ptr, [size])
    for t in range(asctile.block_idx(), asctile.ceildiv(size, tile), asctile.block_num(), unroll_factor=2):
        asctile.copy_out(asctile.copy_in(x_gm, [t * tile], [tile]) + 1.0, out_gm, [t * tile])
    for t in range(asctile.block_idx(), asctile.ceildiv(size, tile), asctile.block_num(), unroll_factor=2,
                   gm_barrier=True):
        asctile.copy_out(asctile.copy_in(out_gm, [t * tile], [tile]) + 1.0, out_gm, [t * tile])


def run():
    x = np.arange(3000, dtype=np.float32)
    out = np.zeros_like(x)
    copy_kernel[3](x, out, x.size, 256)
    return {"out": out}

"""asctile.cast(tile, dtype) between float32, float16 and int32."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def cast_kernel(x_ptr: asctile.GlobalAddress, h_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress,
                size: asctile.ConstExpr[int]):
    x_gm = asctile.global_tensor(x_ptr, [size])
    h_gm = asctile.global_tensor(h_ptr, [size])
    i_gm = asctile.global_tensor(i_ptr, [size])
    x = asctile.copy_in(x_gm, [0], [size])
    asctile.copy_out(asctile.cast(x, asctile.float16), h_gm, [0])
    asctile.copy_out(asctile.cast(x, asctile.int32), i_gm, [0])


def run():
    x = np.linspace(-50, 50, 256, dtype=np.float32)
    h, i = np.zeros(x.size, np.float16), np.zeros(x.size, np.int32)
    cast_kernel[1](x, h, i, x.size)
    return {"float16": h, "int32": i}

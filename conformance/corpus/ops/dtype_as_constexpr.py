"""One kernel file for several output dtypes: the dtype is a compile-time parameter annotated
ConstExpr[DataType], chosen on the host by a helper that takes a DataType."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


def numpy_dtype(dtype: asctile.DataType):
    return {str(asctile.float16): np.float16, str(asctile.float32): np.float32}[str(dtype)]


@asctile.jit
def scale(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress, out_dtype: asctile.ConstExpr[asctile.DataType]):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    asctile.copy_out((x + x).to(out_dtype), asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32) / 8
    out = {}
    for dtype in (asctile.float16, asctile.float32):
        y = np.zeros(64, numpy_dtype(dtype))
        scale[1](x, y, dtype)
        out[str(dtype)] = y
    return out

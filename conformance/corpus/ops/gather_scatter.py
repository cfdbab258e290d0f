"""gather of every other row (one index outside the tensor: padded) and scatter of rows into a tensor."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, i_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress,
           d_ptr: asctile.GlobalAddress):
    src = asctile.global_tensor(x_ptr, [32, 8])
    index = asctile.copy_in(asctile.global_tensor(i_ptr, [16]), [0], [16])
    rows = asctile.gather(src, [0], 0, index, pad_value=-1.0)
    asctile.copy_out(rows, asctile.global_tensor(out_ptr, [16, 8]), [0, 0])
    asctile.scatter(rows, 0, index, asctile.global_tensor(d_ptr, [32, 8]), [0])


def run():
    x = np.arange(256, dtype=np.float32).reshape(32, 8)
    i = np.arange(0, 32, 2, dtype=np.int32)
    i[3] = 40
    out = np.zeros((16, 8), np.float32)
    d = np.zeros((32, 8), np.float32)
    kernel[1](x, i, out, d)
    return {"out": out, "d": d}

"""asctile.to_asc / from_asc round trip of a tile (handing it to pyasc's low-level asc API and back): this
engine has no low-level asc tensors, so to_asc of a tile is refused at the user's line."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "to_asc is not supported on this engine"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    low = asctile.to_asc(x)
    back = asctile.from_asc(low, location=asctile.TensorLocation.UB)
    asctile.copy_out(back + 1.0, asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y)
    return {"y": y}

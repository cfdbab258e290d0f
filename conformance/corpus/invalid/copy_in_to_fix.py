"""copy_in(..., TensorLocation.FIX): FIX is the fixpipe (the L0C -> GM / UB / L1 path), not a buffer a tile
is loaded into. pyasc's front end lets the location through; this engine refuses it at the user's line."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "invalid destination location of the tile"


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64], asctile.TensorLocation.FIX)
    asctile.copy_out(x, asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y)
    return {"y": y}

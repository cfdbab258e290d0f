"""asctile.inline: raw Ascend C, which this engine cannot execute."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = 'inline is not supported on this engine'


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress):
    asctile.inline("constexpr int32_t ROWS = 8;")


def run():
    x = np.arange(64, dtype=np.float32).reshape(1, 64)
    kernel[1](x)
    return {"x": x}

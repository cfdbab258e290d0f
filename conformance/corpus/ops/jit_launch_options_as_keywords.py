"""The launch options as jit keywords (``@asctile.jit(core_num=2, stream=None)``): upstream lists them among
jit's keywords (``get_config_keywords``) and its decorator takes them, but its launch then binds them to the
kernel's parameters and fails; this engine applies them as the launch options they name."""
import numpy as np

from asc.experimental import asctile

EXPECT = "accept"


@asctile.jit(core_num=2, stream=None)
def add_one(x_ptr, y_ptr):
    x = asctile.global_tensor(x_ptr, [2, 64])
    y = asctile.global_tensor(y_ptr, [2, 64])
    asctile.copy_out(asctile.copy_in(x, [asctile.block_idx(), 0], [1, 64]) + 1.0, y, [asctile.block_idx(), 0])


def run():
    x = np.arange(128, dtype=np.float32).reshape(2, 64)
    y = np.zeros_like(x)
    add_one[2](x, y)
    return {"y": y}

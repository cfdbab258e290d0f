"""copy_out of a global tensor (it writes a local tensor or a scalar)."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = ("'src' argument must be (<class 'asc.experimental.asctile.language.local_tensor.LocalTensor'>, "
         "typing.Union[asc.language.core.ir_value.PlainValue, int, float]), got GlobalTensor")


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, out_ptr: asctile.GlobalAddress):
    x_gm = asctile.global_tensor(x_ptr, [8, 64])
    asctile.copy_out(x_gm, asctile.global_tensor(out_ptr, [8, 64]), [0, 0])


def run():
    x = np.ones((8, 64), np.float32)
    out = np.zeros_like(x)
    kernel[1](x, out)
    return {"out": out}

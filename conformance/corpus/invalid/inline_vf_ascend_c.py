"""asctile.inline_vf: an Ascend C vector function body, which this engine cannot execute."""
import numpy as np

from asc.experimental import asctile

EXPECT = "reject"
ERROR = "inline_vf is not supported on this engine"

BODY = """
auto* out = reinterpret_cast<__ubuf__ float*>($0.GetPhyAddr());
auto* x = reinterpret_cast<__ubuf__ float*>($1.GetPhyAddr());
AscendC::Reg::RegTensor<float> reg;
AscendC::Reg::DataCopy(reg, x);
AscendC::Reg::DataCopy(out, reg);
"""


@asctile.jit
def kernel(x_ptr: asctile.GlobalAddress, y_ptr: asctile.GlobalAddress):
    x = asctile.copy_in(asctile.global_tensor(x_ptr, [64]), [0], [64])
    y = asctile.inline_vf(BODY, x.shape, x.dtype, [x])
    asctile.copy_out(y, asctile.global_tensor(y_ptr, [64]), [0])


def run():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    kernel[1](x, y)
    return {"y": y}
